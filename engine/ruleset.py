"""What a ruleset is to the machine, and the one place that lists the rulesets.

A ruleset is a package under ``engine/`` (``engine/imperial/``, ...) whose ``RULESET`` provides
these members and whose ``events`` module declares its events (``EVENTS``: one model per kind,
read by ``event_models``); its mail and site parts live beside the mailer and the site, not here.
The engine imports a ruleset's package only when a game asks for it (``ruleset_for``).
"""
from __future__ import annotations

import importlib
from datetime import datetime
from typing import Annotated, Any, Protocol, Union

from pydantic import Field, TypeAdapter

from engine.commands import Declaration, Help
from engine.context import Context, EngineConfig
from engine.events import GENERIC, EventModel, by_kind
from engine.inputs import ClockStep, Message
from engine.state import GameState

# game.toml's ``[game] ruleset`` -> the package that implements it
PACKAGES = {"imperial": "engine.imperial", "blognomic": "engine.blognomic", "suber": "engine.suber",
            "bnomic": "engine.bnomic"}


class Ruleset(Protocol):
    name: str
    state_model: type[GameState[Any]]  # snapshots load through it
    commands: tuple[Declaration, ...]  # every mail command, in the order the grammar tries them
    office_notes: tuple[Help, ...]  # rows of the help table that are no command (a passphrase line)
    command_models: TypeAdapter[list[Any]]  # a stored message's commands read back

    def new_state(self, config: EngineConfig, rules_text: str) -> GameState[Any]: ...

    def on_message(self, state: Any, msg: Message, ctx: Context) -> None: ...

    def on_clock(self, state: Any, step: ClockStep, ctx: Context) -> None: ...

    def next_due(self, state: Any, config: EngineConfig) -> datetime | None: ...


def ruleset_for(name: str) -> Ruleset:
    try:
        package = PACKAGES[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r} (known: {', '.join(sorted(PACKAGES))})") from None
    return importlib.import_module(package).RULESET  # type: ignore[no-any-return]


def event_models(name: str) -> dict[str, type[EventModel]]:
    """Every event a game of ruleset ``name`` emits, by kind: the generic ones and its own."""
    ruleset_for(name)  # an unknown name fails here, as it does there
    own = importlib.import_module(f"{PACKAGES[name]}.events").EVENTS
    return by_kind(GENERIC + own)


def command_models(commands: tuple[Declaration, ...]) -> TypeAdapter[list[Any]]:
    """The union of a ruleset's command models, told apart by their ``kind``."""
    union = Union[tuple(d.model for d in commands)]  # type: ignore[valid-type]
    return TypeAdapter(list[Annotated[union, Field(discriminator="kind")]])  # type: ignore[valid-type]
