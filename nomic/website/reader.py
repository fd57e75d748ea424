"""The reader: everything the site shows, collected in a few queries from a narrow source.

The site never takes the game itself, nor reads raw mail: its caller gives it a ``SiteSource``
(nomic/site.py makes one of a game): the state, the settings the site shows, the database to read
events from, and the values made of mail elsewhere (list posts, the public mail, the public
record's head). Events are read with their journal time (one join, only the kinds the site shows).
The ``list_post`` events name the journal entries whose posts are archived; the public mail
(public_mail.py) is the outbox as it was distributed.

Events and journal entries are only ever added to, so what a build has read of a
game is kept in the ``SiteMemory`` its caller passes again (the daemon rebuilds every
few seconds), and a rebuild reads only the events and posts that are new, and files only those
(the events by kind, the list posts in order): nothing a rebuild does here grows with the game.
If the events read before are no longer all there (the game was rebuilt), they are all read again.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from engine.dice import seed_hash
from engine.events import Cause
from engine.state import GameState
from nomic.record_head import Head
from nomic.website.mail_index import MailIndex
from nomic.website.posts import Threads
from nomic.website.public_mail import PublicMail
from storage.config import parse_time
from storage import EventRow, JournalEntry

if TYPE_CHECKING:
    from nomic.website.memory import SiteMemory

# Events the site never shows: answer lines and delivery bookkeeping.
HIDDEN_KINDS = ("outcome", "unauthenticated", "subscription", "fault")


@dataclass(frozen=True)
class EventRecord:
    id: int
    seq: int
    at: datetime
    kind: str
    data: dict
    cause: Cause | None = None  # what the engine says caused it (engine.events.Cause)


@dataclass(frozen=True)
class ListPost:
    seq: int
    at: datetime
    message_id: str
    sender: str
    name: str
    subject: str
    text: str
    references: list[str]


@dataclass(frozen=True)
class SiteSettings:
    """What the site shows of game.toml: ``[game]``, ``[offices]``, the ruleset's own section."""
    game: dict
    offices: dict
    options: dict  # the ruleset's own section of game.toml (``[suber]``, ...)
    seed: str
    reveal_seed: bool


class SiteSource(Protocol):
    """What the site reads of one game (nomic/site.py ``GameSite``)."""

    @property
    def key(self) -> object:
        """The game, as ``SiteMemory`` keeps what its builds read (held weakly: never used)."""

    @property
    def db(self) -> Engine:
        """The game's database, for its events."""

    @property
    def settings(self) -> SiteSettings: ...

    def state(self) -> GameState[Any]: ...

    def list_posts(self, seqs: list[int]) -> dict[int, "ListPost"]:
        """The list posts of journal entries ``seqs``, by seq."""

    def public_mail(self, after: int) -> list[PublicMail]:
        """The public mail of the outbox rows after ``after``, oldest first."""

    def record(self, after: Head) -> tuple[Head, Head | None]:
        """The public record's head after its newest entry, and after its newest clock step
        since ``after`` (None if there is none)."""


@dataclass
class SiteData:
    """What the generators work from: one consistent read of the game."""
    state: GameState[Any]
    game: dict
    offices: dict
    options: dict  # the ruleset's own section of game.toml (``[suber]``, ...)
    seed_hash: str
    seed: str | None  # only once the operator has revealed it
    events: list[EventRecord] = field(default_factory=list)
    posts: list[ListPost] = field(default_factory=list)
    record: Head | None = None  # the public record after the newest clock step (every page's footer)
    mail: list[PublicMail] = field(default_factory=list)  # the public mail, as distributed
    kinds: dict[str, list[EventRecord]] | None = None  # ``events`` by kind (None: not filed, see ``of_kind``)
    threads: Threads = field(default_factory=Threads)  # ``posts`` threaded, as far as a build brought it
    archive: MailIndex = field(default_factory=MailIndex)  # ``mail`` filed, as far as a build brought it

    def of_kind(self, *kinds: str) -> list[EventRecord]:
        """The events of these kinds, in order; of one kind, the list kept across builds (not to be
        changed)."""
        if self.kinds is None:
            self.kinds = by_kind(self.events)
        if len(kinds) == 1:
            return self.kinds.get(kinds[0], [])
        return sorted((e for k in set(kinds) for e in self.kinds.get(k, ())), key=attrgetter("id"))


