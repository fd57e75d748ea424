"""Two writers on one journal (the daemon and `nomic ingest`, say): the chain must still link
every entry to the one before, each message once."""
from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

import pytest

import storage
from nomic.game import Game
from tests.support import make_mail

AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)


def chain(game: Game) -> list[tuple[int, str]]:
    check = storage.Chain()
    with game.db.connect() as conn:
        entries = list(storage.entries(conn))
    for e in entries:
        check.check(e)  # raises ChainBroken
    return [(e.seq, e.key) for e in entries]


def test_two_writers_and_a_duplicate_keep_one_chain(play):
    daemon, ingest = Game(play.dir), Game(play.dir)
    first = daemon.inbox.receive(make_mail("a@x.test", "Proposal: One", message_id="one@x"), AT)
    second = ingest.inbox.receive(make_mail("b@x.test", "Proposal: Two", message_id="two@x"), AT)
    third = daemon.inbox.receive(make_mail("c@x.test", "Proposal: Three", message_id="three@x"), AT)  # after the other's
    again = daemon.inbox.receive(make_mail("a@x.test", "Proposal: One", message_id="one@x"), AT)  # a duplicate
    assert [(r.status, r.seq) for r in (first, second, third, again)] == [
        ("new", 1), ("new", 2), ("new", 3), ("duplicate", 1)]
    assert chain(daemon) == [(1, "one@x a@x.test"), (2, "two@x b@x.test"), (3, "three@x c@x.test")]
    fourth = daemon.inbox.receive(make_mail("d@x.test", "Proposal: Four", message_id="four@x"), AT)
    assert (fourth.status, fourth.seq) == ("new", 4)  # a duplicate is looked up, never inserted: no number lost
    assert chain(ingest)[-1] == (fourth.seq, "four@x d@x.test")


def test_a_message_twice_in_one_group_commit_is_stored_once_as_first_received(play):
    game = Game(play.dir)
    first = make_mail("a@x.test", "Proposal: One", message_id="one@x")
    resent = make_mail("a@x.test", "Proposal: One, again", message_id="one@x")
    receipts = game.inbox.receive_many([game.inbox.prepare(first, AT), game.inbox.prepare(resent, AT)])
    assert [(r.status, r.seq) for r in receipts] == [("new", 1), ("duplicate", 1)]
    with game.db.connect() as conn:
        assert [e.raw for e in storage.entries(conn)] == [first]


@pytest.mark.sqlite_only  # SQLite's write lock
def test_a_failed_append_leaves_the_write_lock_at_once(play):
    """The append fails (no journal table); while its error is still held (a sender's 451 waiting to be
    sent), another connection takes the write lock at once, and the next append succeeds."""
    game = Game(play.dir)
    game.inbox.receive(make_mail("a@x.test", "Proposal: Zero", message_id="zero@x"), AT)
    other = sqlite3.connect(play.dir / "game.db", timeout=0, isolation_level=None)
    other.execute("ALTER TABLE journal RENAME TO journal_away")
    with pytest.raises(sqlite3.OperationalError) as failed:
        game.inbox.receive(make_mail("a@x.test", "Proposal: One", message_id="one@x"), AT)
    other.execute("BEGIN IMMEDIATE")  # "database is locked" if the failed append still held it
    other.execute("ALTER TABLE journal_away RENAME TO journal")
    other.execute("COMMIT")
    assert failed.value is not None
    receipt = game.inbox.receive(make_mail("a@x.test", "Proposal: One", message_id="one@x"), AT)
    assert (receipt.status, receipt.seq) == ("new", 2)


def test_a_group_commit_after_another_appender_numbers_on_from_its_entry(play):
    """The writer's append numbers its new entries itself, from the head it reads under the write lock:
    after an entry appended the other way (append_many: the fold's skip and clock entries), a group of
    three new messages and a copy of one of them takes the next three seqs, chained after that entry."""
    game = Game(play.dir)
    game.inbox.receive(make_mail("a@x.test", "Proposal: One", message_id="one@x"), AT)
    with game.db.begin() as conn:
        assert storage.append_many(conn, [storage.skip_item(1, AT, "a fault")]) == [2]
    mails = [make_mail(f"{who}@x.test", f"Proposal: {n}", message_id=f"{n}@x") for who, n in
             (("b", "two"), ("c", "three"), ("b", "two"), ("d", "four"))]
    receipts = game.inbox.receive_many([game.inbox.prepare(m, AT) for m in mails])
    assert [(r.status, r.seq) for r in receipts] == [("new", 3), ("new", 4), ("duplicate", 3), ("new", 5)]
    assert chain(game) == [(1, "one@x a@x.test"), (2, "skip:1"), (3, "two@x b@x.test"),
                           (4, "three@x c@x.test"), (5, "four@x d@x.test")]
