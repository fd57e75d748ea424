"""What the mailer needs of a game, as a protocol: the application's ``nomic.game.Game`` provides it.

The mailer sits below the application (docs/architecture.md), so it names the game it serves
by this protocol instead of importing the game runner.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.engine import Engine

from engine.context import EngineConfig
from engine.state import GameState
from storage.config import Config

if TYPE_CHECKING:
    from mailer.inbox import Inbox
    from mailer.listconfig import ListSettings


@dataclass
class Arrival:
    """A parsed, authenticated message on its way into the journal."""
    key: str
    raw: bytes
    at: datetime
    meta: dict


@dataclass
class Receipt:
    """What became of one received message."""
    status: str  # "new" | "duplicate"
    seq: int
    key: str


class GameHandle(Protocol):
    config: Config
    engine_config: EngineConfig
    db: Engine
    inbox: "Inbox"  # its way in (mailer.inbox): the mailer journals through it, never through the game

    @property
    def list_settings(self) -> "ListSettings":
        """Made once per game: it carries the game's template renderer."""

    def state(self) -> GameState[Any]: ...

    def tick(self, at: datetime) -> Receipt | None: ...

    def process(self, send: bool = True, upto: int | None = None) -> Any: ...
