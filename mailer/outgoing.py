"""Events -> outgoing mail, queued in the outbox in the same transaction as the events.

Each composer looks at one processed journal entry and its events and queues
the mail they call for. Replays never call this: mail goes out once.
Outgoing Message-IDs about submission N have the form
``<sub{N}.{kind}.{journal seq}.{hash}@{game domain}>`` so a reply's
References tell which submission it is about.

Events are handled in their order, so a day's digest (made at its
``day_end``) holds exactly the list traffic queued before it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from sqlmodel import Session

from engine.events import Event
from engine.inputs import ClockStep, Message
from engine.imperial.state import ImperialState
from mailer import announce, answers, bounces, chime, digest, listserv
from mailer.listconfig import ListSettings, settings
from storage.config import parse_time

if TYPE_CHECKING:
    from mailer.ports import GameHandle
    from storage import Entry


class Members:
    """Who gets what, from the state's subscribers less those whose delivery bounced away."""

    def __init__(self, session: Session, state: ImperialState):
        off = bounces.disabled(session)
        self.all = [s.email for s in state.subscribers if s.email not in off]
        self.per_message = [s.email for s in state.subscribers if not s.digest and s.email not in off]
        self.digest = [s.email for s in state.subscribers if s.digest and not s.plain and s.email not in off]
        self.plain_digest = [s.email for s in state.subscribers if s.digest and s.plain and s.email not in off]


def enqueue(session: Session, game: "GameHandle", entry: "Entry", inp: Message | ClockStep,
            events: list[Event]) -> None:
    ls = settings(game)
    if isinstance(inp, Message):
        answers.answer(session, game, ls, entry, inp, events)
        bounces.record(session, ls, entry, inp)
    if not any(e.kind in COMPOSERS for e in events):
        return
    state = game.state()
    members = Members(session, state)
    for event in events:
        composer = COMPOSERS.get(event.kind)
        if composer is not None:
            composer(session, game, ls, state, entry, inp, event, events, members)


def _list_post(session, game, ls: ListSettings, state, entry, inp, event, events, members) -> None:
    if event.data.get("accepted"):
        listserv.distribute(session, ls, entry, inp.at, members.per_message)
    elif isinstance(inp, Message) and inp.authenticated and not inp.automatic:
        listserv.refuse(session, ls, entry, event, inp.at)


def _announcement(session, game, ls, state, entry, inp, event, events, members) -> None:
    listserv.announce(session, ls, state, entry, event, events, inp.at, members.per_message)


def _subscription(session, game, ls, state, entry, inp, event, events, members) -> None:
    if event.data.get("action") in ("subscribe", "renew"):
        bounces.enable(session, event.data["address"])


def _day_end(session, game, ls, state, entry, inp, event, events, members) -> None:
    at = parse_time(event.data["at"]) if event.data.get("at") else inp.at  # catch-up: each day at its own end
    if event.data.get("chime", True):  # rule 19 repealed: no chime
        chime.ring(session, ls, state, event, entry, at, members.all, game.engine_config.holder("emperor"))
    digest.compose(session, ls, entry, at, game.engine_config.start, int(event.data.get("day", 0)),
                   members.digest, members.plain_digest)


COMPOSERS = {
    "list_post": _list_post,
    "submitted": announce.compose,
    "judged": _announcement,
    "proclamation": _announcement,
    "subscription": _subscription,
    "day_end": _day_end,
}
