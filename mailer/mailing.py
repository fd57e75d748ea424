"""What a game's outgoing mail is composed from: one typed value, the same for the answers, the
bounce count and every ruleset's composers, made by the application for each folded entry
(nomic.game); the mailer never reads the game itself."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.context import EngineConfig
from engine.state import GameState
from mailer.ledger import Ledger
from mailer.listconfig import ListSettings


@dataclass(frozen=True)
class Mailing:
    settings: ListSettings  # the list's settings: addresses, names, ids, the template renderer
    config: EngineConfig  # the engine's settings (the game's address and list address among them)
    state: GameState[Any]  # the state after the entry whose mail is composed
    answers_per_hour: int  # [answers] per_sender_per_hour
    ledger: Ledger | None = None  # the processor batch's answer log and bounce state (None: read them now)
