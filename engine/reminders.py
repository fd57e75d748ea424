"""Reminders: ``[list] remind_hours`` before a deadline, once, to each player who has not acted.

The deadlines are the ``closes`` of the ruleset's pending items (engine/pending.py). A reminder
is due at ``closes - remind_hours``; ``next_due`` asks for a clock step then, and the clock step
that reaches it emits a ``reminder`` event for each item whose moment lies in (the state's
``reminded_until``, the step's time] while its deadline is still ahead, unless its player is away
(engine/absence.py). ``reminded_until`` then moves to the step's time, so each moment passes
once: a reminder is sent once and replays emit the same ones. An item that turns up after its
moment (a deadline nearer than ``remind_hours``) is reminded at the next clock step only if no
clock step passed between its moment and its arrival; else its announcement was the notice.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from engine import absence, pending
from engine.context import Context, EngineConfig
from engine.events import Reminder
from engine.state import GameState


def _lead(config: EngineConfig) -> timedelta | None:
    return timedelta(hours=config.remind_hours) if config.remind_hours > 0 else None


def _since(state: GameState[Any], config: EngineConfig) -> datetime:
    return state.reminded_until or config.start


def next_due(state: GameState[Any], config: EngineConfig) -> datetime | None:
    """The first reminder moment not yet passed, or None."""
    lead = _lead(config)
    if lead is None:
        return None
    since = _since(state, config)
    first = pending.first_close(state, config, since, since + lead)
    return None if first is None else first - lead


def step(state: GameState[Any], ctx: Context) -> None:
    """Emit the reminders due by this clock step, and mark them passed."""
    lead = _lead(ctx.config)
    if lead is None:
        return
    since, at = _since(state, ctx.config), ctx.at
    if at <= since:
        return
    for item in pending.items(state, ctx.config, at):
        if (item.closes is not None and since < item.closes - lead <= at < item.closes
                and not absence.is_away(state, item.player, at)):
            ctx.emit(Reminder(player=item.player, what=item.what, how=item.how('"'), closes=_iso(item.closes),
                              vote=item.vote))
    state.reminded_until = at


def _iso(at: datetime) -> str:
    return at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
