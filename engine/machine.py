"""The engine's entry points: start a game, fold one journal entry, ask what is due."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from engine import absence, membership, reminders
from engine.context import Context, EngineConfig
from engine.events import Event
from engine.inputs import ClockStep, Message
from engine.ruleset import Ruleset, ruleset_for
from engine.state import GameState


def new_game(config: EngineConfig, rules_text: str) -> GameState[Any]:
    state = ruleset_for(config.ruleset).new_state(config, rules_text)
    if config.subscribe_players:
        membership.subscribe_first_players(state, config)
    return state


def apply(state: GameState[Any], entry: Message | ClockStep, config: EngineConfig,
          ruleset: Ruleset | None = None) -> list[Event]:
    """Fold one journal entry into ``state`` (mutated in place); return its events."""
    ctx = Context(config=config, at=entry.at)
    fold(state, entry, ctx, ruleset)
    return ctx.events


def fold(state: GameState[Any], entry: Message | ClockStep, ctx: Context, ruleset: Ruleset | None = None) -> None:
    """Fold one journal entry into ``state`` in the step ``ctx`` (``nomic verify`` passes one whose
    dice are the published draws). ``ruleset``: the state's, resolved once by a caller that folds
    many entries (looking it up costs an ``import_module`` an entry, 5-6% of a replay).

    The players before a message are its list's first ``before`` items, copied only when it made a
    player: the engine only appends to a list of players in place, and a ruleset that seats a
    player elsewhere (Suber: by surname) makes a new list (engine/index.py relies on the same). A
    copy on every message cost 3.3 us with 1,000 players, 8% of a replay's entry."""
    rs = ruleset or ruleset_for(state.ruleset)
    absence.expire(state, ctx.at)
    if isinstance(entry, Message):
        players, before = state.players, len(state.players)
        rs.on_message(state, entry, ctx)
        if ctx.config.subscribe_players and len(state.players) > before:  # a first move made a player,
            membership.subscribe_new_players(state, players[:before], ctx)  # who hears the game from then on
    else:
        rs.on_clock(state, entry, ctx)
        reminders.step(state, ctx)


def next_due(state: GameState[Any], config: EngineConfig) -> datetime | None:
    """When the next clock step has something to do, or None if nothing is scheduled."""
    due = [ruleset_for(state.ruleset).next_due(state, config), reminders.next_due(state, config)]
    return min((d for d in due if d is not None), default=None)
