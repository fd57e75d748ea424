"""The outside world as the engine is allowed to see it: the time, the dice, the config."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from datetime import datetime
from typing import Any

from engine import dice
from engine.events import Cause, Draw, Event, EventModel, Outcome
from engine.refusal import Refusal


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
    options: dict[str, Any] = field(default_factory=dict)  # the ruleset's own section of game.toml, every key
    # present (storage/defaults/RULESET.toml fills it in; storage/settings/ checks it)
    subscribe_players: bool = True  # [list]: whoever becomes a player is on the list from that moment
    remind_hours: int = 0  # [list]: a reminder this long before a deadline (0: none; game.toml says 24; engine/reminders.py)

    def holder(self, office: str) -> str:
        """The first address holding ``office`` ("" when nobody does)."""
        return next(iter(self.offices.get(office, ())), "")

    def holds(self, address: str, office: str) -> bool:
        return address in self.offices.get(office, ())

    @cached_property
    def officers(self) -> frozenset[str]:
        """Everyone who holds an office (asked of a list post from anyone not a member or player)."""
        return frozenset(a for holders in self.offices.values() for a in holders)


@dataclass
class Context:
    """One engine step: its time, its config, the events it produced and what it is working on."""
    config: EngineConfig
    at: datetime
    cause: Cause | None = None  # the cause of what is emitted now (``because``)
    _made: list[Event] = field(default_factory=list, init=False, repr=False)
    _emitted: list[tuple[str, dict[str, Any], Cause | None]] = field(default_factory=list, init=False, repr=False)

    @property
    def events(self) -> list[Event]:
        """The events emitted so far, in order. Each is made an ``Event`` when they are first asked
        for (its data was taken when it was emitted): a replay, which keeps only the state, asks
        for none and pays for none (a list post's fold: 91k -> 66k instructions)."""
        if self._emitted:
            self._made += [Event(kind=kind, data=data, cause=cause) for kind, data, cause in self._emitted]
            self._emitted.clear()
        return self._made

    def emit(self, event: EventModel, cause: Cause | None = None) -> None:
        """Record ``event`` (the caller's no more), caused by ``cause`` if given, else by what the step
        is working on."""
        self._emitted.append((event.KIND, event.dumped(), cause or self.cause))

    def because(self, cause: Cause) -> _Because:
        """Every event emitted in the block (score, temperature, draws...) is caused by ``cause``,
        unless a block inside names another."""
        return _Because(self, cause)

    def draw(self, label: str, low: int, high: int) -> int:
        """A labelled, seeded draw; recorded as a ``draw`` event for the fair-dice page.

        Labels must be unique across the game (include the day, the purpose and
        the player or submission), so that each draw is checkable on its own.
        """
        result = dice.draw(self.config.seed, label, low, high)
        self.emit(Draw(label=label, low=low, high=high, result=result))
        return result

    def say(self, command: str, result: str) -> None:
        """One line of the answer mail: what was understood and what it did (a refusal: ``refuse``)."""
        self.emit(Outcome(command=command, result=result, ok=True))

    def refuse(self, command: str, refusal: Refusal, tail: str = "nothing done") -> None:
        """A line of the answer refusing ``command``: why, the rule that says so, ``tail``."""
        self.emit(Outcome(command=command, result=refusal.text(tail), ok=False))


class _Because:
    """``Context.because``'s block: a plain context manager, a third of a generator-based one's cost
    (1.2 against 3.3 us; a replay enters one every three entries)."""
    __slots__ = ("ctx", "cause", "saved")

    def __init__(self, ctx: Context, cause: Cause) -> None:
        self.ctx, self.cause, self.saved = ctx, cause, ctx.cause

    def __enter__(self) -> None:
        self.saved, self.ctx.cause = self.ctx.cause, self.cause

    def __exit__(self, *exc: object) -> None:
        self.ctx.cause = self.saved
