"""The reader: everything the site shows, collected from the database in a few queries.

The state comes from the game's snapshot; events are read with their journal
time (one join, only the kinds the site shows, never the raw mail). List posts
are the one place raw mail is read: the ``list_post`` events name the journal
entries whose mail is archived.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from sqlmodel import Session, col, select

from engine.dice import seed_hash
from engine.state import GameState
from mailer.message import parse
from nomic.config import parse_time
from nomic.storage import EventRow, JournalEntry

if TYPE_CHECKING:
    from nomic.game import Game

# Events the site never shows: answer lines and delivery bookkeeping.
HIDDEN_KINDS = ("outcome", "unauthenticated", "subscription", "fault")


@dataclass(frozen=True)
class EventRecord:
    id: int
    seq: int
    at: datetime
    kind: str
    data: dict


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
    state: GameState
    game: dict
    offices: dict
    seed_hash: str
    seed: str | None  # only once the operator has revealed it
    events: list[EventRecord] = field(default_factory=list)
    posts: list[ListPost] = field(default_factory=list)

    def of_kind(self, *kinds: str) -> list[EventRecord]:
        return [e for e in self.events if e.kind in kinds]


def read(game: "Game") -> SiteData:
    cfg = game.config
    seed = str(cfg.game["seed"])
    with Session(game.db) as s:
        events = _events(s)
        posts = _posts(s, [e.seq for e in events if e.kind == "list_post" and e.data.get("accepted", True)])
    return SiteData(
        state=game.state(), game=dict(cfg.game), offices=dict(cfg.section("offices")),
        seed_hash=seed_hash(seed), seed=seed if cfg.game.get("reveal_seed") else None,
        events=events, posts=posts)


def _events(s: Session) -> list[EventRecord]:
    rows = s.exec(
        select(EventRow.id, EventRow.seq, EventRow.kind, EventRow.data, JournalEntry.at)
        .join(JournalEntry, col(JournalEntry.seq) == col(EventRow.seq))
        .where(col(EventRow.kind).not_in(HIDDEN_KINDS))
        .order_by(col(EventRow.id))).all()
    return [EventRecord(id=i or 0, seq=seq, at=parse_time(at), kind=kind, data=json.loads(data))
            for i, seq, kind, data, at in rows]


def _posts(s: Session, seqs: list[int]) -> list[ListPost]:
    if not seqs:
        return []
    rows = s.exec(select(JournalEntry.seq, JournalEntry.at, JournalEntry.raw)
                  .where(col(JournalEntry.seq).in_(sorted(set(seqs))))
                  .order_by(col(JournalEntry.seq))).all()
    posts = []
    for seq, at, raw in rows:
        mail = parse(raw or b"")
        posts.append(ListPost(seq=seq or 0, at=parse_time(at), message_id=mail.message_id,
                              sender=mail.sender, name=mail.name, subject=mail.subject,
                              text=mail.text, references=mail.references))
    return posts
