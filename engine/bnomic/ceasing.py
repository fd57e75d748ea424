"""A Faction ceasing (5-2): dissolved by its agent, or at once when no party is a Player (the
design's Reading 63). Apart from factions.py so that players.py, which removes Players, can use it."""
from __future__ import annotations

from engine.bnomic.events import FactionChanged
from engine.bnomic.state import BNomicState, Faction
from engine.context import Context


def cease_without_players(state: BNomicState, ctx: Context) -> None:
    """5-2: a Faction that has no Player party ceases at once (Reading 63 of the design)."""
    for f in [f for f in state.factions if not any(state.player(a) for a in f.parties)]:
        cease(state, f, "no party is a Player (5-2)", ctx)


def cease(state: BNomicState, f: Faction, why: str, ctx: Context) -> None:
    state.factions.remove(f)
    ctx.emit(FactionChanged(name=f.name, vote_power=None, why=why))
