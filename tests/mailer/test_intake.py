"""The journal side of intake: group commit, duplicates, unreadable mail (issue 5)."""
from __future__ import annotations

import asyncio
import json
import logging
import smtplib
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

from mailer import intake
from mailer.intake import JournalWriter
from nomic.game import Game
from tests.support import GAME_ADDRESS, make_mail

AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)


def test_receive_many_is_one_chain_and_reports_duplicates(play):
    game = Game(play.dir)
    game.inbox.receive(make_mail("a@x.test", "Proposal: Old", message_id="old@x"), AT)
    batch = [game.inbox.prepare(make_mail("a@x.test", f"Proposal: P{i}", message_id=f"p{i}@x"), AT) for i in range(3)]
    again = game.inbox.prepare(make_mail("a@x.test", "Proposal: Old", message_id="old@x"), AT)
    receipts = game.inbox.receive_many([batch[0], again, batch[1], batch[0], batch[2]])
    assert [(r.status, r.seq) for r in receipts] == [
        ("new", 2), ("duplicate", 1), ("new", 3), ("duplicate", 2), ("new", 4)]
    game.process()
    assert [s["title"] for s in play.state()["submissions"]] == ["Old", "P0", "P1", "P2"]
    play.verify()


def test_the_writer_commits_what_waits_together(play):
    game = Game(play.dir)
    sizes: list[int] = []
    real = game.inbox.receive_many
    game.inbox.receive_many = lambda arrivals: sizes.append(len(arrivals)) or real(arrivals)  # type: ignore[method-assign]
    writer = JournalWriter(game.inbox)

    async def deliver() -> list[int]:
        futures = [writer.submit(game.inbox.prepare(make_mail("a@x.test", f"Proposal: P{i}", message_id=f"w{i}@x"), AT))
                   for i in range(40)]
        writer.start()  # 40 already waiting: one transaction
        return [receipt.seq for receipt in await asyncio.gather(*futures)]

    assert asyncio.run(deliver()) == list(range(1, 41))
    writer.stop()
    assert sizes == [40]


def test_unreadable_mail_is_journaled_unauthenticated_and_changes_nothing(play):
    game = Game(play.dir)
    raw = b"From: =?utf-8?q?broken\r\nContent-Type: multipart/mixed; boundary=\r\n\r\n\xff\xfe garbage"
    before = play.state()["players"]
    receipt = game.inbox.receive(raw, AT)
    assert receipt.status == "new"
    game.process()
    assert play.state()["players"] == before
    assert play.outbox() == []
    play.verify()


def test_concurrent_smtp_clients_all_get_250_and_one_chain(play, serve):
    daemon = serve(play)

    def send(i: int) -> dict:
        raw = make_mail(f"p{i}@x.test", f"Proposal: Cake {i}", message_id=f"c{i}@x").replace(b"\n", b"\r\n")
        with smtplib.SMTP("127.0.0.1", daemon.ports["smtp"], timeout=60) as client:
            return client.sendmail(f"p{i}@x.test", [GAME_ADDRESS], raw)
    with ThreadPoolExecutor(12) as pool:
        assert list(pool.map(send, range(24))) == [{}] * 24
    assert daemon.stop() == 0
    st = play.state()
    assert sorted(s["title"] for s in st["submissions"]) == sorted(f"Cake {i}" for i in range(24))
    assert len(play.outbox()) >= 24
    play.verify()
    entries = json.loads(play.cli("outbox", "--json"))
    assert all(e["kind"] != "answer" or e["to"][0].startswith("p") for e in entries)


def test_the_writer_logs_the_entries_it_committed_in_one_line_a_second_at_most(play, caplog, monkeypatch):
    """Three commits (one message each, each awaited): one INFO line naming all three, written when
    the writer stops (LOG_EVERY had not passed); a duplicate is no new entry."""
    monkeypatch.setattr(intake, "LOG_EVERY", 600.0)  # however slow the machine, no line before the stop
    game = Game(play.dir)
    writer = JournalWriter(game.inbox).start()
    mails = [make_mail("a@x.test", f"Proposal: P{i}", message_id=f"l{i}@x") for i in (1, 2, 3, 1)]

    async def deliver() -> list[str]:
        return [(await writer.submit(game.inbox.prepare(raw, AT))).status for raw in mails]

    with caplog.at_level(logging.INFO, logger="nomic.intake"):
        assert asyncio.run(deliver()) == ["new", "new", "new", "duplicate"]
        writer.stop()
    assert [r.getMessage() for r in caplog.records] == ["journal entries 1 to 3 committed (3 new)"]
