"""Rule 17: the Game Profile, the GP players' planks stacked in player-list order.

The first plank lies with its fat end (section 1) on the left, the next with it
on the right, alternating down the list; the site draws these rows as they are.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from engine.imperial.profiles import as_bits
from engine.imperial.variables import rule_on
from engine.imperial.state import ImperialState


class PlankRow(BaseModel):
    """One row of the Game Profile, top to bottom."""
    email: str
    name: str
    profile: int
    fat_end: Literal["left", "right"]
    sections: list[int]  # 1 raised / 0 depressed, in drawing order from left to right


def game_profile(state: ImperialState) -> list[PlankRow]:
    """The rows of the Game Profile; none without rule 17."""
    rows: list[PlankRow] = []
    if not rule_on(state, 17):
        return rows
    for p in (p for p in state.players if p.category == "GP"):
        fat_end: Literal["left", "right"] = "left" if len(rows) % 2 == 0 else "right"
        bits = [int(b) for b in as_bits(p.profile)]
        rows.append(PlankRow(email=p.email, name=p.name, profile=p.profile, fat_end=fat_end,
                             sections=bits if fat_end == "left" else bits[::-1]))
    return rows


def in_game_profile(state: ImperialState, email: str) -> bool:
    """Rule 20 asks whether a player's Profile is part of the Game Profile: GP players' are."""
    player = state.player(email)
    return player is not None and player.category == "GP" and rule_on(state, 17)
