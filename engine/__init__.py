"""The rules as pure code.

State in, command in, new state and events out. Nothing here touches the
network, the disk, the wall clock or the global random module: the time of
every step and the game's seeded dice come in through :class:`engine.context.Context`.
"""
from engine.context import Context, EngineConfig
from engine.events import Event
from engine.inputs import ClockStep, Message
from engine.machine import apply, fold, new_game, next_due
from engine.state import GameState

__all__ = [
    "ClockStep", "Context", "EngineConfig", "Event", "GameState", "Message",
    "apply", "fold", "new_game", "next_due",
]
