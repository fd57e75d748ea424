"""Journal commits by arrangement: the CPU a message of SQLite appends (WAL, synchronous FULL, one
message of 1.5 KB an entry) when ``CONNECTIONS`` messages wait at once, as in bench/host.py:

- one game: one journal, the messages in one append (a group commit: one fdatasync);
- a host's games, a thread each: one append to each of ``CONNECTIONS`` journals at once (today's host);
- a host's games, one thread: the same appends one after another on one thread (one writer serving
  several games, the shape issue #33 asked about).

Printed: each arrangement's CPU a message (the committing threads' own CPU, ``time.thread_time``)
and wall time a message, medians of ``--rounds`` alternating rounds, and the ratios against the
group commit's CPU in the same round.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from common import Conditions, report

from storage import Item, Journal
from storage.database import open_database

CONNECTIONS = 4  # messages waiting at once (bench/host.py's connections)
AT = datetime(2026, 1, 5, tzinfo=timezone.utc)


class Appends:
    """``CONNECTIONS`` journals in ``root``, and fresh items for them (every key new)."""

    def __init__(self, root: Path):
        self.journals = [Journal(open_database(f"sqlite:///{root}/g{k}.db")) for k in range(CONNECTIONS)]
        self.raw = os.urandom(1500)
        self.count = 0
        for journal in self.journals:  # each connection opened and its WAL made before any timing
            journal.append([self.item()])

    def item(self) -> Item:
        self.count += 1
        return ("mail", AT, f"bench:{self.count}", self.raw, {"source": "lmtp"})

    def grouped(self, n: int) -> float:
        """One journal, ``CONNECTIONS`` messages an append."""
        return _on_thread(lambda: [self.journals[0].append([self.item() for _ in range(CONNECTIONS)])
                                   for _ in range(n)])

    def threads(self, n: int) -> float:
        """A thread a journal, one message an append, all at once."""
        used: list[float] = []
        threads = [threading.Thread(target=lambda j=j: used.append(_on_thread(
            lambda: [j.append([self.item()]) for _ in range(n)]))) for j in self.journals]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sum(used)

    def one_thread(self, n: int) -> float:
        """One thread, one message an append, to each journal in turn."""
        return _on_thread(lambda: [j.append([self.item()]) for _ in range(n) for j in self.journals])


def _on_thread(work: Callable[[], object]) -> float:
    """The calling thread's CPU seconds for ``work``."""
    start = time.thread_time()
    work()
    return time.thread_time() - start


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=500, help="rounds of CONNECTIONS messages an arrangement")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds; medians are reported")
    args = ap.parse_args(argv)
    since = Conditions()
    names = ("grouped", "threads", "one_thread")
    found: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory() as tmp:
        appends = Appends(Path(tmp))
        for r in range(args.rounds):
            for name in (names if r % 2 == 0 else names[::-1]):
                wall = time.perf_counter()
                cpu = getattr(appends, name)(args.n)
                msgs = args.n * CONNECTIONS
                found[name].append((cpu / msgs * 1000, (time.perf_counter() - wall) / msgs * 1000))

    def med(name: str, i: int) -> float:
        return statistics.median(run[i] for run in found[name])

    def ratio(name: str) -> float:
        return statistics.median(run[0] / base[0] for run, base in zip(found[name], found["grouped"]))
    labels = {"grouped": f"one game: {CONNECTIONS} messages an append",
              "threads": f"{CONNECTIONS} games, a thread each, at once",
              "one_thread": f"{CONNECTIONS} games, one thread, in turn"}
    rows = [(labels[name], f"{med(name, 0):.3f} ms CPU a message ({med(name, 1):.3f} ms wall)") for name in names]
    rows += [(f"CPU ratio ({short} / one game)", f"{ratio(name):.2f}")
             for name, short in (("threads", "a thread a game"), ("one_thread", "one thread, in turn"))]
    report(f"journal commits by arrangement, {args.n * CONNECTIONS:,} messages each, medians of "
           f"{args.rounds} alternating rounds", rows, since)
    return {name: ratio(name) for name in names[1:]}


if __name__ == "__main__":
    main()
