"""Rules 8 (the second) and 11: TEW, the end of the game, and the final ranking."""
from __future__ import annotations

from engine.context import Context
from engine.imperial.variables import rule_on
from engine.imperial.state import ImperialPlayer, ImperialState
from engine.imperial.events import Winner

RANK_DRAW_MAX = 2**32 - 1


def declare(state: ImperialState, email: str, how: str, ctx: Context) -> None:
    """``email`` becomes TEW: the game ends and every other player is ranked (rule 11)."""
    if state.winner is not None:
        return
    state.winner = email
    state.ranking = [email, *rank_others(state, email, ctx)]
    ctx.emit(Winner(player=email, how=how, ranking=state.ranking))


def rank_others(state: ImperialState, winner: str, ctx: Context) -> list[str]:
    """Score first, then Profile (the higher integer ranks higher), then a seeded draw.

    Only players whose score and Profile both tie draw; each draws once
    (label ``rank:EMAIL``) and the higher draw ranks higher.
    """
    others = [p for p in state.players if p.email != winner]
    keys = {(p.score, p.profile) for p in others}
    tied = {k for k in keys if sum((p.score, p.profile) == k for p in others) > 1}
    def key(p: ImperialPlayer) -> tuple[int, int, int]:
        draw = ctx.draw(f"rank:{p.email}", 0, RANK_DRAW_MAX) if (p.score, p.profile) in tied else 0
        return (p.score, p.profile, draw)
    return [p.email for p in sorted(others, key=key, reverse=True)]


def game_over(state: ImperialState) -> bool:
    """The second rule 8: "the game ends when one player achieves the title of TEW" (repealed: it
    goes on; a ruleset without that rule ends at TEW as rule 11 alone would have it)."""
    return state.winner is not None and (state.rule(8, nth=1) is None or rule_on(state, 8, nth=1))
