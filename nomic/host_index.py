"""The page at ``/`` of ``nomic host serve --http``: every game with its ruleset, day and player count,
as each game last published them (nomic.summary): no game's lock is taken."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from html import escape
from typing import Any


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
    """One game's row; ``day`` and ``players`` are None until the game has published a summary."""
    slug: str
    name: str
    ruleset: str
    day: int | None
    players: int | None


def listing(slug: str, name: str, ruleset: str, summary: dict[str, Any] | None,
            now: datetime | None = None) -> Listing:
    """A row from the game's last published summary (nomic.summary).

    The game's day is its own count where the ruleset keeps one (Imperial's ``game_day``),
    else the calendar day of the game, counted from its start.
    """
    if summary is None:
        return Listing(slug, name, ruleset, None, None)
    now = now or datetime.now(timezone.utc)
    day = summary.get("game_day") or (now - datetime.fromisoformat(summary["started"])).days + 1
    return Listing(slug, name, str(summary.get("ruleset", ruleset)), int(day), int(summary["players"]))


def page(rows: list[Listing]) -> str:
    return PAGE.format(rows="".join(
        ROW.format(slug=escape(r.slug), name=escape(r.name), ruleset=escape(r.ruleset), day=_shown(r.day),
                   players=_shown(r.players)) for r in rows))


def _shown(number: int | None) -> str:
    return "" if number is None else str(number)
