"""The reader: everything the site shows, collected from the database in a few queries.

The state comes from the game's snapshot; events are read with their journal
time (one join, only the kinds the site shows, never the raw mail). List posts
are the one place raw mail is read: the ``list_post`` events name the journal
entries whose mail is archived. The public mail (public_mail.py) is read from the
outbox, as it was distributed; the public record's head from the journal (public_record.py).

Events and journal entries are only ever added to, so what a build has read of a
game is kept in the ``SiteMemory`` its caller passes again (the daemon rebuilds every
few seconds), and a rebuild reads only the events and posts that are new. If the events read
before are no longer all there (the game was rebuilt), they are all read again.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlmodel import Session, col, func, select

from engine.dice import seed_hash
from engine.events import Cause
from engine.state import GameState
from mailer.message import parse
from nomic.public_record import Head, advance
from nomic.website.public_mail import PublicMail, read_new
from storage.config import parse_time
from storage import EventRow, JournalEntry

if TYPE_CHECKING:
    from nomic.game import Game
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

    def of_kind(self, *kinds: str) -> list[EventRecord]:
        return [e for e in self.events if e.kind in kinds]


@dataclass
class Known:
    """What the builds of one site have read of its game: its visible events, in order, and its list posts."""
    events: list[EventRecord] = field(default_factory=list)
    posts: dict[int, ListPost] = field(default_factory=dict)
    record: Head = field(default_factory=Head)  # the public record as far as read
    clock: Head | None = None  # ... and after its newest clock step
    mail: list[PublicMail] = field(default_factory=list)


def read(game: "Game", memory: "SiteMemory") -> SiteData:
    cfg = game.config
    seed = cfg.settings.game.seed
    known = memory.known(game)
    with Session(game.db) as s:
        known.events = events = _events(s, known.events)
        seqs = sorted({e.seq for e in events if e.kind == "list_post" and e.data.get("accepted", True)})
        known.posts.update(_posts(s, [seq for seq in seqs if seq not in known.posts]))
        known.mail += read_new(s, known.mail[-1].id if known.mail else 0)
    known.record, clock = advance(game, known.record)
    known.clock = clock or known.clock
    return SiteData(
        state=game.state(), game=dict(cfg.game), offices=dict(cfg.section("offices")),
        options=dict(cfg.section(cfg.settings.game.ruleset)),
        seed_hash=seed_hash(seed), seed=seed if cfg.settings.game.reveal_seed else None,
        events=events, posts=[known.posts[seq] for seq in seqs if seq in known.posts], record=known.clock,
        mail=known.mail)


def _events(s: Session, known: list[EventRecord]) -> list[EventRecord]:
    """The visible events: ``known`` (read before) if they are still all there, and the newer ones."""
    visible = col(EventRow.kind).not_in(HIDDEN_KINDS)
    last = known[-1].id if known else 0
    if known and tuple(s.exec(select(func.count(), func.max(EventRow.id))
                              .where(visible, col(EventRow.id) <= last)).one()) != (len(known), last):
        known, last = [], 0
    rows = s.exec(
        select(col(EventRow.id), col(EventRow.seq), col(EventRow.kind), col(EventRow.data),  # type: ignore[call-overload]
               col(EventRow.cause_what), col(EventRow.cause_number), col(JournalEntry.at))
        .join(JournalEntry, col(JournalEntry.seq) == col(EventRow.seq))
        .where(visible, col(EventRow.id) > last)
        .order_by(col(EventRow.id))).all()
    return known + [EventRecord(id=i or 0, seq=seq, at=parse_time(at), kind=kind, data=json.loads(data),
                                cause=None if what is None else Cause(what, number))
                    for i, seq, kind, data, what, number, at in rows]


def _posts(s: Session, seqs: list[int]) -> dict[int, ListPost]:
    """The list posts in journal entries ``seqs``, by seq."""
    if not seqs:
        return {}
    rows = s.exec(select(JournalEntry.seq, JournalEntry.at, JournalEntry.raw)
                  .where(col(JournalEntry.seq).in_(seqs))).all()
    posts = {}
    for seq, at, raw in rows:
        mail = parse(raw or b"")
        posts[seq or 0] = ListPost(seq=seq or 0, at=parse_time(at), message_id=mail.message_id,
                                   sender=mail.sender, name=mail.name, subject=mail.subject,
                                   text=mail.text, references=mail.references)
    return posts
