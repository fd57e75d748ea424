"""The journal's head is its last entry's hash (migration 0009): no meta row moves with every append,
appenders still make one chain, and a downgrade gives the older release its head row back."""
from __future__ import annotations

import os
import threading
from datetime import datetime, timezone
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

import storage
from nomic.game import Game
from storage import migrate
from tests.cli.test_journal_writers import chain
from tests.cli.test_old_release import FIXTURE as OLD_RELEASE
from tests.cli.test_upgrade import copied, nomic
from tests.support import make_mail

AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
LAST_HASH = "1cc7268945c772217a25428efe057f32f62f49995f3e2a3f284ed1b48dabc52d"  # the fixture's entry 20


def head_row(game: Game) -> list[str]:
    with game.db.connect() as conn:
        return [v for (v,) in conn.execute(text("SELECT value FROM meta WHERE key = 'journal_head'"))]


def test_writers_appending_at_once_make_one_chain(play):
    """Four games' inboxes on one journal, in four threads: every entry chained to the one before
    (on PostgreSQL the advisory lock, on SQLite BEGIN IMMEDIATE, keeps two from reading one head)."""
    games = [Game(play.dir) for _ in range(4)]

    def send(k: int) -> None:
        for i in range(12):
            games[k].inbox.receive(make_mail(f"p{k}@x.test", f"Proposal: {k}.{i}", message_id=f"{k}.{i}@x"), AT)

    threads = [threading.Thread(target=send, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    entries = chain(games[0])  # raises ChainBroken if two entries follow the same one
    assert sorted(key for _, key in entries) == sorted(f"{k}.{i}@x p{k}@x.test" for k in range(4) for i in range(12))
    assert [seq for seq, _ in entries] == list(range(1, 49))
    assert head_row(games[0]) == []


@pytest.mark.sqlite_only  # the fixture is a SQLite database
def test_upgrade_drops_the_head_row_and_the_next_entry_follows_the_last(tmp_path: Path) -> None:
    game_dir = copied(OLD_RELEASE, tmp_path)
    assert nomic(game_dir, "upgrade")[0] == 0
    game = Game(game_dir)
    assert head_row(game) == []
    receipt = game.inbox.receive(make_mail("alice@wonder.land", "Proposal: After", message_id="after@x"), AT)
    with game.db.connect() as conn:
        prev = conn.execute(text("SELECT prev_hash FROM journal WHERE seq = :seq"), {"seq": receipt.seq}).scalar()
    assert (receipt.seq, prev) == (21, LAST_HASH)
    assert len(chain(game)) == 21


@pytest.mark.sqlite_only
def test_downgrade_writes_the_head_row_back_from_the_last_entry(tmp_path: Path) -> None:
    game_dir = copied(OLD_RELEASE, tmp_path)
    nomic(game_dir, "upgrade")
    game = Game(game_dir)
    game.inbox.receive(make_mail("alice@wonder.land", "Proposal: After", message_id="after@x"), AT)
    last = chain(game)[-1][0]
    with game.db.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location", str(migrate.SCRIPTS))
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0008")
    with game.db.connect() as conn:
        want = conn.execute(text("SELECT hash FROM journal WHERE seq = :seq"), {"seq": last}).scalar()
    assert last == 21 and head_row(game) == [want]


@pytest.mark.skipif(os.environ.get("NOMIC_TEST_DB") != "postgres", reason="PostgreSQL's advisory lock")
def test_games_sharing_a_postgresql_database_append_without_waiting_for_each_other(make_play, pg_server) -> None:
    """Two games in one PostgreSQL database (a schema each): each has its own lock key, the same after
    a restart; while one game's append holds its lock, the other game appends, and a second append
    to the first game still waits (it times out here rather than hang)."""
    url = pg_server.create_database(f"nomic_shared_{os.getpid()}")
    with storage.connect(url).begin() as conn:
        conn.execute(text("CREATE SCHEMA a; CREATE SCHEMA b"))
    a, b = (Game(make_play(database_url=f"{url}?options=-csearch_path%3D{s}").dir) for s in "ab")
    with a.db.connect() as conn:
        key = storage.lock_key(conn)
    with b.db.connect() as conn:
        assert storage.lock_key(conn) != key
    again = Game(a.config.dir)  # a restart: a new engine, new connections
    with again.db.connect() as conn:
        assert storage.lock_key(conn) == key

    holding = a.db.connect()
    holding.begin()
    assert storage.append_many(holding, [item("held@x")]) == [1]  # holds a's lock until the rollback below
    try:
        with b.db.begin() as conn:
            conn.execute(text("SET LOCAL lock_timeout = '10s'"))
            assert storage.append_many(conn, [item("other@x")]) == [1]
        with again.db.begin() as conn:
            conn.execute(text("SET LOCAL lock_timeout = '200ms'"))
            with pytest.raises(OperationalError, match="lock timeout"):
                storage.append_many(conn, [item("waits@x")])
    finally:
        holding.rollback()
        holding.close()


def item(key: str) -> storage.Item:
    return ("mail", AT, key, b"raw", {})
