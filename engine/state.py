"""The generic part of every game's state: players, the ledger, rules with history, variables,
the list's members. A ruleset's state (``engine/imperial/state.py``, ...) extends it.

The state is a tree of pydantic models so that it round-trips through JSON
(snapshots, ``nomic state --json``) without hand-written serialisers.
Engine steps mutate the state they are given; callers that need the old
state keep a copy (see ``GameState.copy_deep``).
"""
from __future__ import annotations

from datetime import date, datetime
from typing import Any, Generic, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from engine.index import StateIndex, name_key
from engine.wording import counted


class Model(BaseModel):
    model_config = ConfigDict(extra="ignore")  # computed fields (entropy) are dumped, not loaded


class Player(Model):
    """A player: an address (the identity), a unique name, and a score where the ruleset keeps one."""
    email: str
    name: str
    score: int = 0


class Matter(Model):
    """Something numbered that players act on: a submission, a votable matter, a proposal."""
    number: int
    author: str
    title: str
    text: str = ""
    message_id: str | None = None
    received_at: datetime | None = None


class LedgerEntry(Model):
    """One change of one score: the public record of every point."""
    n: int
    at: datetime
    day: int
    player: str
    delta: int
    score: int  # the score after the change
    cause: str
    rule: int | None = None
    submission: int | None = None
    also: str = ""  # what another rule did to the change, naming that rule ("one point less ... (rule 14)")


class RuleVersion(Model):
    text: str
    title: str
    by: str | None = None  # e.g. "P7" or "Proclamation 12"
    at: datetime | None = None


class Rule(Model):
    """A rule with its history. Imperial and Suber rules are numbered; BlogNomic's are named
    (``title``) within a ``section``."""
    number: int
    title: str
    text: str
    amended_by: list[str] = Field(default_factory=list)
    repealed: bool = False
    # Imperial rule 7: submissions numbered >= these are governed by the enactment / the repeal
    enacted_from: int | None = None
    repealed_from: int | None = None
    history: list[RuleVersion] = Field(default_factory=list)
    section: str | None = None  # BlogNomic: "core", "dynastic", "appendix"
    mutable: bool | None = None  # Suber: rule 103's mutable and immutable rules


class Subscriber(Model):
    email: str
    digest: bool = False
    plain: bool = False  # a digest member who chose the RFC 1153 plain-text digest
    # when this (re)subscription began, to the second: unsubscribe links made before it are refused;
    # None in states stored before it was kept
    since: datetime | None = None


class Absence(Model):
    """A player's ``Away until DATE [because ...]`` (engine/absence.py): away through the whole of ``until`` (UTC)."""
    until: date
    because: str = ""
    since: datetime


P = TypeVar("P", bound=Player)


class GameState(Model, Generic[P]):
    """What every ruleset's state has. A ruleset subclasses it with its own player model."""
    ruleset: str
    started: datetime
    winner: str | None = None
    variables: dict[str, int] = Field(default_factory=dict)
    players: list[P] = Field(default_factory=list)
    ledger: list[LedgerEntry] = Field(default_factory=list)
    rules: list[Rule] = Field(default_factory=list)
    subscribers: list[Subscriber] = Field(default_factory=list)
    away: dict[str, Absence] = Field(default_factory=dict)  # address -> absence (engine/absence.py)
    reminded_until: datetime | None = None  # reminders are sent for deadlines up to here (engine/reminders.py)
    _index: StateIndex = PrivateAttr(default_factory=StateIndex)  # engine/index.py: not state

    def _lookups(self) -> StateIndex:
        """``self._index`` without pydantic's ``__getattr__`` (a lookup per message: it is slow)."""
        return self.__pydantic_private__["_index"]  # type: ignore[index, no-any-return]

    def player(self, who: str) -> P | None:
        """The player whose address is ``who`` or, when ``who`` is no address, whose name it is
        (case-insensitively): a name never stands for someone else's address."""
        who = who.strip().lower()
        return self._lookups().players.find(self.players, who if "@" in who else name_key(who))

    def name_for(self, email: str, wanted: str) -> str:
        """A name for a new player: ``wanted`` (the From display name) unless it is empty, looks
        like an address or is taken; then the address's local part; made unique with a number."""
        wanted = " ".join(wanted.split())[:64]
        base = wanted if wanted and "@" not in wanted else email.partition("@")[0]
        name, n = base, 1
        while self.player(name) is not None:
            n += 1
            name = f"{base} ({n})"
        return name

    def subscribers_json(self) -> list[dict[str, Any]]:
        """The list's members as ``nomic state --json`` gives them in every ruleset (Imperial's shape):
        ``{"email", "digest", "plain", "since"}`` each, in the order they subscribed."""
        return [s.model_dump(mode="json") for s in self.subscribers]

    def subscriber(self, address: str) -> Subscriber | None:
        """The list member with this address (case-insensitive)."""
        return self._lookups().subscribers.find(self.subscribers, address.lower())

    def matter(self, number: int) -> Matter | None:
        """The numbered matter (submission, proposal...) a thread or a command names; none by default."""
        return None

    def matter_by_message_id(self, message_id: str) -> Matter | None:
        """The last matter made by the message with this Message-ID; none by default."""
        return None

    def ledger_total(self, email: str) -> int:
        """The sum of ``email``'s score changes in the ledger."""
        return self._lookups().ledger.total(self.ledger, email)

    def rule(self, number: int, nth: int = 0) -> Rule | None:
        """The ``nth`` rule numbered ``number`` (Imperial prints two rules 8: nth 1 is the second);
        the rules are looked at only up to it (the engine asks for a rule many times a message)."""
        for r in self.rules:
            if r.number == number:
                if nth == 0:
                    return r
                nth -= 1
        return None

    def rule_in_force(self, number: int, nth: int = 0) -> bool:
        r = self.rule(number, nth)
        return r is not None and not r.repealed

    def var(self, name: str) -> int:
        return self.variables[name]

    def public_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    def summary(self) -> list[str]:
        """``nomic state`` without --json: a headline, then a line per player."""
        return [counted(len(self.players), "player"),
                *(f"  {p.score:>5}  {p.email}  {p.name}" for p in self.players)]

    def copy_deep(self) -> Self:
        return self.model_copy(deep=True)
