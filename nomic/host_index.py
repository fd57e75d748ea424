"""The page at ``/`` of ``nomic host serve --http``: every game with its ruleset, day and player count."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from html import escape
from typing import Any

from engine.state import GameState

PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Games</title></head>
<body>
<h1>Games</h1>
<table>
<thead><tr><th>Game</th><th>Ruleset</th><th>Day</th><th>Players</th></tr></thead>
<tbody>
{rows}</tbody>
</table>
</body>
</html>
"""
ROW = '<tr><td><a href="{slug}/">{name}</a></td><td>{ruleset}</td><td>{day}</td><td>{players}</td></tr>\n'


@dataclass(frozen=True)
class Listing:
    """One game's row."""
    slug: str
    name: str
    ruleset: str
    day: int
    players: int


def listing(slug: str, name: str, state: GameState[Any], now: datetime | None = None) -> Listing:
    """The game's day is its own count where the ruleset keeps one (Imperial's ``game_day``),
    else the calendar day of the game, counted from its start."""
    now = now or datetime.now(timezone.utc)
    day = getattr(state, "game_day", None) or (now - state.started).days + 1
    return Listing(slug, name, state.ruleset, int(day), len(state.players))


def page(rows: list[Listing]) -> str:
    return PAGE.format(rows="".join(
        ROW.format(slug=escape(r.slug), name=escape(r.name), ruleset=escape(r.ruleset), day=r.day,
                   players=r.players) for r in rows))
