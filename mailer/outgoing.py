"""Events -> outgoing mail, queued in the outbox in the same transaction as the events.

Each composer looks at one processed journal entry and its events and queues
the mail they call for. Replays never call this: mail goes out once.
Outgoing Message-IDs about submission N have the form
``<sub{N}.{kind}.{journal seq}.{hash}@{game domain}>`` so a reply's
References tell which submission it is about.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from sqlmodel import Session

from engine.events import Event
from engine.inputs import ClockStep, Message
from mailer import answers

if TYPE_CHECKING:
    from nomic.game import Game
    from nomic.storage import JournalEntry


def enqueue(session: Session, game: "Game", entry: "JournalEntry", inp: Message | ClockStep,
            events: list[Event]) -> None:
    if isinstance(inp, Message):
        answers.answer(session, game, entry, inp, events)
