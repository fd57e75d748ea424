"""Rule 10 (game days) and the end of a day in rule 6's order.

When a day ends, ``pipelines.DAY_END_STEPS`` run in order, then the day number moves
on, then ``pipelines.DAY_START_STEPS`` run for the new day, then the ``day_end`` event
(rule 19's chime) is emitted with ``day`` (the day that ended), ``new_day``,
``at`` and ``summary`` (``notes``: one line per thing that happened, in order;
``temperature``; ``scores``: {address: score}).

Rule 6's order of a day end, and where a step belongs in ``pipelines.DAY_END_STEPS``:

1. scoring changes triggered by the rules, e.g. Player of the Day (rule 18),
   before ``and_check``
2. ``temperature.and_check``: rule 12's Profile-AND, "after all other scoring effects"
3. game state changes that do not affect scoring, e.g. sealant expiry, It
   time-outs, tag transfers, before ``cooling``
4. ``temperature.cooling`` (rule 12), whose drop to 0 K makes TEW "after Player Profiles
   have been ANDed" (temperature.change checks 0 K)

A step is ``def step(state, day: steps.DayEnd, ctx) -> None``; it appends what it did
to ``day.notes``. Start-of-day steps (Player of the Day's draw, sealant taking
effect) have the same signature and see ``state.game_day`` already advanced.

Days end (``day_mode``): "emperor" (rule 10 literally) at the first
announcement of the Emperor at least ``day_hours`` after the day began, a
``New day`` included; "fixed" every ``day_hours`` at the clock (several missed
boundaries run several day ends, each at its own boundary time).
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from engine.imperial.commands import NewDayCmd
from engine.context import Context
from engine.events import Cause
from engine.imperial.pipelines import DAY_END_STEPS, DAY_START_STEPS, RULE_7_ORDER
from engine.imperial.steps import DayEnd, DayStep
from engine.imperial.variables import rule_on
from engine.imperial.winning import game_over
from engine.inputs import Message
from engine.imperial.state import ImperialState
from engine.imperial.events import DayEnded, NewDay
from engine.wording import counted
from engine.refusal import Refusal


def end_steps(state: ImperialState) -> list[DayStep]:
    """Rule 6's order of a day's end; without rule 6, rule 7's (stable: a rule's steps keep theirs)."""
    if rule_on(state, 6):
        return DAY_END_STEPS
    return sorted(DAY_END_STEPS, key=lambda step: RULE_7_ORDER[step])


def end_day(state: ImperialState, at: datetime, ctx: Context) -> None:
    """End the current day at ``at`` and begin the next one; every event on the way is caused by
    the day that ends."""
    saved, ctx.at = ctx.at, at
    try:
        with ctx.because(Cause("day", state.game_day)):
            _run_day_end(state, DayEnd(day=state.game_day, at=at), ctx)
    finally:
        ctx.at = saved


def _run_day_end(state: ImperialState, day: DayEnd, ctx: Context) -> None:
    for step in end_steps(state):
        step(state, day, ctx)
        if game_over(state):
            break  # rule 8: the game ended at this step; nothing follows
    state.game_day += 1
    state.day_started = day.at
    for step in DAY_START_STEPS:
        step(state, day, ctx)
    summary = {"notes": day.notes, "temperature": state.temperature,
               "scores": {p.email: p.score for p in state.players}}
    ctx.emit(DayEnded(day=day.day, new_day=state.game_day, at=day.at.isoformat(), chime=rule_on(state, 19),
                      summary=summary))
    ctx.say("", f"day {day.day} ended at {shown(day.at)}; day {state.game_day} begins")
    for note in day.notes:
        ctx.say("", f"  {note}")


def shown(t: datetime) -> str:
    """A time as an answer shows it: to the second, in UTC (mail arrives with microseconds)."""
    return t.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def day_length(state: ImperialState) -> timedelta:
    return timedelta(hours=state.var("day_hours"))


def next_boundary(state: ImperialState) -> datetime:
    return state.day_started + day_length(state)


def catch_up(state: ImperialState, until: datetime, ctx: Context) -> None:
    """Fixed days: run every day end due by ``until``, each at its own boundary (none without rule 10)."""
    if ctx.config.day_mode != "fixed" or not rule_on(state, 10):
        return
    while not game_over(state) and next_boundary(state) <= until:
        end_day(state, next_boundary(state), ctx)


def after_announcement(state: ImperialState, ctx: Context) -> None:
    """Emperor days: an announcement at least a day after the day began ends it (rule 10)."""
    if (ctx.config.day_mode == "emperor" and rule_on(state, 10) and not game_over(state)
            and next_boundary(state) <= ctx.at):
        end_day(state, ctx.at, ctx)


def new_day(state: ImperialState, msg: Message, cmd: NewDayCmd, ctx: Context) -> None:
    """The Emperor's ``New day``: an announcement that ends the day if it is old enough."""
    if not rule_on(state, 10):
        ctx.refuse(cmd.line, Refusal("rule 10 is repealed: game days no longer end", "10"))
        return
    if ctx.config.day_mode != "emperor":
        ctx.refuse(cmd.line, Refusal(f"in this game a day ends every {counted(state.var('day_hours'), 'hour')} "
                                     "at the clock", "10"))
        return
    if next_boundary(state) > ctx.at:
        ctx.refuse(cmd.line, Refusal(f"day {state.game_day} began at {shown(state.day_started)} and lasts at "
                                     f"least {counted(state.var('day_hours'), 'hour')} (rule 10): it cannot end "
                                     f"before {shown(next_boundary(state))}", "10"))
        return
    ctx.emit(NewDay(day=state.game_day))
    ctx.say(cmd.line, f"day {state.game_day} ends now; day {state.game_day + 1} begins")
