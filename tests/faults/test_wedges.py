"""Nothing a message contains can stop a game (issue 26).

A lone surrogate (what utf-7, unicode_escape, raw_unicode_escape and punycode decode
some bytes to) in a Subject, body or display name made storing the parsed input fail
outside the fault handling: the batch rolled back and was retried for ever, and later
genuine mail was never answered. Every Python codec name is tried here as the charset
of each, and the game must keep going, with nothing recorded as a fault.
"""
from __future__ import annotations

import base64
import codecs
import encodings
import encodings.aliases
import pkgutil
import re
from datetime import datetime, timedelta, timezone

import pytest
from sqlmodel import Session

import storage
from nomic.game import Game
from tests.support import make_mail

ALICE = "alice@wonder.land"
START = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
_SURROGATE = re.compile("[\ud800-\udfff]")
# Bytes that some codec decodes to a lone surrogate: utf-7's "+2D0-" is U+D83D alone.
_CANDIDATES = [b"+2D0-", b"\\ud800", b"\\U0000d800"]


def codec_names() -> list[str]:
    """Every codec name the standard library knows: its aliases and its modules, that a look-up finds."""
    names = set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values())
    names |= {m.name for m in pkgutil.iter_modules(encodings.__path__)}
    found = []
    for name in sorted(names):
        try:
            codecs.lookup(name)
        except LookupError:
            continue
        found.append(name)
    return found


def hostile_bytes(codec: str) -> bytes:
    """Bytes that ``codec`` decodes to a lone surrogate if any do; else the candidates for other codecs."""
    tries = list(_CANDIDATES)
    for errors in ("surrogatepass", "strict"):
        try:
            tries.append("\ud800 x".encode(codec, errors))
        except Exception:  # most codecs cannot write one
            pass
    for data in tries:
        try:
            text = data.decode(codec)
        except Exception:
            continue
        if isinstance(text, str) and _SURROGATE.search(text):
            return data
    return b" ".join(_CANDIDATES)


def hostile_mail(codec: str, i: int) -> bytes:
    """A Proposal with the codec's bytes in the charset of its Subject, its body and its author's display name."""
    data = hostile_bytes(codec)
    word = f"=?{codec}?B?{base64.b64encode(data).decode()}?="
    head = (f"From: {word} <s{i}@codecs.test>\nTo: ths@imperial.test\nSubject: Proposal: {word}\n"
            f"Message-ID: <{i}@codecs.test>\nMIME-Version: 1.0\n"
            f"Content-Type: text/plain; charset=\"{codec}\"\nContent-Transfer-Encoding: base64\n\n")
    return head.encode() + base64.encodebytes(data)


def skips(game: Game) -> dict[int, str]:
    with game.db.connect() as conn:
        return storage.skipped(conn)


def processed(game: Game) -> int:
    with Session(game.db) as s:
        return int(storage.get_meta(s, "processed_seq", "0"))


def test_some_codecs_decode_to_lone_surrogates():
    """The test below can fail: these codecs turn the bytes it sends into lone surrogates."""
    surrogates = {codecs.lookup(n).name for n in codec_names() if _SURROGATE.search(
        _decoded_or_empty(hostile_bytes(n), n))}
    assert {"utf-7", "unicode-escape", "raw-unicode-escape", "punycode"} <= surrogates


def _decoded_or_empty(data: bytes, codec: str) -> str:
    try:
        text = data.decode(codec)
    except Exception:
        return ""
    return text if isinstance(text, str) else ""


def test_every_codec_as_the_charset_of_subject_body_and_name_leaves_the_game_going(play):
    game = Game(play.dir)
    names = codec_names()
    assert len(names) > 400
    mails = [hostile_mail(name, i) for i, name in enumerate(names)]
    game.inbox.receive_many([game.inbox.prepare(raw, START + timedelta(seconds=i)) for i, raw in enumerate(mails)])
    game.process()
    assert processed(game) == game.journal_length() == len(mails)
    assert skips(game) == {}  # made valid on the way in: nothing faulted
    out = play.propose(ALICE, "Genuine", at="2026-01-05T03:00:00Z")
    assert f"journal entry {len(mails) + 1}: recorded as Proposal" in out
    assert [m["to"] for m in play.outbox() if m["kind"] == "answer"][-1] == [ALICE]
    st = play.state()
    assert st["submissions"][-1]["title"] == "Genuine"
    titles = [s["title"] for s in st["submissions"]]
    assert "\ufffd x" in titles  # a utf-7 Subject's surrogate, replaced
    assert "\ufffd x" in [p["name"] for p in st["players"]]  # and a display name's
    play.verify()


def test_an_entry_that_faults_while_its_input_is_stored_is_skipped_once(play, monkeypatch):
    """The fault boundary holds without the normalising: the surrogate reaches the cache of parsed
    inputs, that entry alone is recorded as a fault, and the game goes on."""
    monkeypatch.setattr("mailer.message.valid_text", lambda text: text)
    game = Game(play.dir)
    game.inbox.receive(hostile_mail("utf-7", 0), START)
    game.process()
    assert list(skips(game)) == [1]
    assert "surrogates not allowed" in skips(game)[1]
    out = play.propose(ALICE, "Genuine", at="2026-01-05T03:00:00Z")
    assert "journal entry 3: recorded as Proposal 1" in out  # 2 is the skip entry
    assert [s["title"] for s in play.state()["submissions"]] == ["Genuine"]
    assert processed(game) == game.journal_length() == 3
    play.verify()
    assert list(skips(Game(play.dir))) == [1]  # the replays skipped it without recording it again


def test_verify_fails_on_a_game_whose_processing_is_stuck(play, monkeypatch):
    play.propose(ALICE, "First")
    game = Game(play.dir)
    game.inbox.receive(make_mail(ALICE, "Proposal: Second", message_id="stuck@x"), START)

    def wedged(*args, **kwargs):
        raise RuntimeError("the store fails")
    monkeypatch.setattr(storage, "add_events", wedged)
    with pytest.raises(RuntimeError):
        game.process()
    monkeypatch.undo()
    out = play.cli("replay", "--verify", ok=False)
    assert "processed only up to journal entry 1 of 2" in out
    assert play.runner.invoke(__import__("nomic.cli").cli.app,
                              ["replay", "--verify", "--game", str(play.dir)]).exit_code == 1
