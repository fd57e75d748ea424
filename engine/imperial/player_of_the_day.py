"""Rule 18: Player of the Day, +1 at the end of the day; TIE and THS are not eligible.

The draw (``day:D:player-of-the-day``, an index into the eligible players in
list order) happens at the start of each day among the players then in the
game. When nobody was eligible at the start (day 1 begins before anyone has
joined) it happens at the end of the day instead, among the players by then.
"""
from __future__ import annotations

from engine.context import Context
from engine.imperial.scoring import award, describe
from engine.imperial.variables import rule_on
from engine.imperial.state import ImperialState
from engine.imperial.steps import DayEnd
from engine.imperial.events import PlayerOfTheDay

POINTS = 1


def draw(state: ImperialState, day: int, ctx: Context) -> str | None:
    """Choose day ``day``'s Player of the Day among the eligible players, if any."""
    eligible = [p for p in state.players if p.email not in ctx.config.officers]
    if not eligible or not rule_on(state, 18):
        return None
    chosen = eligible[ctx.draw(f"day:{day}:player-of-the-day", 0, len(eligible) - 1)]
    state.player_of_the_day = chosen.email
    ctx.emit(PlayerOfTheDay(day=day, player=chosen.email))
    return chosen.email


def choose_at_start(state: ImperialState, day: DayEnd, ctx: Context) -> None:
    state.player_of_the_day = None
    chosen = draw(state, state.game_day, ctx)
    if chosen:
        day.notes.append(f"Player of the Day for day {state.game_day}: {chosen}")


def reward(state: ImperialState, day: DayEnd, ctx: Context) -> None:
    if not rule_on(state, 18):
        return
    if state.player_of_the_day is None:
        draw(state, day.day, ctx)
    player = state.player(state.player_of_the_day) if state.player_of_the_day else None
    if player is None:
        return
    delta = award(state, player, POINTS, f"Player of the Day {day.day} (rule 18)", ctx, rule=18)
    day.notes.append(f"Player of the Day {day.day}: {player.email} {describe(delta, player)}")
