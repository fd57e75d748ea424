"""The page at ``/`` of ``nomic host serve --http``: every game with its ruleset, day, players, last
move and how to join, as each game last published them (nomic.summary): no game's lock is taken.

It wears the game sites' stylesheet (inline: the page belongs to no game's site).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from markupsafe import Markup

from engine.commands import Help
from engine.ruleset import ruleset_for
from nomic.website.text import mailto, when
from rendering import STATIC, Renderer


@dataclass(frozen=True)
class Joining:
    """How a newcomer joins: mail ``address`` the command ``help`` describes; ``first``: the game has no
    Join, a first submission of this kind makes the player (Imperial rule 2)."""
    address: str
    help: Help
    first: bool

    @property
    def href(self) -> str:
        line = self.help.line if self.help.line and self.help.line != self.help.subject and not self.first else ""
        return mailto(self.address, self.help.subject, line)


@dataclass(frozen=True)
class Listing:
    """One game's row; ``day``, ``players`` and ``last_move`` are None until the game has published a summary."""
    slug: str
    name: str
    ruleset: str
    day: int | None
    players: int | None
    last_move: str | None = None  # "2026-01-05 01:00 UTC": the last mail the game read
    join: Joining | None = None


def joining(ruleset: str, address: str) -> Joining | None:
    """The ruleset's own ``Join`` (its help row), else its first submission (a Proposal)."""
    try:
        commands = ruleset_for(ruleset).commands
    except ValueError:
        return None
    found = {d.kind: d.help[0] for d in commands if d.help and d.kind in ("join", "proposal")}
    if "join" in found:
        return Joining(address, found["join"], first=False)
    return Joining(address, found["proposal"], first=True) if "proposal" in found else None


def listing(slug: str, name: str, ruleset: str, summary: dict[str, Any] | None,
            now: datetime | None = None, address: str = "") -> Listing:
    """A row from the game's last published summary (nomic.summary).

    The game's day is its own count where the ruleset keeps one (Imperial's ``game_day``),
    else the calendar day of the game, counted from its start.
    """
    join = joining(ruleset, address) if address else None
    if summary is None:
        return Listing(slug, name, ruleset, None, None, join=join)
    now = now or datetime.now(timezone.utc)
    day = summary.get("game_day") or (now - datetime.fromisoformat(summary["started"])).days + 1
    last = summary.get("last_move")
    return Listing(slug, name, str(summary.get("ruleset", ruleset)), int(day), int(summary["players"]),
                   when(datetime.fromisoformat(last)) if isinstance(last, str) else None, join)


def page(rows: list[Listing], renderer: Renderer | None = None) -> str:
    """The list of games, in the sites' style."""
    css = Markup((STATIC / "style.css").read_text())  # the installed file: ours, not a player's
    return (renderer or Renderer()).render("site/host_index.html", rows=rows, css=css)
