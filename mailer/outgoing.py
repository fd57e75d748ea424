"""Events -> outgoing mail, queued in the outbox in the same transaction as the events.

The generic part is here: the answer to every authenticated message, bounces, list posts,
subscriptions, and the digest that follows the event ending a day. What else a game mails
(announcements, tallies, the chime, the daily mail) is its ruleset's (mailer/rulesets.py): each
composer takes one ``Composition`` (one processed journal entry, one of its events, the state
after it) and queues the mail it calls for. Replays never call this: mail goes out once.
Outgoing Message-IDs about matter N have the form ``<sub{N}.{kind}.{journal seq}.{hash}@{game
domain}>`` (mailer/compose.message_id) so a reply's References tell which matter it is about.

Events are handled in their order, so a day's digest holds exactly the list traffic queued
before it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from sqlmodel import Session

from engine.events import Event
from engine.inputs import ClockStep, Message
from mailer import answers, bounces, digest, listserv, personal
from mailer.ledger import Ledger
from mailer.mailing import Mailing
from mailer.message import Received
from mailer.rulesets import Composer, Composition, Members, RulesetMail, mail_for

if TYPE_CHECKING:
    from storage import Entry


def enqueue(session: Session, out: Mailing, entry: "Entry", received: Received, inp: Message | ClockStep,
            events: list[Event]) -> None:
    """Queue what ``entry`` mails. ``received`` is its bytes as the fold parsed them: the bounce
    check and the list copy read that parse, not the bytes again."""
    ls, ledger = out.settings, out.ledger or Ledger(session)
    mail, table = _composing(ledger, out.config.ruleset)
    if isinstance(inp, Message):
        answers.answer(session, out, entry, inp, events, mail.about)
        scored, stopped = bounces.record(session, ls, entry, received, inp)
        if scored:
            ledger.scored.add(scored)
        if stopped:
            ledger.disabled.add(stopped)
    if not any(e.kind in table for e in events):
        return
    members = ledger.members
    if members is None or not members.stands(ledger.disabled, out.state, events):
        members = ledger.members = Members(ledger.disabled, out.state)
    for event in events:
        for composer in table.get(event.kind, ()):
            composer(Composition(session, ls, out.state, entry, received, inp, event, events, members, out.config,
                                 ledger))


def _composing(ledger: Ledger, ruleset: str) -> tuple[RulesetMail, dict[str, tuple[Composer, ...]]]:
    """Ruleset ``ruleset``'s mail part and its ``composers``, found once a batch (its ``Ledger``'s: a
    batch is one game's, of one ruleset)."""
    if ledger.composing is None:
        mail = mail_for(ruleset)
        ledger.composing = (mail, composers(mail))
    return ledger.composing


def composers(mail: RulesetMail) -> dict[str, tuple[Composer, ...]]:
    """Event kind -> its composers, in order: the generic ones, the ruleset's, then each player's
    personal mail and the digest after the event that ends a day."""
    table: dict[str, tuple[Composer, ...]] = {kind: (c,) for kind, c in GENERIC.items()}
    for kind, composer in mail.composers.items():
        table[kind] = (*table.get(kind, ()), composer)
    table[mail.day_event] = (*table.get(mail.day_event, ()), personal.daily, _digest)
    return table


def _list_post(c: Composition) -> None:
    if c.event.data.get("accepted"):
        listserv.distribute(c.session, c.settings, c.entry, c.received, c.at, c.members.per_message,
                            c.ledger.footer(c.settings))
    elif isinstance(c.inp, Message) and c.inp.authenticated and not c.inp.automatic:
        listserv.refuse(c.session, c.settings, c.entry, c.event, c.at)


def _subscription(c: Composition) -> None:
    address = c.event.data.get("address", "")
    if c.event.data.get("action") in ("subscribe", "renew") and address in c.ledger.scored:
        bounces.enable(c.session, address)
        c.ledger.scored.discard(address)
        c.ledger.disabled.discard(address)


def _digest(c: Composition) -> None:
    """The digest of the day's list traffic, at the day's own end (a catch-up: each day at its own)."""
    digest.compose(c.session, c.settings, c.entry, c.event_at, c.config.start, int(c.event.data.get("day", 0)),
                   c.members.digest, c.members.plain_digest)


GENERIC: dict[str, Composer] = {"list_post": _list_post, "subscription": _subscription, "reminder": personal.remind}
