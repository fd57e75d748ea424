"""While a backlog is folded, a snapshot of B bytes waits for B / ``SNAPSHOT_BACKLOG_BYTES_PER_ENTRY``
entries when that is more than ``SNAPSHOT_EVERY`` (nomic/game.py ``_maybe_snapshot``): a first fold
of a long journal no longer rewrites its whole, growing state every 1,000 entries, so its cost per
entry stays flat in the size of the game; a restart folds the entries after the last one again
and finds the same state. A fold that reaches the journal's head is drained, even when its last
batch was full, and stores its state as any drained fold does."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import func
from sqlmodel import Session, select

from nomic import game as game_module
from nomic.create import create
from nomic.game import Game
from storage.config import default_text
from storage.tables import Snapshot

AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)


def mail(i: int) -> bytes:
    return (f"From: <p{i % 3}@players.test>\r\nTo: ths@imperial.test\r\nSubject: Proposal: Order {i}\r\n"
            f"Message-ID: <b{i}@players.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            f"{'Be it resolved that the realm be orderly. ' * 20}\r\n").encode()


def snapshot_seq(game: Game) -> int:
    with Session(game.db) as s:
        return s.exec(select(func.max(Snapshot.seq))).one() or 0


@pytest.mark.sqlite_only
def test_a_backlog_stores_a_large_state_once_per_so_many_bytes(tmp_path: Path, monkeypatch) -> None:
    toml = tmp_path / "game.toml"
    toml.write_text(default_text().replace('mode = "authres"', 'mode = "none"', 1)
                    .replace('seed = "change-me"', 'seed = "backlog-test"', 1))
    game = create(tmp_path / "game", toml)
    game.inbox.receive_many([game.inbox.prepare(mail(i), AT + timedelta(seconds=i)) for i in range(40)])
    monkeypatch.setattr(game_module, "SNAPSHOT_EVERY", 2)
    game.process(send=False, limit=2)
    assert snapshot_seq(game) == 2  # the first backlog snapshot: SNAPSHOT_EVERY entries
    size = len(game.state().model_dump_json())
    monkeypatch.setattr(game_module, "SNAPSHOT_BACKLOG_BYTES_PER_ENTRY", size // 5)  # this state waits 5 entries
    stored = []
    for _ in range(6):
        game.process(send=False, limit=2)  # a full batch each time: the backlog is not drained
        stored.append(snapshot_seq(game))
    assert stored == [2, 2, 8, 8, 8, 14]  # every 6th entry at least (the state grows), not every 2nd
    again = Game(tmp_path / "game")  # a restart: the last snapshot, then the entries after it again
    assert again.state().model_dump(mode="json") == game.state().model_dump(mode="json")
    monkeypatch.setattr(game_module, "SNAPSHOT_BACKLOG_BYTES_PER_ENTRY", 1)  # a backlog would now wait long
    game.process(send=False, limit=40 - 14)  # a full batch that ends at the journal's head: drained
    assert snapshot_seq(game) == 40
    assert Game(tmp_path / "game").verify()[0]
