"""Imperial: THS announces each judgment and each Proclamation to the list."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage

from sqlmodel import Session

from engine.events import Event
from engine.imperial.state import ImperialState
from mailer import outbox
from mailer.compose import Prepared, machine_mail, message_id, thread
from mailer.concerned import copies
from mailer.imperial.announce import KIND_NAMES, named
from mailer.listconfig import ListSettings
from mailer.rulesets import Composition
from storage import Entry


def compose(c: Composition) -> None:
    """The composer of ``judged`` and ``proclamation`` events."""
    assert isinstance(c.state, ImperialState)
    announce(c.session, c.settings, c.state, c.entry, c.event, c.events, c.at, c.members.per_message)


def announce(session: Session, ls: ListSettings, state: ImperialState, entry: Entry,
             event: Event, events: list[Event], at: datetime, members: Sequence[str]) -> None:
    """Queue the list's announcement of the judgment or Proclamation ``event`` names."""
    if event.kind == "judged":
        number = int(event.data["number"])
        sub = state.submission(number)
        if sub is None:
            return
        what = KIND_NAMES[sub.kind]
        scores = [e.data for e in events if e.kind == "score" and e.data.get("submission") == number]
        subject = f"{ls.subject_tag} {named(sub, sub.status)}"
        msgid = message_id(ls, "judged", entry.seq or 0, entry.hash, sub=number)

        def make(to: str) -> EmailMessage:
            mail = machine_mail(ls, to=to, at=at, subject=subject, msgid=msgid, template="mail/judgment.txt",
                                sub=sub, what=what, event=event.data, scores=scores, state=state)
            if sub.message_id:
                thread(mail, sub.message_id, reply=False)
            return mail
        concerned = [sub.author]
    else:
        number = int(event.data["number"])
        proc = next((p for p in state.proclamations if p.number == number), None)
        if proc is None:
            return
        msgid = message_id(ls, f"proclamation{number}", entry.seq or 0, entry.hash)

        def make(to: str) -> EmailMessage:
            return machine_mail(ls, to=to, at=at, subject=f"{ls.subject_tag} Proclamation {number}: {proc.title}",
                                msgid=msgid, template="mail/proclamation.txt", proc=proc)
        concerned = []
    copy = Prepared(ls, make)
    outbox.queue(session, entry.seq or 0, "announcement", copy.listed(), members, ls.address, at, personal=True)
    copies(session, ls, entry.seq or 0, at, copy, concerned, members)
