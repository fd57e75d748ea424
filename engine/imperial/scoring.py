"""Changing scores (rule 11): every change goes through here and lands in the public ledger.

``award`` is for gains and losses: above ``win_score`` they are inverted
("a player who has more than 50 points shall receive and lose points in an
opposite manner"). ``set_score`` is for resets and fixes (overheating,
meltdown, rule 5 corrections), which are not gains or losses. Either way the
first player to hold exactly ``win_score`` points becomes TEW.
"""
from __future__ import annotations

from engine.context import Context
from engine.imperial import winning
from engine.imperial.variables import rule_on
from engine.state import LedgerEntry
from engine.imperial.state import ImperialPlayer, ImperialState
from engine.imperial.events import Score


def award(state: ImperialState, player: ImperialPlayer, delta: int, cause: str, ctx: Context,
          rule: int | None = None, submission: int | None = None, also: str = "") -> int:
    """Give ``player`` ``delta`` points (inverted above win_score); returns the change made.
    ``also``: what another rule did to ``delta`` (the ledger names it beside ``rule``)."""
    if rule_on(state, 11) and player.score > state.var("win_score"):
        delta = -delta
    return _record(state, player, delta, cause, ctx, rule, submission, also)


def set_score(state: ImperialState, player: ImperialPlayer, score: int, cause: str, ctx: Context,
              rule: int | None = None, submission: int | None = None) -> int:
    """Set ``player``'s score outright; returns the change made."""
    return _record(state, player, score - player.score, cause, ctx, rule, submission, "")


def ledger_score(state: ImperialState, email: str) -> int:
    """The score the public record gives ``email``: the sum of its ledger changes."""
    return state.ledger_total(email)


def describe(delta: int, player: ImperialPlayer) -> str:
    """'+3 points (now 12)' for answer lines."""
    unit = "point" if abs(delta) == 1 else "points"
    return f"{delta:+d} {unit} (now {player.score})" if delta else f"no points (still {player.score})"


def _record(state: ImperialState, player: ImperialPlayer, delta: int, cause: str, ctx: Context,
            rule: int | None, submission: int | None, also: str) -> int:
    if delta == 0:
        return 0
    player.score += delta
    state.ledger.append(LedgerEntry(
        n=len(state.ledger) + 1, at=ctx.at, day=state.game_day, player=player.email,
        delta=delta, score=player.score, cause=cause, rule=rule, submission=submission, also=also))
    ctx.emit(Score(player=player.email, delta=delta, score=player.score, cause=cause,
                   rule=rule, submission=submission))
    if rule_on(state, 11) and player.score == state.var("win_score"):
        winning.declare(state, player.email, f"{player.score} points exactly (rule 11)", ctx)
    return delta
