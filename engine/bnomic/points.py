"""Points (2-4): a Player's score, never below 0 (Reading 24); every change in the ledger."""
from __future__ import annotations

from engine.bnomic.events import Score
from engine.bnomic.state import BNomicState, BPlayer
from engine.context import Context
from engine.state import LedgerEntry


def gain(state: BNomicState, player: BPlayer, delta: int, cause: str, ctx: Context) -> None:
    """``player`` gains ``delta`` points (a loss when negative), taking the score to 0 at most."""
    delta = max(delta, -player.score)
    if delta == 0:
        return
    player.score += delta
    state.ledger.append(LedgerEntry(n=len(state.ledger) + 1, at=ctx.at, day=state.clock.nweek, player=player.email,
                                    delta=delta, score=player.score, cause=cause))
    ctx.emit(Score(player=player.email, delta=delta, score=player.score, cause=cause))
