"""A message that cannot be read stops nothing (issue 26): a From with 600 nested "(" raised
RecursionError before the message was journaled; SMTP answered 451 (retried for ever), ``nomic poll``
retried it for ever and journaled nothing more, ``nomic ingest`` crashed.

Now the sender's fault gets a 5xx from SMTP and LMTP, and ``poll`` and ``ingest`` journal it,
its fold records it as a fault, and the genuine mail after it is played.
"""
from __future__ import annotations

import asyncio
import smtplib
from datetime import datetime, timezone

import pytest
from sqlmodel import Session, select

from mailer.auth_pool import AuthPool
from mailer.intake import UNSTORED, JournalWriter, Mailbox
from mailer.message import MAX_NESTING, Unreadable, nesting, parse, parse_head
from nomic.game import Game
from storage import JournalEntry, skipped
from tests.mailer.test_imap_poll import deliver, mailbox
from tests.support import GAME_ADDRESS, make_mail

ALICE = "alice@wonder.land"
MALLORY = "mallory@evil.test"


def nested_from(depth: int = 600, field: str = "From") -> bytes:
    raw = make_mail(MALLORY, "Proposal: Mine", "Accept 1", message_id="nested@evil.test")
    return raw.replace(f"{field}: ".encode(), f"{field}: {'(' * depth}x{')' * depth} ".encode(), 1)


def genuine() -> bytes:
    return make_mail(ALICE, "Proposal: Cake", "Cake for all.", message_id="cake@wonder.land")


def journal(play) -> list[JournalEntry]:
    with Session(Game(play.dir).db) as s:
        return list(s.exec(select(JournalEntry).order_by(JournalEntry.seq)).all())


def faults(play) -> dict[int, str]:
    with Game(play.dir).db.connect() as conn:
        return skipped(conn)


@pytest.mark.parametrize("field", ["From", "To"])
def test_address_fields_nested_past_the_bound_are_unreadable_and_up_to_it_read(field):
    with pytest.raises(Unreadable, match=f"its {field} field nests comments more than {MAX_NESTING} deep"):
        parse_head(nested_from(MAX_NESTING + 1, field))
    with pytest.raises(Unreadable):
        parse(nested_from(600, field))
    assert parse(nested_from(MAX_NESTING, field)).sender == MALLORY


def test_nesting_counts_comments_as_the_address_parser_reads_them():
    assert nesting('"((((((" <a@b.c> (one (two))') == 2  # a quoted string holds no comment
    assert nesting(r"(a \( \( \( b) <a@b.c>") == 1  # escaped
    assert nesting("a@b.c ((((") == 4  # unclosed


def _smtp_send(port: int, raw: bytes, lmtp: bool = False) -> tuple[int, str]:
    client = smtplib.LMTP("127.0.0.1", port, timeout=60) if lmtp else smtplib.SMTP("127.0.0.1", port, timeout=60)
    try:
        client.sendmail(MALLORY if b"nested" in raw else ALICE, [GAME_ADDRESS], raw.replace(b"\n", b"\r\n"))
        return 250, ""
    except smtplib.SMTPDataError as exc:
        return exc.smtp_code, exc.smtp_error.decode()
    finally:
        client.quit()


@pytest.mark.parametrize("kind", ["smtp", "lmtp"])
def test_smtp_and_lmtp_refuse_it_with_a_5xx_and_take_the_next(play, serve, kind):
    daemon = serve(play)
    code, text = _smtp_send(daemon.ports[kind], nested_from(), lmtp=kind == "lmtp")
    assert (code, text) == (554, f"5.6.0 The message cannot be read: its From field nests comments "
                                 f"more than {MAX_NESTING} deep")
    assert _smtp_send(daemon.ports[kind], genuine(), lmtp=kind == "lmtp") == (250, "")
    assert daemon.stop() == 0
    assert [s["title"] for s in play.state()["submissions"]] == ["Cake"]
    assert len(journal(play)) == 1  # refused: never journaled
    assert [m["to"] for m in play.outbox() if m["kind"] == "answer"] == [[ALICE]]
    play.verify()


def test_ingest_journals_it_as_a_fault_and_plays_the_next(play):
    bad, good = play.dir.parent / "nested.eml", play.dir.parent / "cake.eml"
    bad.write_bytes(nested_from())
    good.write_bytes(genuine())
    out = play.cli("ingest", "--at", "2026-01-05T01:00:00Z", str(bad), str(good))
    assert out.splitlines() == [
        f"{bad}: journal entry 1: could not be played; recorded as a fault and skipped "
        f"(Unreadable('its From field nests comments more than {MAX_NESTING} deep'))",
        f"{good}: journal entry 3: recorded as Proposal 1, pending before the Emperor"]
    assert list(faults(play)) == [1]
    assert [s["title"] for s in play.state()["submissions"]] == ["Cake"]
    play.verify()


def test_poll_journals_it_as_a_fault_marks_it_and_plays_the_next(play, dovecot):
    client = mailbox(play, dovecot)
    deliver(client, nested_from())
    deliver(client, genuine())
    assert play.cli("poll", "--once") == "2 new message(s) journaled\n"
    client.select_folder("INBOX")
    assert all(b"\\Seen" in flags for flags in client.get_flags([1, 2]).values())
    assert list(faults(play)) == [1]
    assert [s["title"] for s in play.state()["submissions"]] == ["Cake"]
    assert [m["to"] for m in play.outbox() if m["kind"] == "answer"] == [[ALICE]]
    assert play.cli("poll", "--once") == "0 new message(s) journaled\n"  # nothing left to retry
    play.verify()
    client.logout()


def test_a_fault_of_ours_while_reading_is_a_451_and_the_senders_a_554(play):
    """The reply decides whether the sending server retries: only the sender's own fault is final."""
    game = Game(play.dir)
    box = Mailbox(game.inbox, JournalWriter(game.inbox))

    def reply(raw: bytes) -> str:
        return asyncio.run(box.journal(raw, datetime.now(timezone.utc), "smtp", ALICE, [GAME_ADDRESS], AuthPool()))

    assert reply(nested_from()).startswith("554 5.6.0 The message cannot be read: its From field nests")

    def broken(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")
    game.inbox.prepare = broken  # type: ignore[method-assign]
    assert reply(genuine()) == UNSTORED
    assert journal(play) == []
