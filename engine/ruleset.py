"""What a ruleset is to the machine: how a game starts and how it reacts.

Imperial Nomic is one implementation (``engine.imperial``); another ruleset
(BlogNomic, Suber's Nomic) provides the same four functions.
"""
from __future__ import annotations

from datetime import datetime
from typing import Protocol

from engine.context import Context, EngineConfig
from engine.inputs import ClockStep, Message
from engine.state import GameState


class Ruleset(Protocol):
    name: str

    def new_state(self, config: EngineConfig, rules_text: str) -> GameState: ...

    def on_message(self, state: GameState, msg: Message, ctx: Context) -> None: ...

    def on_clock(self, state: GameState, step: ClockStep, ctx: Context) -> None: ...

    def next_due(self, state: GameState, config: EngineConfig) -> datetime | None: ...