def by_kind(events: list[EventRecord], into: dict[str, list[EventRecord]] | None = None) -> dict[str, list[EventRecord]]:
    """``events`` added to ``into`` (a new dict if None) by kind, each kind's in order."""
    out: dict[str, list[EventRecord]] = {} if into is None else into
    for e in events:
        out.setdefault(e.kind, []).append(e)
    return out


@dataclass
class Known:
    """What the builds of one site have read of its game: its visible events, in order, and by kind;
    its list posts, by seq and in order."""
    events: list[EventRecord] = field(default_factory=list)
    kinds: dict[str, list[EventRecord]] = field(default_factory=dict)
    posts: dict[int, ListPost] = field(default_factory=dict)
    post_list: list[ListPost] = field(default_factory=list)
    threads: Threads = field(default_factory=Threads)  # the list posts threaded (posts.py)
    archive: MailIndex = field(default_factory=MailIndex)  # the public mail filed (mail_index.py)
    record: Head = field(default_factory=Head)  # the public record as far as read
    clock: Head | None = None  # ... and after its newest clock step
    mail: list[PublicMail] = field(default_factory=list)


def read(source: SiteSource, memory: "SiteMemory") -> SiteData:
    cfg = source.settings
    known = memory.known(source.key)
    with Session(source.db) as s:
        known.events, new = _events(s, known.events)
    if len(new) == len(known.events):  # all read afresh
        known.kinds, known.post_list = {}, []
    by_kind(new, known.kinds)
    _posts(source, known, new)
    known.mail += source.public_mail(known.mail[-1].id if known.mail else 0)
    known.record, clock = source.record(known.record)
    known.clock = clock or known.clock
    return SiteData(
        state=source.state(), game=dict(cfg.game), offices=dict(cfg.offices), options=dict(cfg.options),
        seed_hash=seed_hash(cfg.seed), seed=cfg.seed if cfg.reveal_seed else None,
        events=known.events, posts=known.post_list, record=known.clock, mail=known.mail, kinds=known.kinds,
        threads=known.threads, archive=known.archive)


def _posts(source: SiteSource, known: Known, new: list[EventRecord]) -> None:
    """The list posts the ``new`` events accepted, read (those not read before) and added in order of seq."""
    seqs = sorted({e.seq for e in new if e.kind == "list_post" and e.data.get("accepted", True)})
    last = known.post_list[-1].seq if known.post_list else 0
    seqs = [seq for seq in seqs if seq > last]
    known.posts.update(source.list_posts([seq for seq in seqs if seq not in known.posts]))
    known.post_list += [known.posts[seq] for seq in seqs if seq in known.posts]


def _events(s: Session, known: list[EventRecord]) -> tuple[list[EventRecord], list[EventRecord]]:
    """The visible events: ``known`` (read before) if they are still there, and the newer ones;
    and those of them not in ``known`` (all, if ``known`` is not there any more).

    Events are only added to, or all taken out and made again by folding the journal again (``nomic
    rebuild``), which makes the same events of the same entries: so ``known`` is still there if its
    last event is, as it was read (one row by its key, not a count of every event)."""
    visible = col(EventRow.kind).not_in(HIDDEN_KINDS)
    last = known[-1].id if known else 0
    if known and not _still(s, known[-1]):
        known, last = [], 0
    rows = s.exec(
        select(col(EventRow.id), col(EventRow.seq), col(EventRow.kind), col(EventRow.data),  # type: ignore[call-overload]
               col(EventRow.cause_what), col(EventRow.cause_number), col(JournalEntry.at))
        .join(JournalEntry, col(JournalEntry.seq) == col(EventRow.seq))
        .where(visible, col(EventRow.id) > last)
        .order_by(col(EventRow.id))).all()
    new = [EventRecord(id=i or 0, seq=seq, at=parse_time(at), kind=kind, data=json.loads(data),
                       cause=None if what is None else Cause(what, number))
           for i, seq, kind, data, what, number, at in rows]
    known += new  # in place: a rebuild copies nothing of what it read before
    return known, new


def _still(s: Session, e: EventRecord) -> bool:
    """Whether event ``e`` is stored as it was read."""
    row = s.exec(select(col(EventRow.seq), col(EventRow.kind), col(EventRow.data), col(EventRow.cause_what),  # type: ignore[call-overload]
                        col(EventRow.cause_number)).where(col(EventRow.id) == e.id)).first()
    return row is not None and (row[0], row[1], json.loads(row[2]), row[3], row[4]) == (
        e.seq, e.kind, e.data, *((e.cause.what, e.cause.number) if e.cause else (None, None)))
