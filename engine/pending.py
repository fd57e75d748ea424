"""What the game waits for from each player, as each ruleset declares it.

A ruleset's ``engine/<name>/pending.py`` has two pure functions, read off the state as the engine
keeps it (never a second copy of the rules):

- ``items(state, config, at)``: every ``Item`` the game waits for now, in the order the game
  needs them: a vote not cast, a judgment, a turn's proposal, an Admin's resolvable matter...,
  each with the moment it closes where it has one;
- ``changes(state, config, player, since, at)``: what changed for ``player`` in (since, at]:
  their score, their status, what became of the matters they made.

The personal daily mail (mailer/personal.py), the reminders (engine/reminders.py) and the list's
"waiting for" line read them. Like ``engine.ruleset.event_models``, a ruleset's module is
imported only when a game asks for it.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.context import EngineConfig
from engine.ruleset import listed
from engine.state import GameState


@dataclass(frozen=True)
class Item:
    """One thing the game waits for from ``player``: ``what`` it is ("a vote on proposal 301"),
    the ``lines`` that do it, any of them ("Vote yes 301", "Vote no 301"), a ``note`` said after
    them ("; a majority of the others"), and when it ``closes`` (None: no deadline). ``vote``: a
    vote not yet cast (the personal mail lists them apart from what one must do)."""
    player: str
    what: str
    lines: tuple[str, ...]
    closes: datetime | None = None
    vote: bool = False
    note: str = ""

    def how(self, quote: str = "'") -> str:
        """``'Vote yes 301' or 'Vote no 301'`` and the note."""
        return " or ".join(f"{quote}{line}{quote}" for line in self.lines) + self.note


def _module(state: GameState[Any]) -> Any:
    """The ruleset's own ``pending`` module, beside its engine (``engine.NAME.pending``); None for
    a ruleset that declares nothing pending (the tests' skeleton)."""
    name = f"{listed(state.ruleset).module('engine')}.pending"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def items(state: GameState[Any], config: EngineConfig, at: datetime) -> list[Item]:
    """Everything the game waits for at ``at``, from every player."""
    module = _module(state)
    found: list[Item] = module.items(state, config, at) if module else []
    return found


def first_close(state: GameState[Any], config: EngineConfig, at: datetime, after: datetime) -> datetime | None:
    """The earliest ``closes`` later than ``after`` among the items pending at ``at``: the ruleset's
    own ``first_close`` where it has one (it must not list every item: BlogNomic), else read from
    ``items``."""
    module = _module(state)
    if module is None:
        return None
    fast = getattr(module, "first_close", None)
    if fast is not None:
        first: datetime | None = fast(state, config, after)
        return first
    return min((i.closes for i in module.items(state, config, at) if i.closes is not None and i.closes > after),
               default=None)


def changes(state: GameState[Any], config: EngineConfig, player: str, since: datetime, at: datetime) -> list[str]:
    """What changed for ``player`` in (since, at], one line each."""
    module = _module(state)
    found: list[str] = module.changes(state, config, player, since, at) if module else []
    return found


def score_change(state: GameState[Any], player: str, since: datetime, at: datetime) -> list[str]:
    """"Your score went from 3 to 5 (+2)", from the ledger, for the rulesets that keep one."""
    moved = []
    for e in reversed(state.ledger):  # the ledger is in time order: read back only as far as ``since``
        if e.at <= since:
            break
        if e.player == player and e.at <= at:
            moved.append(e)
    moved.reverse()
    if not moved:
        return []
    delta = sum(e.delta for e in moved)
    before = moved[0].score - moved[0].delta
    return [f"Your score went from {before} to {moved[-1].score} ({delta:+d})."]
