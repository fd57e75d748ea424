"""BlogNomic's part of the state: Pactmakers, Votable Matters with every ballot, dynasties, Hiatus."""
from __future__ import annotations

import bisect
import heapq
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field as dc_field
from datetime import date, datetime
from typing import Any, Literal

from pydantic import Field, PrivateAttr

from engine.state import GameState, Matter, Model, Player
from engine.wording import counted

Kind = Literal["proposal", "cfj", "dov"]
Status = Literal["pending", "enacted", "failed"]
Icon = Literal["FOR", "AGAINST", "DEFERENTIAL", "VETO"]
Action = Literal["enact", "amend", "repeal", "set"]
Section = Literal["core", "dynastic", "appendix"]
KIND_NAMES: dict[str, str] = {"proposal": "Proposal", "cfj": "Call for Judgement", "dov": "Declaration of Victory"}


class Pactmaker(Player):
    """A Pactmaker (idle or not). ``admin`` mirrors the config's admins office when they joined."""
    admin: bool = False
    idle: bool = False
    joined_at: datetime | None = None
    last_seen: datetime | None = None  # their last authenticated message (the seven-day idling)
    idled_at: datetime | None = None  # when they last went Idle (at their own asking or an Admin's)
    idled_by_self: bool = False
    idled_dynasty: int | None = None
    unidle_asked_at: datetime | None = None  # their last `Unidle`, for an Admin's unidling of them


class Applicant(Model):
    """Someone who sent ``Join`` and waits for an Admin to add them to the roster."""
    email: str
    name: str  # the From display name they applied with
    applied_at: datetime


class Ballot(Model):
    """One voting icon used in one message, in the order received."""
    voter: str
    icon: Icon
    at: datetime


class Change(Model):
    """A change line of a Proposal (or CfJ), applied when it is enacted; a ``set`` line's ``name`` is
    the parameter's and its ``text`` the value as written."""
    action: Action
    name: str
    text: str = ""
    section: Section = "dynastic"


@dataclass(frozen=True)
class Electorate:
    """Who counts on every pending matter now: the non-idle Pactmakers in order, and the current
    Seraphims among them. Derived (``BlogState.electorate``), never part of the state."""
    members: tuple[str, ...]
    seraphims: tuple[str, ...]
    present: frozenset[str] = dc_field(init=False)
    seraphim_set: frozenset[str] = dc_field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "present", frozenset(self.members))
        object.__setattr__(self, "seraphim_set", frozenset(self.seraphims))


class Pending:
    """The matters that may still be pending, by kind and by author, what each author made each
    day, and every matter by Message-ID, without a pass over every matter ever made: matters are
    only appended and go from pending to resolved once, never back, so the new ones are taken in
    as they come and the resolved ones dropped as they are read. Derived (``BlogState.pending``):
    copies and pickles start empty, and it is no part of a state's equality."""

    def __init__(self, source: list[VotableMatter] | None = None) -> None:
        self.source = source
        self.taken = 0
        self.kinds: dict[str, deque[VotableMatter]] = {}
        self.authors: dict[tuple[str, str], list[VotableMatter]] = {}
        self.made: Counter[tuple[str, str, date]] = Counter()  # (kind, author, UTC day) -> matters made
        self.message_ids: dict[str, int] = {}  # the last matter each message made

    def __reduce__(self) -> tuple[Any, ...]:
        return Pending, ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pending)

    __hash__ = None  # type: ignore[assignment]

    def take(self, matters: list[VotableMatter]) -> None:
        """Take in the matters appended since the last call (all of them from a list not seen before)."""
        if matters is not self.source or len(matters) < self.taken:
            self.__init__(matters)  # type: ignore[misc]
        for m in matters[self.taken:]:
            self.made[m.kind, m.author, m.opened_at.date()] += 1
            if m.message_id:
                self.message_ids[m.message_id] = m.number
            if m.status == "pending":
                self.kinds.setdefault(m.kind, deque()).append(m)
                self.authors.setdefault((m.kind, m.author), []).append(m)
        self.taken = len(matters)

    def of_kind(self, kind: str) -> deque[VotableMatter]:
        """The pending matters of ``kind`` in order (resolved ones dropped from the front only)."""
        queue = self.kinds.setdefault(kind, deque())
        while queue and queue[0].status != "pending":
            queue.popleft()
        return queue

    def live(self, kind: str) -> list[VotableMatter]:
        """The pending matters of ``kind``, every resolved one dropped."""
        queue = self.kinds[kind] = deque(m for m in self.kinds.get(kind, ()) if m.status == "pending")
        return list(queue)

    def of_author(self, kind: str, author: str) -> list[VotableMatter]:
        mine = [m for m in self.authors.get((kind, author), ()) if m.status == "pending"]
        self.authors[kind, author] = mine
        return mine


