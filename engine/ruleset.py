"""What a ruleset is to the machine, and the one list of rulesets.

``RULESETS`` is the one list: a ruleset is one entry, and everything else of it is found from its
name by convention (docs/architecture.md, "Adding a ruleset"): its engine part is the package
``engine/<name>/``, whose ``RULESET`` provides the members below and whose ``events`` module declares
its events (``EVENTS``: one model per kind, read by ``event_models``); its mail part is
``mailer/<name>/`` (``MAIL``), its site ``nomic/website/<name>/`` (``SITE``), its game.toml model
``storage/settings/<name>.py`` (``Settings``) and its defaults ``storage/defaults/<name>.toml``;
``texts`` names its rules text in ``storage/rulesets/`` for each edition. Each layer imports a
ruleset's part only when a game asks for it (``ruleset_for``, ``mailer.rulesets.mail_for``, ...):
nothing registers itself at import.
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from types import ModuleType
from typing import Annotated, Any, Literal, Protocol, Union

from pydantic import Field, TypeAdapter, create_model

from engine.commands import Declaration, Help
from engine.context import Context, EngineConfig
from engine.events import GENERIC, EventModel, by_kind
from engine.inputs import ClockStep, Message
from engine.state import GameState

Part = Literal["engine", "mail", "site", "settings"]
# each part of a ruleset -> the package under which it is the module of the ruleset's name
LAYERS: dict[Part, str] = {"engine": "engine", "mail": "mailer", "site": "nomic.website", "settings": "storage.settings"}


@dataclass(frozen=True)
class Listed:
    """One ruleset of the list. ``name``: game.toml's ``[game] ruleset``, and the name of its packages
    and files; ``texts``: each ``[game] edition`` it has -> its rules text (``""``: it has one text,
    and no edition to choose), in the order a wrong edition's error names them.

    ``home``: a ruleset kept outside the product's packages (the tests' skeleton), whose parts are
    the modules ``HOME.engine``, ``HOME.mail``, ``HOME.site`` and ``HOME.settings`` and whose files are
    in the package HOME, as the others' are in ``storage`` (``defaults/NAME.toml``, ``rulesets/FILE``)."""
    name: str
    texts: Mapping[str, str]
    home: str = ""

    def module(self, part: Part) -> str:
        """The module of one of its parts (``engine.NAME``, ``mailer.NAME``, ...)."""
        return f"{self.home}.{part}" if self.home else f"{LAYERS[part]}.{self.name}"

    @property
    def files(self) -> str:
        """The package whose ``defaults/`` and ``rulesets/`` hold its defaults and its rules texts."""
        return self.home or "storage"


RULESETS: tuple[Listed, ...] = (
    Listed("imperial", {"": "imperial-nomic.txt"}),
    Listed("blognomic", {"149": "blognomic-149.txt", "109": "blognomic-109.txt"}),
    Listed("suber", {"": "suber-nomic-2005.txt"}),
    Listed("bnomic", {"": "b-nomic.txt"}),
)


def names() -> list[str]:
    """Every ruleset's name, in the list's order."""
    return [r.name for r in RULESETS]


def listed(name: str) -> Listed:
    """The list's entry for ``name``; ValueError for a name it does not list."""
    for entry in RULESETS:
        if entry.name == name:
            return entry
    raise ValueError(f"unknown ruleset {name!r} (known: {', '.join(sorted(names()))})")


def part(name: str, which: Part) -> ModuleType:
    """The module of one part of ruleset ``name``, imported now (ValueError for an unknown ruleset)."""
    return importlib.import_module(listed(name).module(which))


class Ruleset(Protocol):
    name: str
    state_model: type[GameState[Any]]  # snapshots load through it
    commands: tuple[Declaration, ...]  # every mail command, in the order the grammar tries them
    office_notes: tuple[Help, ...]  # rows of the help table that are no command (a passphrase line)
    command_models: TypeAdapter[list[Any]]  # stored commands read back
    message_model: type[Message]  # a stored message read back (``engine.inputs.load_message``)

    def new_state(self, config: EngineConfig, rules_text: str) -> GameState[Any]: ...

    def on_message(self, state: Any, msg: Message, ctx: Context) -> None: ...

    def on_clock(self, state: Any, step: ClockStep, ctx: Context) -> None: ...

    def next_due(self, state: Any, config: EngineConfig) -> datetime | None: ...


def ruleset_for(name: str) -> Ruleset:
    return part(name, "engine").RULESET  # type: ignore[no-any-return]


def event_models(name: str) -> dict[str, type[EventModel]]:
    """Every event a game of ruleset ``name`` emits, by kind: the generic ones and its own."""
    own = importlib.import_module(f"{listed(name).module('engine')}.events").EVENTS
    return by_kind(GENERIC + own)


def command_models(commands: tuple[Declaration, ...]) -> TypeAdapter[list[Any]]:
    """The union of a ruleset's command models, told apart by their ``kind``."""
    return TypeAdapter(list[_union(commands)])  # type: ignore[misc]


def message_model(commands: tuple[Declaration, ...]) -> type[Message]:
    """A ``Message`` whose commands are the ruleset's own models: a stored message is read back in
    one pass of pydantic's JSON reader (a replay reads one per entry)."""
    return create_model("StoredMessage", __base__=Message,
                        commands=(list[_union(commands)], Field(default_factory=list)))  # type: ignore[misc]


def _union(commands: tuple[Declaration, ...]) -> Any:
    union = Union[tuple(d.model for d in commands)]  # type: ignore[valid-type]
    return Annotated[union, Field(discriminator="kind")]
