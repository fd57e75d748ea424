"""``auto_resolve``: every matter is resolved at the first moment the rules allow, in order,
each at the time it became allowed.

Between two messages the votes stand still, so a matter's conditions change only at its window
edges (conditions.edges). ``settle`` walks those edges up to a time and, at each, resolves
whatever the rules allow (lowest number first, again until nothing is left, since one resolution
can allow another: the next oldest Proposal, the end of a Hiatus). ``next_due`` is the first
edge at which something would resolve, so a clock step lands exactly on it.
"""
from __future__ import annotations

from datetime import datetime

from engine.blognomic.conditions import allowed, edges, label, verdict
from engine.blognomic.resolution import resolve
from engine.blognomic.state import BlogState, VotableMatter
from engine.blognomic.votes import Count, count_matter
from engine.context import Context, EngineConfig


def enabled(config: EngineConfig) -> bool:
    return bool(config.options["auto_resolve"])


def _moments(pending: list[VotableMatter], after: datetime, until: datetime) -> list[datetime]:
    later = {e for m in pending for e in edges(m) if after < e <= until}
    return sorted(later | {until})


def _counted(state: BlogState) -> list[tuple[VotableMatter, Count]]:
    """Each pending matter with its Votes, which stand still until the next message or resolution."""
    return [(m, count_matter(state, m)) for m in state.pending()]


def _first_due(state: BlogState, at: datetime, counted: list[tuple[VotableMatter, Count]]) -> \
        tuple[VotableMatter, bool] | None:
    """The lowest-numbered matter the rules allow to be resolved at ``at``, and whether Enacted."""
    for m, c in counted:
        enact, fail = allowed(state, m, at, c)
        if enact is None or fail is None:
            return m, enact is None
    return None


def settle(state: BlogState, until: datetime, ctx: Context, *, answer: bool = False) -> None:
    """Resolve everything due up to ``until``; ``answer``: say each in the answer mail too.
    (A step older than the last one acts at the last one's time: time never runs back.)"""
    until = max(until, state.settled_until)
    if enabled(ctx.config):
        for at in _moments(state.pending(), state.settled_until, until):
            while (due := _first_due(state, at, _counted(state))) is not None:
                m, enact = due
                line = verdict(state, m, at).line(enact)
                resolve(state, m, enact, line, at, ctx.config.address, ctx)
                if answer:
                    ctx.say(label(m), f"\"{m.title}\": {line}")
    state.settled_until = until


def next_due(state: BlogState, config: EngineConfig) -> datetime | None:
    """The first window edge after the last step at which a matter becomes resolvable: each
    pending matter is counted once (its running count), then its conditions are read at each edge."""
    if not enabled(config):
        return None
    counted = _counted(state)
    horizon = max((e for m, _ in counted for e in edges(m)), default=None)
    if horizon is None:
        return None
    return next((at for at in _moments([m for m, _ in counted], state.settled_until, horizon)
                 if _first_due(state, at, counted) is not None), None)
