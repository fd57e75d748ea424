"""Points (rules 202, 204, 206) and victory (208): every change of a score goes through ``award``
and lands in the public ledger."""
from __future__ import annotations

from engine.context import Context
from engine.state import LedgerEntry
from engine.suber.state import SuberState
from engine.suber.events import Score, Winner

OFFSET = 291  # rule 202: "subtract 291 from the ordinal number of their proposal"
DEFEAT = -10  # rule 206
AGAINST_WINNER = 10  # rule 204
WIN = 200  # rule 208, "in mail and computer games"


def formula(number: int, favourable: int, cast: int) -> int:
    """Rule 202: (number - 291) x favourable / cast, rounded to the nearest integer, a half up
    (docs/rulings-suber.md); exact integer arithmetic, no float."""
    if cast <= 0:
        return 0
    return (2 * (number - OFFSET) * favourable + cast) // (2 * cast)


def award(state: SuberState, email: str, delta: int, cause: str, ctx: Context, *,
          rule: int, proposal: int | None = None) -> None:
    """Change ``email``'s score by ``delta`` (a zero change is not recorded); the first player to
    reach 200 points wins and the game ends (208)."""
    player = state.player(email)
    if player is None or delta == 0:
        return
    player.score += delta
    state.ledger.append(LedgerEntry(
        n=len(state.ledger) + 1, at=ctx.at, day=(ctx.at - state.started).days + 1, player=email,
        delta=delta, score=player.score, cause=cause, rule=rule, submission=proposal))
    ctx.emit(Score(player=email, delta=delta, score=player.score, cause=cause, rule=rule,
                   proposal=proposal))
    if state.winner is None and player.score >= WIN:
        state.winner = email
        ctx.emit(Winner(player=email, score=player.score, rule=208))
