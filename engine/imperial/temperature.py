"""Rule 12: the game temperature. Every change goes through ``change``.

``change`` moves the temperature (never below 0 K), tells the observers in
``OBSERVERS``, the literal list of what a change sets off (rule 16's FF bonus: it
sees the old and new temperature and the player whose action caused the change), then applies
the consequences in this order: meltdown above ``meltdown_limit`` (which takes
the place of overheating), else overheating above ``overheat_limit``; and at
0 K the last player with an accepted Proposal becomes TEW (rule 11).

Rule 12's two day-end steps are here too: the Profile AND check and cooling
(``pipelines.DAY_END_STEPS`` orders them).
"""
from __future__ import annotations

from collections.abc import Callable

from engine.context import Context
from engine.imperial import ff, winning
from engine.imperial.scoring import award, set_score
from engine.imperial.steps import DayEnd
from engine.imperial.variables import rule_on
from engine.imperial.state import ImperialState
from engine.imperial.events import Temperature

# observer(state, old, new, culprit, ctx): culprit is the address of the player whose
# action caused the change, or None (day-end cooling, the AND check, venting).
Observer = Callable[[ImperialState, int, int, str | None, Context], None]
OBSERVERS: tuple[Observer, ...] = (
    ff.cooling_bonus,               # rule 16: an FF player's action crossing 290 K downwards
)


def change(state: ImperialState, delta: int, cause: str, culprit: str | None, ctx: Context) -> str:
    """Move the temperature by ``delta``; returns what happened, for answer lines."""
    old = _move(state, state.temperature + delta, cause, culprit, ctx)
    note = (f"temperature {old} -> {state.temperature} K" if old != state.temperature
            else f"temperature stays {old} K")
    if rule_on(state, 12):
        if state.temperature > state.var("meltdown_limit"):
            note += "; " + _meltdown(state, culprit, ctx)
        elif state.temperature > state.var("overheat_limit"):
            note += "; " + _overheat(state, culprit, ctx)
    if state.temperature == 0 and rule_on(state, 11):
        note += _frozen(state, ctx)
    return note


def _move(state: ImperialState, new: int, cause: str, culprit: str | None, ctx: Context) -> int:
    old, state.temperature = state.temperature, max(0, new)
    if old != state.temperature:
        ctx.emit(Temperature(old=old, new=state.temperature, cause=cause, culprit=culprit))
        for observer in OBSERVERS:
            observer(state, old, state.temperature, culprit, ctx)
    return old


def _overheat(state: ImperialState, culprit: str | None, ctx: Context) -> str:
    player = state.player(culprit) if culprit else None
    if player is not None:
        delta = award(state, player, state.var("overheat_bonus"), "overheating (rule 12)", ctx, rule=12)
        what = f"the game overheated: {delta:+d} points to {player.email}"
    else:
        what = "the game overheated: " + _reset_every_score(state, "overheating", ctx)
    reset = state.var("overheat_reset")
    _move(state, reset, "venting (rule 12)", None, ctx)
    return f"{what}; it vents back to {reset} K"


def _meltdown(state: ImperialState, culprit: str | None, ctx: Context) -> str:
    player = state.player(culprit) if culprit else None
    if player is not None:
        set_score(state, player, 0, "meltdown (rule 12)", ctx, rule=12)
        what = f"meltdown: {player.email} is set to 0 points"
    else:
        what = "meltdown: " + _reset_every_score(state, "meltdown", ctx)
    reset = state.var("meltdown_reset")
    _move(state, reset, "meltdown (rule 12)", None, ctx)
    return f"{what}; the temperature resets to {reset} K"


def _reset_every_score(state: ImperialState, cause: str, ctx: Context) -> str:
    """Rule 12: a temperature change caused by no player sets every score to 0."""
    for p in state.players:
        set_score(state, p, 0, f"{cause} reset every score (rule 12)", ctx, rule=12)
    return "every score is reset to 0"


def _frozen(state: ImperialState, ctx: Context) -> str:
    """Rule 11/12: at 0 K the author of the highest-numbered accepted Proposal is TEW."""
    accepted = state.highest_accepted_proposal()
    if accepted is None or state.winner is not None:
        return ""
    author = accepted.author
    winning.declare(state, author, "the temperature reached 0 K (rule 11)", ctx)
    return f"; the temperature reached 0 K: {author} is The Exalted Winner"


def and_check(state: ImperialState, day: DayEnd, ctx: Context) -> None:
    """Rule 12: every player whose Profile AND the temperature equals the temperature gains 5;
    then, if anyone matched, one random change of the temperature in [-10, 10]."""
    if not rule_on(state, 12):
        return
    t = state.temperature
    matches = [p for p in state.players if p.profile & t == t]
    if not matches:
        day.notes.append(f"Profile AND {t} K: no player matches")
        return
    for p in matches:
        delta = award(state, p, state.var("and_points"), f"Profile AND {t} K (rule 12)", ctx, rule=12)
        day.notes.append(f"Profile AND {t} K: {p.email} {delta:+d} (now {p.score})")
    swing = state.var("and_swing")
    shift = ctx.draw(f"day:{day.day}:and", -swing, swing)
    day.notes.append("Profile AND: " + change(state, shift, "Profile AND (rule 12)", None, ctx))


def cooling(state: ImperialState, day: DayEnd, ctx: Context) -> None:
    """Rule 12: the game cools by a random [0, 10] K at the end of every day."""
    if not rule_on(state, 12):
        return
    drop = ctx.draw(f"day:{day.day}:cooling", 0, state.var("cooling_max"))
    day.notes.append(f"cooling by {drop} K: " + change(state, -drop, "cooling (rule 12)", None, ctx))
