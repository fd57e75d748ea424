"""A replay (``nomic replay --verify``'s fold) runs without full garbage collections, which walk the
whole growing state for next to nothing to collect; the young collections go on, and the
collector's thresholds are the process's own again after it."""
from __future__ import annotations

import gc

import storage
from nomic import tuning
from nomic.game import Game

ALICE = "alice@wonder.land"


def _collections(keep: list[object]) -> list[int]:
    """The generations collected while 200,000 containers are made and kept (enough for a full
    collection at low thresholds: more than a quarter of the objects the process already holds)."""
    generations: list[int] = []
    record = lambda phase, info: generations.append(info["generation"]) if phase == "start" else None  # noqa: E731
    gc.callbacks.append(record)
    try:
        keep += [[i] for i in range(200_000)]
    finally:
        gc.callbacks.remove(record)
    return generations


def test_young_collections_go_on_and_full_ones_wait_until_the_end():
    was = gc.get_threshold()
    keep: list[object] = []
    gc.set_threshold(100, 2, 2)
    try:
        outside = _collections(keep)
        with tuning.young_collections():
            inside = _collections(keep)
            assert gc.get_threshold() == (100, 2, tuning.NEVER)
        after = gc.get_threshold()
    finally:
        gc.set_threshold(*was)
    assert 2 in outside  # the control: these allocations do bring a full collection
    assert 0 in inside and 2 not in inside
    assert after == (100, 2, 2)


class _Watching(storage.Chain):
    """A chain check that notes the collector's full-collection threshold at each entry."""

    def __init__(self) -> None:
        super().__init__()
        self.full: set[int] = set()

    def check(self, e: storage.Entry) -> None:
        self.full.add(gc.get_threshold()[2])
        super().check(e)


def test_a_replay_folds_every_entry_without_full_collections(play):
    for title in ("One", "Two", "Three"):
        play.propose(ALICE, title)
    game, chain = Game(play.dir), _Watching()
    was = gc.get_threshold()
    replayed = game.replay(chain=chain)
    assert chain.count == 3 and chain.full == {tuning.NEVER}
    assert gc.get_threshold() == was
    assert replayed.model_dump_json() == game.state().model_dump_json()
