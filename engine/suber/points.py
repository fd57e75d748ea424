"""Points (rules 202, 204, 206) and victory (208): every change of a score goes through ``award``
and lands in the public ledger."""
from __future__ import annotations

from engine.context import Context
from engine.state import LedgerEntry
from engine.suber.state import SuberState
from engine.suber.events import Score, Winner

from engine.suber import mechanics


def formula(number: int, favourable: int, cast: int, offset: int = 291) -> int:
    """Rule 202: (number - offset, 291 unless Set) x favourable / cast, rounded to the nearest integer, a half up
    (docs/rulings-suber.md); exact integer arithmetic, no float."""
    if cast <= 0:
        return 0
    return (2 * (number - offset) * favourable + cast) // (2 * cast)


def award(state: SuberState, email: str, delta: int, cause: str, ctx: Context, *,
          rule: int, proposal: int | None = None) -> None:
    """Change ``email``'s score by ``delta`` (a zero change is not recorded); the first player to
    reach the winning score (200 unless Set) wins and the game ends, while rule 208 is in effect."""
    player = state.player(email)
    if player is None or delta == 0:
        return
    player.score += delta
    state.ledger.append(LedgerEntry(
        n=len(state.ledger) + 1, at=ctx.at, day=(ctx.at - state.started).days + 1, player=email,
        delta=delta, score=player.score, cause=cause, rule=rule, submission=proposal))
    ctx.emit(Score(player=email, delta=delta, score=player.score, cause=cause, rule=rule,
                   proposal=proposal))
    if state.winner is None and mechanics.on(state, 208) and player.score >= mechanics.value(state, "win_score"):
        state.winner = email
        ctx.emit(Winner(player=email, score=player.score, rule=208))
