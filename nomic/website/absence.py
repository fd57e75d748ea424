"""How the roster and a player's page show an absence (engine/absence.py): "away until 2026-01-20
(holiday)", or nothing."""
from __future__ import annotations

from typing import Any

from engine.state import GameState


def away(state: GameState[Any], email: str) -> str:
    absence = state.away.get(email)
    if absence is None:
        return ""
    because = f" ({absence.because})" if absence.because else ""
    return f"away until {absence.until.isoformat()}{because}"
