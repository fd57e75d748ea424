"""What ``nomic serve`` folds while it stops (nomic.daemon.Processor): a backlog is folded chunk by chunk
until it is done, ``final_limit`` entries are folded or ``final_seconds`` have passed; the rest is folded
at the next start, once each, and the site built then. An operator's SIGTERM gets a prompt stop whatever
waits (2,000 entries with mail and the site took 42 s under load before)."""
from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest

from nomic.daemon import CHUNK, Processor, Turns
from nomic.game import Game
from tests.support import make_mail

AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
BACKLOG = 2 * CHUNK + 7


def backlog(game: Game) -> None:
    for i in range(BACKLOG):
        game.inbox.receive(make_mail(f"p{i}@players.test", f"Proposal: Cake {i}", "Cakes for all.",
                                     message_id=f"stop-{i}@players.test"), AT)


@pytest.mark.parametrize("final_limit, final_seconds, folded", [
    (2000, 60.0, BACKLOG),  # time enough: the whole backlog
    (CHUNK + 5, 60.0, CHUNK + 5),  # the entries a stop folds at most
    (2000, 0.0, CHUNK),  # no time left after the first chunk: the rest waits
])
def test_a_stop_folds_its_backlog_until_its_limit_or_its_time_and_the_next_start_the_rest(
        play, final_limit, final_seconds, folded):
    game = Game(play.dir)
    backlog(game)
    processor = Processor(game, threading.Lock(), Turns(lambda: False), final_limit=final_limit,
                          final_seconds=final_seconds)
    assert processor.round(final=True) is False  # stopping: one round, then the thread ends
    # the site is built when the stop folded all; a backlog left is folded and built at the next start
    assert (play.dir / "site" / "index.html").exists() == (folded == BACKLOG)
    assert len(game.process()) == BACKLOG - folded  # the next start folds the rest
    titles = sorted(s["title"] for s in play.state()["submissions"])
    assert titles == sorted(f"Cake {i}" for i in range(BACKLOG))  # each once
