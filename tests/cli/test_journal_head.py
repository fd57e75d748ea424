"""The journal's head is its last entry's hash (migration 0009): no meta row moves with every append,
appenders still make one chain, and a downgrade gives the older release its head row back."""
from __future__ import annotations

import threading
from datetime import datetime, timezone
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text

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
