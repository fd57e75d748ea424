"""A Consultation's announcements to the list (2-5): when it is submitted, so that the Oracle selects
its Priest (he and the Priest hear it even off the list), and when its Priest answers, so that the
Players may claim the Answer Consistent or Inconsistent within its three ndays or ndelays."""
from __future__ import annotations

from email.message import EmailMessage

from engine.bnomic.state import BNomicState
from mailer.bnomic.proposals import author
from mailer.compose import announce, machine_mail, message_id
from mailer.rulesets import Composition


def consultation(c: Composition) -> None:
    state = c.state
    assert isinstance(state, BNomicState)
    d = c.event.data
    answered = str(d["why"]).startswith("answered")
    q = next((x for x in state.consultations if x.number == d["number"]), None)
    if q is None or not (answered or d["why"] == "submitted"):
        return
    what = f"answered {q.answer}" if answered else q.question
    subject = f"{c.settings.subject_tag} Consultation {q.number}: {what}"
    msgid = message_id(c.settings, f"q{q.number}", c.seq, c.entry.hash)
    oracle = state.ministry("questions")
    concerned = [] if answered else [x for x in (oracle.holder if oracle else None, q.priest) if x]

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.at, subject=subject, msgid=msgid,
                            template="mail/consultation.txt", q=q, answered=answered,
                            supplicant=author(state, q.supplicant), priest=author(state, q.priest or ""),
                            unbeliever=author(state, q.unbeliever) if q.unbeliever else "")
    announce(c.session, c.settings, c.seq, c.at, make, c.members.per_message, concerned=concerned)
