"""A game of any ruleset through the real command line, set up as an operator would: ``nomic init DIR
--ruleset NAME``, then a few keys of the game.toml it wrote edited; then ``tests.support.Play``'s
ingest, tick, state and replay."""
from __future__ import annotations

import re
import tomllib
from itertools import count
from pathlib import Path

from typer.testing import CliRunner

from tests.support import Play, make_mail

_KEY = re.compile(r"^(\w+)\s*=")
_TABLE = re.compile(r"^\[(\w+)\]\s*$")


def configured(text: str, settings: dict[str, dict[str, str]]) -> str:
    """``text`` (a game.toml) with each ``settings[table][key]`` (a TOML value as written) in place of
    that key's line; every key must be in the file already."""
    table, lines, done = "", [], set()
    for line in text.splitlines():
        if (t := _TABLE.match(line)):
            table = t[1]
        elif (k := _KEY.match(line)) and k[1] in settings.get(table, {}):
            line = f"{k[1]} = {settings[table][k[1]]}"
            done.add((table, k[1]))
        lines.append(line)
    missing = {(t, k) for t, keys in settings.items() for k in keys} - done
    assert not missing, f"not in the game.toml nomic init wrote: {sorted(missing)}"
    return "\n".join(lines) + "\n"


def message_id(mail: dict) -> str:
    """The Message-ID (without angle brackets) of a mail as ``nomic outbox --json`` lists it."""
    found = re.search(r"^Message-ID: <(.+)>$", mail["text"], re.M)
    assert found is not None, mail["text"]
    return found[1]


class RulesetPlay(Play):
    """``Play`` for a game made by ``nomic init DIR --ruleset NAME``; mail goes to its address, and
    ``sent`` counts it."""

    def __init__(self, dir: Path, ruleset: str, database_url: str, settings: dict[str, dict[str, str]]):
        self.dir, self.runner, self._n, self.sent = dir, CliRunner(), count(1), 0
        self.cli("init", str(dir), "--ruleset", ruleset)
        toml = dir / "game.toml"
        base = {"game": {"seed": '"test-seed"', "start": '"2026-01-05T00:00:00Z"', "database_url": f'"{database_url}"'}, "auth": {"mode": '"none"'}}
        toml.write_text(configured(toml.read_text(), {t: base.get(t, {}) | settings.get(t, {})
                                                      for t in base.keys() | settings.keys()}))
        self.address = tomllib.loads(toml.read_text())["game"]["address"]

    def send(self, sender: str, subject: str, body: str = "", at: str = "2026-01-05T01:00:00Z", **kw) -> str:
        kw.setdefault("to", self.address)
        self.sent += 1
        return super().send(sender, subject, body, at, **kw)

    def send_all(self, at: str, *mails: tuple[str, str, str], names: dict[str, str] | None = None) -> str:
        """Several mails (sender, subject, body), received in this order at the same moment: one
        ``nomic ingest`` of them all; ``names``: the senders' names in From; returns its outcome lines."""
        paths = []
        for sender, subject, body in mails:
            msgid = f"m{next(self._n)}@test"
            path = self.dir.parent / f"{self.dir.name}-{msgid}.eml"
            path.write_bytes(make_mail(sender, subject, body, to=self.address, message_id=msgid,
                                       name=(names or {}).get(sender, "")))
            paths.append(str(path))
        self.sent += len(mails)
        return self.cli("ingest", "--at", at, *paths)

    def reply(self, sender: str, message_id: str, body: str, at: str, subject: str = "Re: your message") -> str:
        """A reply in the thread of ``message_id`` (without angle brackets)."""
        return self.send(sender, subject, body, at, headers={"In-Reply-To": f"<{message_id}>",
                                                            "References": f"<{message_id}>"})

    def mail_to(self, address: str) -> list[dict]:
        """What the game queued for ``address``, oldest first (``nomic outbox --json``)."""
        return [m for m in self.outbox() if address in m["to"]]

    def announcements(self, number: int) -> list[dict]:
        """The list's mail about matter ``number`` (Message-ID ``<sub{number}.KIND...>``), oldest first:
        its announcement, then what became of it."""
        return [m for m in self.outbox() if m["kind"] == "announcement" and f"\nMessage-ID: <sub{number}." in m["text"]]

    def answer_to(self, sender: str) -> str:
        """The text of the latest answer to ``sender``."""
        return [m for m in self.mail_to(sender) if m["kind"] == "answer"][-1]["text"]


def said(play: RulesetPlay, sender: str, *lines: str) -> None:
    """The latest answer to ``sender`` says exactly these lines, in order: '  "command": result' for
    what was done, '! "command": why not' for what was refused."""
    text = play.answer_to(sender)
    assert [ln for ln in text.splitlines() if ln.startswith(('  "', '! "'))] == list(lines), text
