"""BlogNomic's tally: one new vote on a matter of 1,000 Pactmakers and 10,000 ballots (issue 17).

Folds each vote through the engine as the daemon does (engine.machine.apply: the vote, its tally
and whether the matter may now be resolved), against folding the same number of messages that
carry no command, in the same run. Target: well under a millisecond per new vote.

Then ``next_due`` (asked by the daemon each time it waits) on a game of as many Pactmakers with
``--pending`` matters and no votes but their authors', so nothing is due for 48 hours and it
reads every matter at every window edge on the way, against the same baseline.
"""
from __future__ import annotations

import argparse
import dataclasses
from datetime import datetime, timedelta, timezone
from pathlib import Path

from common import Conditions, report, timed, took, verdict

from engine import machine
from engine.blognomic.commands import JoinCmd, SubmitCmd, VoteCmd
from engine.blognomic.state import BlogState
from engine.context import EngineConfig
from engine.inputs import Message

ROOT = Path(__file__).resolve().parent.parent
START = datetime(2026, 1, 5, tzinfo=timezone.utc)
CONFIG = EngineConfig(start=START, seed="bench-seed", address="ths@blog.test", list_address="list@blog.test",
                      offices={"admins": ("admin@blog.test",), "seraphims": ()}, ruleset="blognomic",
                      edition="149", options={"auto_resolve": False, "admission": "auto", "daily_mail": False,
                                              "max_pending_cfjs": 2, "max_pending_dovs": 1})
# next_due looks for what resolves
AUTO = dataclasses.replace(CONFIG, options={**CONFIG.options, "auto_resolve": True})


def pactmaker(i: int) -> str:
    return f"p{i}@blog.test"


def message(n: int, sender: str, *commands: VoteCmd) -> Message:
    """Message ``n`` (a second apart, all within the matter's first hour)."""
    return Message(at=START + timedelta(hours=1, seconds=n / 10), message_id=f"m{n}@bench.test", sender=sender,
                   authenticated=True, commands=list(commands))


def game(players: int, ballots: int) -> BlogState:
    """A game of ``players`` Pactmakers whose Proposal 1 has had ``ballots`` votes."""
    state = machine.new_game(CONFIG, (ROOT / "storage/rulesets/blognomic-149.txt").read_text())
    for i in range(players):
        machine.apply(state, Message(at=START, message_id=f"j{i}@bench.test", sender=pactmaker(i),
                                     authenticated=True, commands=[JoinCmd()]), CONFIG)
    machine.apply(state, Message(at=START + timedelta(minutes=30), message_id="p@bench.test", sender=pactmaker(0),
                                 authenticated=True, commands=[SubmitCmd(matter="proposal", title="Cake")]), CONFIG)
    for n in range(ballots):
        machine.apply(state, message(n, pactmaker(n % players), _vote(n)), CONFIG)
    return state  # type: ignore[return-value]


def quiet_game(players: int, pending: int) -> BlogState:
    """``players`` Pactmakers and ``pending`` matters (Proposals and CfJs) with no votes but their
    authors' implicit FOR: none Popular nor Unpopular before 48 hours."""
    state = game(players, 0)
    for i in range(1, pending):
        machine.apply(state, Message(at=START + timedelta(minutes=30 + i), message_id=f"q{i}@bench.test",
                                     sender=pactmaker(i), authenticated=True,
                                     commands=[SubmitCmd(matter="cfj" if i % 2 else "proposal", title=f"M{i}")]),
                      CONFIG)
    return state


def per_next_due(state: BlogState, k: int) -> tuple[float, float]:
    """(seconds, CPU seconds) per ``next_due``."""
    with timed() as t:
        for _ in range(k):
            machine.next_due(state, AUTO)
    return t[0] / k, t[1] / k


def _vote(n: int) -> VoteCmd:
    return VoteCmd(icon="FOR" if n % 3 else "AGAINST", number=1)


def per_fold(state: BlogState, first: int, k: int, players: int, vote: bool) -> tuple[float, float]:
    """(seconds, CPU seconds) per fold of ``k`` messages (votes, or messages with no command)."""
    messages = [message(first + n, pactmaker((first + n) % players), *([_vote(first + n + 1)] if vote else []))
                for n in range(k)]
    with timed() as t:
        for msg in messages:
            machine.apply(state, msg, CONFIG)
    return t[0] / k, t[1] / k


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=1_000)
    ap.add_argument("--ballots", type=int, default=10_000)
    ap.add_argument("--votes", type=int, default=500, help="new votes timed")
    ap.add_argument("--pending", type=int, default=10, help="pending matters for next_due")
    args = ap.parse_args(argv)
    since = Conditions()
    state = game(args.players, args.ballots)
    assert len(state.matters[0].ballots) == args.ballots and state.matters[0].status == "pending"
    bare = per_fold(state, args.ballots, args.votes, args.players, vote=False)
    vote = per_fold(state, args.ballots + args.votes, args.votes, args.players, vote=True)
    quiet = quiet_game(args.players, args.pending)
    assert len(quiet.pending()) == args.pending
    assert machine.next_due(quiet, AUTO) == START + timedelta(hours=48, minutes=30)  # Proposal 1 times out
    due = per_next_due(quiet, 50)
    report(f"BlogNomic: a new vote on a matter of {args.players:,} Pactmakers and {args.ballots:,} ballots", [
        ("a message with no command, folded", took(*bare, 3)),
        ("a new vote, folded (vote, tally, may it resolve)", f"{took(*vote, 3)}  {verdict(vote[0] < 1e-3)} (< 1 ms)"),
        ("ratio (vote / no command)", f"{vote[0] / bare[0]:.1f} ({vote[1] / max(1e-9, bare[1]):.1f} by CPU)"),
        (f"next_due, {args.pending} matters pending, none due for 48 hours", took(*due, 3)),
        ("ratio (next_due / no command)", f"{due[0] / bare[0]:.1f} ({due[1] / max(1e-9, bare[1]):.1f} by CPU)"),
    ], since)
    return {"vote_ms": vote[0] * 1e3, "bare_ms": bare[0] * 1e3, "next_due_ms": due[0] * 1e3,
            "vote_cpu_ms": vote[1] * 1e3, "bare_cpu_ms": bare[1] * 1e3, "next_due_cpu_ms": due[1] * 1e3}


if __name__ == "__main__":
    main()
