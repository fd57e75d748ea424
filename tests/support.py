"""Playing a game in tests through the real command line (``nomic ingest`` / ``nomic tick``)."""
from __future__ import annotations

import json
from email.message import EmailMessage
from email.utils import format_datetime
from itertools import count
from pathlib import Path

from typer.testing import CliRunner

from engine.ruleset import ruleset_for
from mailer.grammar import Grammar
from nomic.cli import app
from storage.config import parse_time

EMPEROR = "tie@imperial.test"
SCRIBE = "ths@imperial.test"
GAME_ADDRESS = "ths@imperial.test"
LIST_ADDRESS = "players@imperial.test"

GAME_TOML = """\
[game]
name = "Test Nomic"
address = "ths@imperial.test"
list_address = "players@imperial.test"
start = "2026-01-05T00:00:00Z"
seed = "{seed}"
day_mode = "{day_mode}"
database_url = "{database_url}"

[offices]
emperor = "{emperor}"
scribe = "{scribe}"
first_it = "{first_it}"

[auth]
mode = "{auth}"
"""


def make_mail(sender: str, subject: str, body: str = "", *, to: str = GAME_ADDRESS,
              message_id: str | bool | None = None, headers: dict[str, str] | None = None,
              name: str = "") -> bytes:
    """A plain-text mail; ``message_id=False`` leaves the Message-ID header out."""
    msg = EmailMessage()
    msg["From"] = f"{name} <{sender}>" if name else sender
    msg["To"] = to
    msg["Subject"] = subject
    if message_id is not False:
        msg["Message-ID"] = f"<{message_id or f'{id(msg)}@test'}>"
    for k, v in (headers or {}).items():
        msg[k] = v
    msg.set_content(body)
    return bytes(msg)


class Play:
    """A test game in ``dir``, driven through the CLI exactly as an operator would."""

    def __init__(self, dir: Path, **options: str):
        self.attach(dir)
        settings = {"seed": "test-seed", "day_mode": "emperor", "database_url": "",
                    "emperor": EMPEROR, "scribe": SCRIBE, "first_it": "", "auth": "none"}
        settings.update(options)
        cfg = dir.parent / f"{dir.name}.toml"
        cfg.write_text(GAME_TOML.format(**settings))
        self.cli("init", str(dir), "--config", str(cfg))

    @classmethod
    def existing(cls, dir: Path) -> "Play":
        """A game made elsewhere (no ``nomic init``)."""
        play = cls.__new__(cls)
        play.attach(dir)
        return play

    def attach(self, dir: Path) -> None:
        """Drive the game in ``dir`` (``__init__`` also creates it)."""
        self.dir = dir
        self.runner = CliRunner()
        self._n = count(1)

    def cli(self, *args: str, ok: bool = True, input: bytes | None = None) -> str:
        argv = list(args)
        if args and args[0] != "init":
            argv += ["--game", str(self.dir)]
        result = self.runner.invoke(app, argv, input=input, catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, f"nomic {' '.join(args)} failed: {result.output}"
        return result.output

    def send(self, sender: str, subject: str, body: str = "", at: str = "2026-01-05T01:00:00Z",
             **kw) -> str:
        """Mail one message to the game and ingest it at ``at``; returns the outcome line."""
        kw.setdefault("message_id", f"m{next(self._n)}@test")
        raw = make_mail(sender, subject, body, **kw)
        path = self.dir.parent / f"{self.dir.name}-{kw['message_id']}.eml"
        path.write_bytes(raw)
        return self.cli("ingest", "--at", at, str(path))

    def propose(self, sender: str, title: str, body: str = "", at: str = "2026-01-05T01:00:00Z") -> str:
        return self.send(sender, f"Proposal: {title}", body, at=at)

    def judge(self, line: str, at: str = "2026-01-05T02:00:00Z") -> str:
        return self.send(EMPEROR, "judgment", line, at=at)

    def tick(self, at: str) -> str:
        return self.cli("tick", "--at", at)

    def state(self) -> dict:
        return json.loads(self.cli("state", "--json"))

    def player(self, email: str) -> dict:
        return next(p for p in self.state()["players"] if p["email"] == email)

    def outbox(self) -> list[dict]:
        return json.loads(self.cli("outbox", "--json"))

    def verify(self) -> None:
        """The stored state is what the journal folds to, from the cached commands and from the mail."""
        assert "matches the stored state (from the parsed inputs)" in self.cli("replay", "--verify")
        assert "matches the stored state (parsing every message again)" in self.cli("replay", "--verify", "--reparse")


def at(day: int, hour: int = 1) -> str:
    """An ISO time on game day ``day`` of a game starting 2026-01-05 (fixed 24 h days)."""
    t = parse_time("2026-01-05T00:00:00Z")
    from datetime import timedelta
    return (t + timedelta(days=day - 1, hours=hour)).isoformat().replace("+00:00", "Z")


def rfc2822(iso: str) -> str:
    return format_datetime(parse_time(iso))


GRAMMAR = Grammar(ruleset_for("imperial").commands)  # the Imperial grammar, for tests that read mail text directly