def private(model: Model) -> dict[str, Any]:
    """A model's private attributes, read without pydantic's ``__getattr__`` (slow on per-vote paths)."""
    return model.__pydantic_private__  # type: ignore[return-value]


class Tally(Model):
    """A matter's votes frozen when it was resolved (later idling or leaving changes nothing)."""
    votes: dict[str, str]
    for_: int
    against: int
    deferential: int
    deferred_to: str | None = None  # the Seraphims' Vote that DEFERENTIAL votes were counted as, if any were
    seraphims: list[str] = Field(default_factory=list)  # the Seraphims who counted then


class Applied(Model):
    """An Admin's mail saying they applied an enacted matter's prose by hand."""
    by: str
    at: datetime
    note: str
    message_id: str


class VotableMatter(Matter):
    kind: Kind
    status: Status = "pending"
    opened_at: datetime
    resolved_at: datetime | None = None
    resolved_by: str | None = None  # the Admin, or the game's address when resolved automatically
    self_killed: bool = False
    vetoed: bool = False
    ballots: list[Ballot] = Field(default_factory=list)
    changes: list[Change] = Field(default_factory=list)
    by_hand: bool = False  # its text says more than its change lines: an Admin applies that part
    applied: list[Applied] = Field(default_factory=list)  # the Admins' mails applying that part (by_hand.py)
    co_victors: list[str] = Field(default_factory=list)  # a DoV's co-Victors (149)
    tally_line: str | None = None  # "Enacted 5-1 (Quorum 4)", set on resolution
    final: Tally | None = None  # set on resolution
    dynasty: int = 1
    _board: Any = PrivateAttr(default=None)  # votes.Board, its running count of the ballots: not state


class Dynasty(Model):
    number: int
    seraphims: list[str] = Field(default_factory=list)  # empty: a Metadynasty
    victor: str | None = None
    co_victors: list[str] = Field(default_factory=list)
    started_at: datetime
    theme: str | None = None
    ascended: bool = True  # False between the enacted DoV and the Ascension Address


