"""A mail's deliveries are written by the sender, not the fold: each outbox row is expanded into one
delivery per recipient exactly once, however many senders run, and a crash on either side of the
expansion loses and doubles nothing. Until then ``nomic outbox`` shows the mail queued to everyone."""
from __future__ import annotations

import shutil
import signal
import threading
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy import func, select

from mailer.outbox import DELIVERIES, OUTBOX, claim_batch, expand, expand_rows
from nomic.game import Game
from tests.outbox.conftest import configure
from tests.outbox.test_sender import MEMBERS, arrivals, deliveries, fan_out, start_sender, wait_for
from tests.support import Play

NOW = datetime(2026, 1, 5, 2, tzinfo=timezone.utc)
RELEASE_0005 = Path(__file__).resolve().parent.parent / "fixtures" / "release-0005"


def wanted(game) -> list[tuple[int, str]]:
    """(outbox id, recipient) of every delivery the outbox asks for, oldest mail first, in its recipients' order."""
    return [(row["id"], r) for row in game.outbox() for r in row["to"]]


def expanded(game) -> list[int]:
    with Game(game.dir).db.connect() as conn:
        return [r[0] for r in conn.execute(select(OUTBOX.c.id).where(OUTBOX.c.expanded).order_by(OUTBOX.c.id))]


def test_the_fold_writes_no_delivery_and_the_outbox_shows_every_recipient_queued(game):
    fan_out(game)  # five answers, and the post's copy to the five members
    assert deliveries(game) == []
    rows = game.outbox()
    assert [(r["kind"], r["status"], r["deliveries"]) for r in rows] == [
        ("answer", "queued", {"queued": 1})] * 5 + [("list", "queued", {"queued": 5})]
    assert rows[-1]["to"] == MEMBERS
    assert game.cli("outbox").splitlines()[-1] == f"    6 queued  list         {', '.join(MEMBERS)}: [Test Nomic] Hello"


def test_the_sender_writes_each_mails_deliveries_once_and_sends_each_once(game, relay):
    fan_out(game)
    want = wanted(game)
    assert game.cli("send") == "sent 10 deliveries\n"
    assert [(d.outbox_id, d.rcpt, d.status) for d in deliveries(game)] == [(o, r, "sent") for o, r in want]
    assert set(arrivals(relay).values()) == {1} and len(arrivals(relay)) == 10
    assert [r["deliveries"] for r in game.outbox()] == [{"sent": 1}] * 5 + [{"sent": 5}]
    assert game.cli("send") == "sent 0 deliveries\n"
    assert len(deliveries(game)) == 10 and len(relay.arrived) == 10


def test_a_claim_expands_only_the_mail_it_needs(make_play, relay):
    game = configure(make_play(), relay.address, batch=3)
    fan_out(game)
    with Game(game.dir).db.begin() as conn:
        claimed = claim_batch(conn, "a-sender", NOW, NOW, 3)
    assert [(d.rcpt, d.attempts) for d in claimed] == [(m, 1) for m in MEMBERS[:3]]  # the first three answers
    assert expanded(game) == [1, 2, 3]
    assert [r["deliveries"] for r in game.outbox()] == [{"claimed": 1}] * 3 + [{"queued": 1}] * 2 + [{"queued": 5}]


def test_two_senders_claiming_at_once_expand_each_mail_once(game):
    fan_out(game)
    db, start = Game(game.dir).db, threading.Barrier(2)
    claims: dict[str, list] = {}

    def sender(claim: str) -> None:
        start.wait()
        with db.begin() as conn:
            claims[claim] = claim_batch(conn, claim, NOW, NOW, 100)

    threads = [threading.Thread(target=sender, args=(c,)) for c in ("first", "second")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [(d.outbox_id, d.rcpt) for d in deliveries(game)] == wanted(game)
    assert sorted(len(c) for c in claims.values()) == [0, 10]  # one took them all; nobody took one twice


def test_a_sender_that_read_the_same_rows_before_another_expanded_them_writes_nothing(game):
    """The race two PostgreSQL senders can run: both read the rows still unexpanded, one marks
    them and commits, then the other's mark finds them marked."""
    fan_out(game)
    db = Game(game.dir).db
    with db.begin() as conn:
        stale = [r[0] for r in conn.execute(select(OUTBOX.c.id).order_by(OUTBOX.c.id))]
    with db.begin() as conn:
        assert expand(conn, 100) == 6
    with db.begin() as conn:
        assert expand_rows(conn, stale) == 0
    assert [(d.outbox_id, d.rcpt) for d in deliveries(game)] == wanted(game)


def test_an_expansion_rolled_back_leaves_the_mail_queued_to_everyone(game, relay):
    fan_out(game)
    db = Game(game.dir).db
    with pytest.raises(RuntimeError), db.begin() as conn:
        assert len(claim_batch(conn, "dies", NOW, NOW, 100)) == 10
        raise RuntimeError("the sender dies before its claim commits")
    assert deliveries(game) == [] and expanded(game) == []
    game.cli("send")
    assert Counter(arrivals(relay).values()) == {1: 10}


def test_a_sender_killed_after_expanding_before_handing_anything_over_loses_and_doubles_nothing(game, relay):
    fan_out(game)
    want = wanted(game)
    relay.rcpt_delay = 0.5
    proc = start_sender(game)
    wait_for(lambda: relay.slowed == 1, proc)  # the claim (and its expansion) committed; the first RCPT waits
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert relay.arrived == []
    assert [(d.outbox_id, d.rcpt, d.status) for d in deliveries(game)] == [(o, r, "claimed") for o, r in want]
    relay.rcpt_delay = 0
    game.cli("send")
    assert Counter(arrivals(relay).values()) == {1: 10}
    assert [(d.outbox_id, d.rcpt, d.status) for d in deliveries(game)] == [(o, r, "sent") for o, r in want]


@pytest.mark.sqlite_only  # the fixture is a SQLite database
def test_a_game_upgraded_from_an_older_release_sends_the_deliveries_it_had_once(tmp_path, relay):
    """release-0005 wrote every mail's deliveries with it (24 queued, to 17 mails): upgraded,
    its mails count as expanded, and each of those deliveries goes out once."""
    shutil.copytree(RELEASE_0005, tmp_path / "game")
    game = configure(Play.existing(tmp_path / "game"), relay.address)
    game.cli("upgrade")
    before = [(d.id, d.outbox_id, d.rcpt) for d in deliveries(game) if d.status == "queued"]
    assert len(before) == 24 and len(expanded(game)) == len(game.outbox())
    assert game.cli("send") == "sent 24 deliveries\n"
    assert [(d.id, d.outbox_id, d.rcpt, d.status) for d in deliveries(game)] == [(*d, "sent") for d in before]
    assert len(relay.arrived) == 24
    with Game(game.dir).db.connect() as conn:
        assert conn.execute(select(func.count()).select_from(DELIVERIES)).scalar() == 24
