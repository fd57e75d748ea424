"""The few facts a game publishes about itself with each site build (``GAME/summary.json``).

A host's list of games (nomic.host_index) reads them without taking the game's
lock: a game busy with a long fold, or stuck, must not hold up the list, nor the
other games' pages waiting behind it for the server's threads.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from engine.state import GameState
from storage.tables import JournalEntry

SUMMARY = "summary.json"


def publish(game_dir: Path, state: GameState[Any], last_move: str | None = None) -> None:
    """Write the summary of ``state`` (whole or not at all: a reader never sees half of it);
    ``last_move``: when the game last read a mail (``last_mail``)."""
    summary = {"ruleset": state.ruleset, "players": len(state.players), "started": state.started.isoformat(),
               "game_day": getattr(state, "game_day", None), "last_move": last_move}
    path = game_dir / SUMMARY
    part = path.with_suffix(".part")
    part.write_text(json.dumps(summary))
    os.replace(part, path)


def last_mail(db: Engine) -> str | None:
    """When the newest mail in the journal arrived (ISO 8601), or None before the first."""
    with Session(db) as s:
        return s.exec(select(JournalEntry.at).where(JournalEntry.kind == "mail")
                      .order_by(col(JournalEntry.seq).desc()).limit(1)).first()


def read(game_dir: Path) -> dict[str, Any] | None:
    """The last summary published, or None if there is none yet (or it cannot be read)."""
    try:
        found = json.loads((game_dir / SUMMARY).read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None
