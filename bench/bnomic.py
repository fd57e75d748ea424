"""B Nomic's end of Voting: 1,000 Players who all voted on 200 Open proposals with conflicts and
dependencies (issue 29: under 50 ms).

Runs 2-2's seven steps and 2-6's scoring (engine/bnomic/voting.end) on a copy of the game each time,
against folding a message that carries no command in the same run (the baseline).
"""
from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from statistics import mean

from common import Conditions, report, verdict

from engine import machine
from engine.bnomic import voting
from engine.bnomic.state import BNomicState, BPlayer, Proposal
from engine.context import Context, EngineConfig
from engine.inputs import Message

ROOT = Path(__file__).resolve().parent.parent
START = datetime(2026, 1, 5, tzinfo=timezone.utc)
CONFIG = EngineConfig(start=START, seed="bench-seed", address="ths@b.test", list_address="list@b.test",
                      ruleset="bnomic", options={"players": [], "nweek": 1, "nday": 1, "clock_on": False,
                                                 "number_proposals": "auto", "daily_mail": False})
WORDS = ("FOR", "FOR", "AGAINST", "ABSTAIN")


def game(players: int, proposals: int) -> BNomicState:
    """Every Player Active with Vote Power 1; proposal n conflicts with n - 1 when n is even and depends
    on n - 3 when n is a multiple of 5; each Player's vote on each proposal by a fixed pattern.

    The votes are held as a game holds them: keyed by the Player's own address object (the fold's
    ``votes.vote`` keys by ``voter.email``, and a snapshot's load gives equal short strings one
    object), each word the command's literal."""
    state = machine.new_game(CONFIG, (ROOT / "storage/rulesets/b-nomic.txt").read_text())
    assert isinstance(state, BNomicState)
    state.players = [BPlayer(email=f"p{i}@b.test", name=f"P{i}", vote_power="1", active=True) for i in range(players)]
    for n in range(1, proposals + 1):
        state.proposals.append(Proposal(
            key=n, number=n, author=f"p{n % players}@b.test", title=f"P{n}", body="Prose.", status="open",
            conflicts=[n - 1] if n % 2 == 0 else [], dependencies=[n - 3] if n % 5 == 0 and n > 3 else [],
            votes={p.email: WORDS[(i * 7 + n) % 4] for i, p in enumerate(state.players)}))  # type: ignore[misc]
    state.highest_number = proposals
    return state


@dataclass
class Timing:
    """Seconds per run: wall time and this process's CPU time, each the mean and the best run (on
    a shared machine the best CPU time is the steadiest figure)."""
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @contextmanager
    def run(self) -> Iterator[None]:
        t, c = time.perf_counter(), time.process_time()
        yield
        self.wall.append(time.perf_counter() - t)
        self.cpu.append(time.process_time() - c)

    def text(self) -> str:
        return (f"{mean(self.wall) * 1e3:.1f} ms wall; CPU {mean(self.cpu) * 1e3:.1f} ms mean, "
                f"{min(self.cpu) * 1e3:.1f} ms best")


def per_end(state: BNomicState, k: int) -> Timing:
    """Each end of Voting on a fresh copy (the copy is not timed)."""
    timing = Timing()
    for _ in range(k):
        copy = state.copy_deep()
        ctx = Context(config=CONFIG, at=START + timedelta(days=12))
        with timing.run():
            voting.end(copy, ctx)
    assert all(p.status != "open" for p in copy.proposals)
    return timing


def per_pass(state: BNomicState, k: int) -> Timing:
    """Counting every vote's word once, in C: the least any tally can cost."""
    timing = Timing()
    for _ in range(k):
        with timing.run():
            for p in state.proposals:
                Counter(p.votes.values())
    return timing


def per_bare(state: BNomicState, k: int) -> float:
    messages = [Message(at=START + timedelta(minutes=1, seconds=n), message_id=f"m{n}@bench.test",
                        sender=f"p{n % len(state.players)}@b.test", authenticated=True) for n in range(k)]
    t = time.perf_counter()
    for msg in messages:
        machine.apply(state, msg, CONFIG)
    return (time.perf_counter() - t) / k


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=1_000)
    ap.add_argument("--proposals", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    since = Conditions()
    state = game(args.players, args.proposals)
    end = per_end(state, args.runs)
    bare = per_bare(state, 200)
    one_pass = per_pass(state, args.runs)
    best = min(end.cpu)
    report(f"B Nomic: the end of Voting, {args.players:,} Players, {args.proposals:,} Open proposals", [
        ("a message with no command, folded", f"{bare * 1e3:.3f} ms"),
        ("the end of Voting (7 steps, scoring)", end.text()),
        ("  best CPU against the target", f"{verdict(best < 0.05)} (< 50 ms)"),
        ("ratio (end of Voting / no command, mean wall)", f"{mean(end.wall) / bare:.0f}"),
        ("one C pass counting every vote", one_pass.text()),
        ("ratio (end of Voting / one pass, best CPU)", f"{best / min(one_pass.cpu):.1f}"),
    ], since)
    return {"end_ms": mean(end.wall) * 1e3, "end_cpu_best_ms": best * 1e3, "bare_ms": bare * 1e3}


if __name__ == "__main__":
    main()
