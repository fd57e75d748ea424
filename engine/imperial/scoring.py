"""Changing scores: every change goes through ``award`` and lands in the ledger."""
from __future__ import annotations

from engine.context import Context
from engine.state import GameState, LedgerEntry, Player


def award(state: GameState, player: Player, delta: int, cause: str, ctx: Context,
          rule: int | None = None, submission: int | None = None) -> None:
    """Change ``player``'s score by ``delta`` and record it in the public ledger."""
    if delta == 0:
        return
    player.score += delta
    state.ledger.append(LedgerEntry(
        n=len(state.ledger) + 1, at=ctx.at, day=state.game_day, player=player.email,
        delta=delta, score=player.score, cause=cause, rule=rule, submission=submission))
    ctx.emit("score", player=player.email, delta=delta, score=player.score, cause=cause,
             rule=rule, submission=submission)
