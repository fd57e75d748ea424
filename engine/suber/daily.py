"""The daily mail's moment, 00:00 UTC, where ``[suber] daily_mail = true``: a ``daily`` event saying
whose turn it is, since when, where the turn's proposal stands, and whom the game waits for, with
what each owes (``waiting``): a game that nothing moves on says every day who holds it.

The state marks the last day mailed in ``daily_mailed`` (days since the game's start date), so
the clock and replays agree on which midnights are done. A step that crosses several midnights
(a game left without a clock) says only the last: the work stays bounded.
"""
from __future__ import annotations

from datetime import datetime, time, timedelta, timezone
from typing import Any

from engine.context import Context, EngineConfig
from engine.suber import pending
from engine.suber.state import SuberState
from engine.suber.events import Daily


def enabled(config: EngineConfig) -> bool:
    return bool(config.options["daily_mail"])


def _day(state: SuberState, at: datetime) -> int:
    return (at.astimezone(timezone.utc).date() - state.started.astimezone(timezone.utc).date()).days


def _midnight(state: SuberState, day: int) -> datetime:
    start = state.started.astimezone(timezone.utc).date()
    return datetime.combine(start + timedelta(days=day), time(), tzinfo=timezone.utc)


def next_due(state: SuberState) -> datetime:
    """The first midnight not yet mailed."""
    return _midnight(state, state.daily_mailed + 1)


def catch_up(state: SuberState, until: datetime, ctx: Context) -> None:
    """Emit the ``daily`` of the last midnight up to ``until`` if it has not been mailed."""
    day = _day(state, until)
    if not enabled(ctx.config) or day <= state.daily_mailed:
        return
    state.daily_mailed = day
    ctx.emit(Daily(**facts(state, ctx.config, _midnight(state, day), day)))


def facts(state: SuberState, config: EngineConfig, at: datetime, day: int) -> dict[str, Any]:
    since = state.turn_started or state.started
    current = state.current_proposal()
    return {
        "at": _iso(at), "day": day, "turn": state.turn, "turn_started": _iso(since),
        "turn_hours": int((at - since).total_seconds() // 3600), "circuit": state.circuit,
        "unanimity": state.unanimity, "winner": state.winner,
        "proposal": None if current is None else {
            "number": current.number, "title": current.title, "status": current.status,
            "voted": list(current.votes),
            "waiting": [p.email for p in state.players if p.email not in current.votes]},
        "owed": owed(state, config),
    }


def owed(state: SuberState, config: EngineConfig) -> list[dict[str, str]]:
    """Whom the game waits for and what each owes, in turn order (engine/suber/pending.py)."""
    names = {p.email: p.name for p in state.players}
    return [{"player": i.player, "name": names[i.player], "owes": f"{i.what} ({i.how()})"}
            for i in pending.items(state, config, state.started)]


def _iso(at: datetime) -> str:
    return at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
