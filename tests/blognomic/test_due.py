"""What is due next, kept incrementally (engine/blognomic/due.py), against reading every pending
matter at every window edge, the way it was done before (kept here as the reference).

Random games of Proposals, CfJs and DoVs, votes, idling, leaving and joining, and clock steps
landing on ``next_due``, some across the Seasonal Downtime, are played twice: through the engine
and with the reference's ``settle`` and ``next_due`` in place of auto.py's. Every step must give
the same events (the same matters resolved at the same moments, in the same order, with the same
lines), the same state and the same next due moment.
"""
from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings, strategies as st

from engine import machine
from engine.blognomic import auto
from engine.blognomic.conditions import allowed, edges, label, verdict, windows
from engine.blognomic.resolution import resolve
from engine.blognomic.state import BlogState, VotableMatter
from engine.blognomic.votes import Count, count_matter
from engine.context import Context, EngineConfig
from tests.blognomic.support import ADMIN, ALICE, BOB, CAROL, DAVE, ERIN, at, new_game

PEOPLE = [ALICE, BOB, CAROL, DAVE, ERIN, ADMIN]
SERAPHIMS = (ALICE,)
OPTIONS = {"auto_resolve": True, "admission": "admin", "daily_mail": False, "max_pending_cfjs": 100, "max_pending_dovs": 100}


def _moments(state: BlogState, after: datetime, until: datetime) -> list[datetime]:
    later = {e for m in state.pending() for e in edges(m, windows(state)) if after < e <= until}
    return sorted(later | {until})


def _counted(state: BlogState) -> list[tuple[VotableMatter, Count]]:
    return [(m, count_matter(state, m)) for m in state.pending()]


def _first_due(state: BlogState, at: datetime, counted: list[tuple[VotableMatter, Count]]) -> \
        tuple[VotableMatter, bool] | None:
    for m, c in counted:
        enact, fail = allowed(state, m, at, c)
        if enact is None or fail is None:
            return m, enact is None
    return None


def reference_settle(state: BlogState, until: datetime, ctx: Context, *, answer: bool = False) -> None:
    until = max(until, state.settled_until)
    if auto.enabled(ctx.config):
        for moment in _moments(state, state.settled_until, until):
            while (due := _first_due(state, moment, _counted(state))) is not None:
                m, enact = due
                line = verdict(state, m, moment).line(enact)
                resolve(state, m, enact, line, moment, ctx.config.address, ctx)
                if answer:
                    ctx.say(label(m), f"\"{m.title}\": {line}")
    state.settled_until = until


def reference_next_due(state: BlogState, config: EngineConfig) -> datetime | None:
    if not auto.enabled(config):
        return None
    counted = _counted(state)
    horizon = max((e for m, _ in counted for e in edges(m, windows(state))), default=None)
    if horizon is None:
        return None
    return next((moment for moment in _moments(state, state.settled_until, horizon)
                 if _first_due(state, moment, counted) is not None), None)


who = st.sampled_from(PEOPLE)
submit = st.tuples(st.just("submit"), who, st.sampled_from(["Proposal", "CfJ", "DoV"]))
vote = st.tuples(st.just("vote"), who, st.sampled_from(["FOR", "AGAINST", "DEFERENTIAL", "VETO"]), st.integers(1, 12))
other = st.tuples(st.sampled_from(["Idle", "Unidle", "Leave", "Join", "tick", "admin"]), who)
step = st.tuples(st.sampled_from([0.0, 0.5, 3, 11.9, 12, 24, 47, 49, 100]),
                 st.integers(0, 9).flatmap(lambda k: submit if k < 3 else vote if k < 7 else other))


def play(edition: str, start_days: float, steps: list[tuple[float, tuple[Any, ...]]]) -> list[Any]:
    """Everything a game says and is after each step."""
    game = new_game((BOB, CAROL, DAVE), edition=edition, seraphims=SERAPHIMS)
    game.config = dataclasses.replace(game.config, options=OPTIONS)
    hours, seen = start_days * 24, []
    for gap, action in steps:
        hours += gap
        if action[0] == "tick":
            due = machine.next_due(game.state, game.config)
            events = game.tick(due) if due is not None else []
            hours = max(hours, (due - at()).total_seconds() / 3600) if due is not None else hours
        elif action[0] == "submit":
            events = game.mail(action[1], f"{action[2]}: T{len(seen)}", "Enact rule \"X\": y", hours=hours)
        elif action[0] == "vote":
            events = game.mail(action[1], "Votes", f"{action[2]} {action[3]}", hours=hours)
        elif action[0] == "admin":
            events = game.mail(ADMIN, "Idle", f"Idle {action[1]}", hours=hours)
        else:
            events = game.mail(action[1], action[0], hours=hours)
        seen.append(([(e.kind, e.data) for e in events], game.json(), machine.next_due(game.state, game.config)))
    return seen


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(["149", "109"]), st.sampled_from([0, 349, 352]), st.lists(step, min_size=5, max_size=60))
def test_what_is_due_next_is_what_reading_every_matter_at_every_edge_finds(edition: str, start_days: float,
                                                                         steps: list[Any]) -> None:
    kept = play(edition, start_days, steps)
    with mock.patch.object(auto, "settle", reference_settle), mock.patch.object(auto, "next_due", reference_next_due):
        reference = play(edition, start_days, steps)
    for n, (mine, theirs) in enumerate(zip(kept, reference)):
        assert mine == theirs, f"step {n}: {steps[n]}"


def test_a_vote_among_many_pending_cfjs_reads_only_its_own_matter() -> None:
    """2,000 pending CfJs: a vote reads its own matter's conditions again, not every matter's."""
    game = new_game((BOB, CAROL, DAVE))
    game.config = dataclasses.replace(game.config, options={**OPTIONS, "max_pending_cfjs": 2_000})
    for i in range(2_000):
        game.mail(BOB, f"CfJ: C{i}", hours=1 + i / 3600)
    assert machine.next_due(game.state, game.config) == at(hours=49)  # CfJ 1 times out after 48 hours
    with mock.patch("engine.blognomic.due.allowed", side_effect=allowed) as read:
        game.mail(CAROL, "Votes", "AGAINST 7", hours=2)
        assert machine.next_due(game.state, game.config) == at(hours=49)
    assert read.call_count <= 10  # one matter at now and at its window edges; 13,000 before


def test_a_pactmaker_going_idle_makes_a_cfj_popular_and_it_is_enacted_at_once() -> None:
    """Four Pactmakers (Quorum 3): two FOR is not enough until Dave goes Idle (Quorum 2)."""
    game = new_game((BOB, CAROL, DAVE))
    game.mail(BOB, "CfJ: Fix it", hours=1)
    game.mail(CAROL, "Votes", "FOR 1", hours=2)
    assert machine.next_due(game.state, game.config) == at(hours=49)
    events = game.mail(DAVE, "Idle", hours=3)
    assert game.matter(1)["status"] == "enacted" and game.matter(1)["resolved_at"] == "2026-01-05T03:00:00Z"
    assert [e.data["tally"] for e in events if e.kind == "resolved"] == ["Enacted 2-0 (Quorum 2)"]
