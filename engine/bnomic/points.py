"""Points (2-4): a Player's score, never below 0 (Reading 24); every change in the ledger."""
from __future__ import annotations

from collections.abc import Iterable

from engine.bnomic.events import Score
from engine.bnomic.state import BNomicState, BPlayer
from engine.context import Context
from engine.events import Event
from engine.state import LedgerEntry


def gain(state: BNomicState, player: BPlayer, delta: int, cause: str, ctx: Context) -> None:
    """``player`` gains ``delta`` points (a loss when negative), taking the score to 0 at most."""
    gain_all(state, [(player, delta, cause)], ctx)


def gain_all(state: BNomicState, gains: Iterable[tuple[BPlayer, int, str]], ctx: Context) -> None:
    """Each of ``gains`` (a Player, his ``delta``, its cause) in turn, as ``gain`` says.

    Its ``score`` event is the one ``ctx.emit(Score(...))`` would record, validated as an ``Event``
    without the model and its dump between: 2-6 scores every voter at once (1,000 Players), and
    those took two thirds of an event's cost (tests/bnomic/test_scoring.py pins them equal)."""
    day, at = state.clock.nweek, ctx.at
    entry, event = LedgerEntry.__pydantic_validator__.validate_python, Event.__pydantic_validator__.validate_python
    for player, delta, cause in gains:
        delta = max(delta, -player.score)
        if delta == 0:
            continue
        player.score += delta
        state.ledger.append(entry({
            "n": len(state.ledger) + 1, "at": at, "day": day, "player": player.email, "delta": delta,
            "score": player.score, "cause": cause}))
        ctx.events.append(event({"kind": Score.KIND, "data": {
            "player": player.email, "delta": delta, "score": player.score, "cause": cause}, "cause": ctx.cause}))