class BlogState(GameState[Pactmaker]):
    ruleset: str = "blognomic"
    edition: str = "149"
    matters: list[VotableMatter] = Field(default_factory=list)
    dynasties: list[Dynasty] = Field(default_factory=list)
    hiatus: bool = False  # the Hiatus a Declaration of Victory began (not the seasonal downtime)
    departed: dict[str, datetime] = Field(default_factory=dict)  # who left, when (no rejoining for two weeks)
    applicants: dict[str, Applicant] = Field(default_factory=dict)  # address -> a Join waiting for an Admin
    dov_lockout: dict[str, datetime] = Field(default_factory=dict)  # author -> may make a DoV again after
    keywords: dict[str, str] = Field(default_factory=dict)  # "Pactmaker"/"Seraphim" -> the dynasty's term
    parameters: dict[str, int | str] = Field(default_factory=dict)  # values Set by enacted matters (mechanics.py)
    settled_until: datetime  # the time up to which matters have been resolved automatically
    rolls: int = 0  # dice rolled so far, to label each draw uniquely
    _electorate: Electorate | None = PrivateAttr(default=None)  # derived: see electorate()
    _pending: Pending = PrivateAttr(default_factory=Pending)  # derived: see pending()
    _due: Any = PrivateAttr(default=None)  # due.Dues, when each pending matter may next be resolved: not state

    @property
    def dynasty(self) -> Dynasty:
        return self.dynasties[-1]

    def active(self) -> list[Pactmaker]:
        """The Pactmakers that count (Idle Pactmakers are not counted as Pactmakers)."""
        return [p for p in self.players if not p.idle]

    def electorate(self) -> Electorate:
        """Who counts now, worked out once per change of it: every change to who is a non-idle
        Pactmaker or a Seraphim calls ``electorate_changed`` (players.py, dynasty.py)."""
        box = private(self)
        if box["_electorate"] is None:
            members = tuple(p.email for p in self.active())
            present = set(members)
            box["_electorate"] = Electorate(members, tuple(s for s in self.dynasty.seraphims if s in present))
        return box["_electorate"]  # type: ignore[no-any-return]

    def electorate_changed(self) -> None:
        """Someone joined, left, went Idle or came back, or the Seraphims changed: each matter's
        running count (votes.py) is redone once, when next read."""
        private(self)["_electorate"] = None

    def seraphims(self) -> list[str]:
        """The current Seraphims who count: non-idle Pactmakers."""
        return list(self.electorate().seraphims)

    def quorum(self) -> int:
        return len(self.electorate().members) // 2 + 1

    def summary(self) -> list[str]:
        marks = {True: " (idle)", False: ""}
        return [f"Dynasty {self.dynasty.number}{', Hiatus' if self.hiatus else ''}, quorum {self.quorum()}, "
                f"{counted(len(self.pending()), 'matter')} pending",
                *(f"  {p.email}  {p.name}{marks[p.idle]}" for p in self.players)]

    def matter(self, number: int) -> VotableMatter | None:
        """Matters are numbered 1..n in the order they came, so N is at position N - 1."""
        return self.matters[number - 1] if 1 <= number <= len(self.matters) else None

    def matter_by_message_id(self, message_id: str) -> VotableMatter | None:
        number = self._taken().message_ids.get(message_id)
        return None if number is None else self.matters[number - 1]

    def _taken(self) -> Pending:
        box: Pending = private(self)["_pending"]
        box.take(self.matters)
        return box

    def pending(self, kind: Kind | None = None) -> list[VotableMatter]:
        """The pending matters (of ``kind``), oldest first (a pass over them: not for per-mail paths)."""
        box = self._taken()
        if kind is not None:
            return box.live(kind)
        return list(heapq.merge(*(box.live(k) for k in KIND_NAMES), key=lambda m: m.number))

    def first_pending(self, kind: Kind) -> Iterator[VotableMatter]:
        """The pending matters of ``kind`` in order, read only as far as the caller goes."""
        return (m for m in self._taken().of_kind(kind) if m.status == "pending")

    def opened_after(self, kind: str, at: datetime) -> Iterator[VotableMatter]:
        """The pending matters of ``kind`` opened after ``at``, oldest first: found by bisection (the
        matters are made in time order), then read only as far as the caller goes."""
        queue = self._taken().of_kind(kind)
        first = bisect.bisect_right(queue, at, key=lambda m: m.opened_at)
        return (queue[i] for i in range(first, len(queue)) if queue[i].status == "pending")

    def pending_of(self, kind: Kind, author: str) -> list[VotableMatter]:
        """``author``'s pending matters of ``kind``, oldest first."""
        return self._taken().of_author(kind, author)

    def made_on(self, kind: Kind, author: str, day: date) -> int:
        """How many matters of ``kind`` ``author`` made on the UTC ``day``."""
        return self._taken().made[kind, author, day]

    def public_json(self) -> dict[str, Any]:
        """The keys docs/contract.md promises for ``nomic state --json``."""
        from engine.blognomic.mechanics import mechanics_of, values  # both import this module
        from engine.absence import away_until
        from engine.blognomic.votes import count_matter
        seraphims = set(self.dynasty.seraphims)
        return {
            "ruleset": self.ruleset, "edition": self.edition, "dynasty": self.dynasty.number,
            "hiatus": self.hiatus, "quorum": self.quorum(),
            "players": [{"email": p.email, "name": p.name, "idle": p.idle, "admin": p.admin,
                         "seraphim": p.email in seraphims, "away_until": away_until(self, p.email)}
                        for p in self.players],
            "applicants": [{"email": a.email, "name": a.name, "applied_at": iso(a.applied_at)}
                           for a in self.applicants.values()],
            "subscribers": self.subscribers_json(),
            "matters": [_matter_json(m, m.final or count_matter(self, m).frozen(self.seraphims())) for m in self.matters],
            "parameters": values(self.parameters),
            "rules": [{"name": r.title, "section": r.section, "text": r.text, "repealed": r.repealed,
                       "mechanics": mechanics_of(r)} for r in self.rules],
        }


def iso(at: datetime | None) -> str | None:
    """A UTC time as the contract writes it: ``2026-01-05T01:00:00Z``."""
    return None if at is None else at.strftime("%Y-%m-%dT%H:%M:%SZ")


def _matter_json(m: VotableMatter, tally: Tally) -> dict[str, Any]:
    return {"number": m.number, "kind": m.kind, "author": m.author, "title": m.title, "status": m.status,
            "opened_at": iso(m.opened_at), "resolved_at": iso(m.resolved_at),
            "self_killed": m.self_killed, "vetoed": m.vetoed, "votes": dict(tally.votes),
            "tally": {"for": tally.for_, "against": tally.against, "deferential": tally.deferential}}
