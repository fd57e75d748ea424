"""What the engine folds: messages (already authenticated and parsed) and clock steps."""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny

from engine.commands import Cmd


class Message(BaseModel):
    """One received mail, as the engine sees it. Its commands are the ruleset's own models
    (``Ruleset.load_message`` reads a stored one back)."""
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
    commands: list[SerializeAsAny[Cmd]] = Field(default_factory=list)
    not_understood: list[str] = Field(default_factory=list)


class ClockStep(BaseModel):
    """``nomic tick --at``: run what is due by this time."""
    model_config = ConfigDict(extra="forbid")
    kind: Literal["clock"] = "clock"
    at: datetime


def load_message(data: str, model: type[Message]) -> Message:
    """A stored Message read back as ``model`` (a ruleset's ``message_model``: its commands are the
    ruleset's models). Read in one pass by pydantic's JSON reader: the same values as a parse of
    the JSON and a validation of its fields and commands apart, in about two thirds of the time (a
    replay reads one per entry). ``data`` is written by ``model_dump_json``."""
    return model.model_validate_json(data)
