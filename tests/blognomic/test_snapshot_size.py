"""A large state is not rewritten on every mail (nomic/game.py ``_maybe_snapshot``): once the
backlog is drained, a snapshot of B bytes waits for B / ``SNAPSHOT_BYTES_PER_ENTRY`` entries, so
what a mail costs stays flat in the size of the game; a restart folds the entries after it again
and finds the same state."""
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
ADMIN = "admin@blog.test"


def mail(i: int, subject: str, body: str = "") -> bytes:
    return (f"From: <{ADMIN}>\r\nTo: ths@blog.test\r\nSubject: {subject}\r\nMessage-ID: <s{i}@blog.test>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}").encode()


def snapshot_seq(game: Game) -> int:
    with Session(game.db) as s:
        return s.exec(select(func.max(Snapshot.seq))).one() or 0


@pytest.mark.sqlite_only
def test_a_large_state_is_stored_every_so_many_mails_and_a_restart_finds_it_whole(tmp_path: Path,
                                                                                  monkeypatch) -> None:
    toml = tmp_path / "game.toml"
    toml.write_text(default_text("blognomic").replace('mode = "authres"', 'mode = "none"', 1)
                    .replace('seed = "change-me"', 'seed = "snapshot-test"', 1)
                    .replace('admins = ["admin@blog.test"]', f'admins = ["{ADMIN}", "b@blog.test", "c@blog.test"]', 1))
    game = create(tmp_path / "game", toml)
    game.inbox.receive(mail(0, "CfJ: Long", "Whereas. " * 4000), AT)  # Quorum 2: its author's votes never resolve it
    game.process()
    assert snapshot_seq(game) == 1  # the first drain after a start stores it
    size = len(game.state().model_dump_json())
    monkeypatch.setattr(game_module, "SNAPSHOT_BYTES_PER_ENTRY", size // 3)  # this state counts as large
    wait = size // (size // 3)
    assert wait == 3
    stored = []
    for i in range(1, 8):
        game.inbox.receive(mail(i, "Votes", f"{'AGAINST' if i % 2 else 'FOR'} 1"), AT + timedelta(minutes=i))
        game.process()
        stored.append(snapshot_seq(game))
    assert stored == [1, 1, 4, 4, 4, 7, 7]  # entries 4 and 7: every third mail, not every mail
    again = Game(tmp_path / "game")  # a restart: the last snapshot, then the mails after it folded again
    assert again.state().model_dump(mode="json") == game.state().model_dump(mode="json")
    assert again.state().public_json()["matters"][0]["tally"] == {"for": 0, "against": 1, "deferential": 0}
    assert again.verify()[0]
