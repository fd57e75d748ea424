"""How a process of ours tunes the interpreter, all in one place; the code it speeds is plain.

The daemons (``nomic serve``, ``nomic host serve``) switch threads quickly and freeze their
startup heap; every site build (the daemons', ``nomic build``'s) runs without cyclic garbage
collection, a replay without full collections. docs/performance.md has the measurements behind each.
"""
from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager

NEVER = 2**31 - 1  # a collection threshold never reached

# A 250 crosses threads twice (event loop -> journal writer -> event loop); with Python's default
# 5 ms, a thread waiting for the GIL behind a busy one (the processor folding) waits that long.
SWITCH_INTERVAL = 0.001


def quick_switches() -> None:
    """Threads hand the GIL over after ``SWITCH_INTERVAL`` seconds (a daemon, from its start)."""
    sys.setswitchinterval(SWITCH_INTERVAL)


def settle_heap() -> None:
    """Once started: what is loaded by now (modules, the configuration, the game) lives as long as the
    process, so take it out of the cyclic garbage collector's way (``gc.freeze``). Without this, each
    full collection walks the whole startup heap: ~90 ms a time under load, six in 4,000 messages at
    four connections, a tenth of intake's CPU with the young collections (docs/performance.md)."""
    gc.freeze()


@contextmanager
def no_collection() -> Iterator[None]:
    """No cyclic garbage collection inside (a site build).

    A build makes many small short-lived objects (keys, rows, pages) beside a large
    game state; each collection pass would walk that whole state again (in a game of
    10,000 submissions, over half of a rebuild's time). The few cycles a build leaves
    are collected afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def young_collections() -> Iterator[None]:
    """Cyclic garbage collection of young objects only inside (a replay): no full collection.

    A replay of 50,000 entries leaves about 1,000 objects in cycles, yet each full collection
    walks the state it grows and all the process holds (0.09 s of a 2.1 s verify of 50,000
    entries beside a live game, none of it garbage). The young collections go on, so the cycles
    a hostile entry might leave (an exception and its frames) are still collected as they come.
    """
    young, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)
    try:
        yield
    finally:
        gc.set_threshold(young, middle, old)
