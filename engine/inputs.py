"""What the engine folds: messages (already authenticated and parsed) and clock steps."""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.commands import Command


class Message(BaseModel):
    """One received mail, as the engine sees it."""
    model_config = ConfigDict(extra="forbid")
    kind: Literal["mail"] = "mail"
    at: datetime
    message_id: str
    sender: str  # the From address, lower-cased
    name: str = ""  # the From display name
    authenticated: bool = False
    to_list: bool = False  # addressed to the players' list rather than to THS
    automatic: bool = False  # bounce, auto-reply or list mail: never answered (RFC 3834)
    subject: str = ""
    references: list[str] = Field(default_factory=list)  # In-Reply-To first, then References
    commands: list[Command] = Field(default_factory=list)
    not_understood: list[str] = Field(default_factory=list)


class ClockStep(BaseModel):
    """``nomic tick --at``: run what is due by this time."""
    model_config = ConfigDict(extra="forbid")
    kind: Literal["clock"] = "clock"
    at: datetime
