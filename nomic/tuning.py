"""How a process of ours tunes the interpreter, all in one place; the code it speeds is plain.

The daemons (``nomic serve``, ``nomic host serve``) switch threads quickly and freeze their
startup heap; every site build (the daemons', ``nomic build``'s) runs without cyclic garbage
collection. docs/performance.md has the measurements behind each.
"""
from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager

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
