"""The outside world as the engine is allowed to see it: the time, the dice, the config."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine import dice
from engine.events import Event


@dataclass(frozen=True)
class EngineConfig:
    """The parts of game.toml the rules read."""
    start: datetime
    seed: str
    address: str
    list_address: str
    # office name -> the addresses that hold it (Imperial: emperor and scribe; BlogNomic: admins
    # and seraphims; Suber: none)
    offices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    first_it: str = ""
    day_mode: str = "emperor"  # "emperor" (rule 10 literally) or "fixed"
    ruleset: str = "imperial"
    edition: str = ""  # the ruleset's edition where it has several (BlogNomic "149", "109")
    variables: dict[str, int] = field(default_factory=dict)  # overrides of game variables
    options: dict[str, Any] = field(default_factory=dict)  # the ruleset's own section of game.toml

    def holder(self, office: str) -> str:
        """The first address holding ``office`` ("" when nobody does)."""
        return next(iter(self.offices.get(office, ())), "")

    def holds(self, address: str, office: str) -> bool:
        return address in self.offices.get(office, ())

    @property
    def officers(self) -> frozenset[str]:
        """Everyone who holds an office."""
        return frozenset(a for holders in self.offices.values() for a in holders)


@dataclass
class Context:
    """One engine step: its time, its config, and the events it produced."""
    config: EngineConfig
    at: datetime
    events: list[Event] = field(default_factory=list)

    def emit(self, kind: str, /, **data) -> Event:
        event = Event(kind=kind, data=data)
        self.events.append(event)
        return event

    def draw(self, label: str, low: int, high: int) -> int:
        """A labelled, seeded draw; recorded as a ``draw`` event for the fair-dice page.

        Labels must be unique across the game (include the day, the purpose and
        the player or submission), so that each draw is checkable on its own.
        """
        result = dice.draw(self.config.seed, label, low, high)
        self.emit("draw", label=label, low=low, high=high, result=result)
        return result

    def say(self, command: str, result: str, ok: bool = True) -> None:
        """One line of the answer mail: what was understood and what it did."""
        self.emit("outcome", command=command, result=result, ok=ok)
