"""``auto_resolve``: every matter is resolved at the first moment the rules allow, in order,
each at the time it became allowed.

Between two messages the votes stand still, so a matter's conditions change only at its window
edges (conditions.edges). ``settle`` takes the earliest due moment up to a time (due.py keeps
each pending matter's) and, at it, resolves the lowest-numbered matter due, again until nothing
is left (one resolution can allow another: the next oldest Proposal, the end of a Hiatus).
``next_due`` is that earliest moment, so a clock step lands exactly on it.
"""
from __future__ import annotations

from datetime import datetime

from engine.blognomic import due
from engine.blognomic.conditions import allowed, label, verdict
from engine.blognomic.resolution import resolve
from engine.blognomic.state import BlogState, VotableMatter
from engine.blognomic.votes import count_matter
from engine.context import Context, EngineConfig


def enabled(config: EngineConfig) -> bool:
    return bool(config.options["auto_resolve"])


def settle(state: BlogState, until: datetime, ctx: Context, *, answer: bool = False) -> None:
    """Resolve everything due up to ``until``; ``answer``: say each in the answer mail too.
    (A step older than the last one acts at the last one's time: time never runs back.)"""
    until = max(until, state.settled_until)
    if enabled(ctx.config):
        dues = due.dues(state)
        while (first := dues.first(state)) is not None and first[0] <= until:
            at, m = first
            state.settled_until = max(state.settled_until, at)
            enact, fail = allowed(state, m, state.settled_until, count_matter(state, m))
            if enact is not None and fail is not None:  # not due after all: read it again from now
                due.changed(state, m)
                continue
            line = verdict(state, m, state.settled_until).line(enact is None)
            resolve(state, m, enact is None, line, state.settled_until, ctx.config.address, ctx)
            if answer:
                ctx.say("", _resolved(m, line))
    state.settled_until = until


def _resolved(m: VotableMatter, line: str) -> str:
    """The answer's line for a matter resolved on the way: no command of the sender's, so no quote
    of one ("Proposal 7 "Pie" failed: Vetoed")."""
    status = "" if line.lower().startswith(m.status) else f" {m.status}"
    return f"{label(m)} \"{m.title}\"{status}: {line}"


def next_due(state: BlogState, config: EngineConfig) -> datetime | None:
    """The first moment, from the last step on, at which a matter may be resolved."""
    if not enabled(config):
        return None
    first = due.dues(state).first(state)
    return None if first is None else first[0]
