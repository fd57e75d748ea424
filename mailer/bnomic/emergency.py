"""Rule 0's Procedure by mail: each step of an Emergency (it began, its Coordinator, the Forum, the
Pause, Refresh Proposals, the Ballots and counts, the selection, its end) goes to the list and to
every PEP, whether or not he reads the list ("makes a reasonable effort to notify other PEPs");
and a change of the Threat Flag (3-17) to the list."""
from __future__ import annotations

from email.message import EmailMessage

from engine.bnomic.state import BNomicState
from mailer.compose import announce, machine_mail, message_id
from mailer.rulesets import Composition

_SUBJECTS = {"began": "a State of Emergency", "coordinator": "the Emergency Coordinator",
             "forum": "the Emergency Forum", "pause": "the Pause", "increment": "an increment of the Pause",
             "objected": "the increment objected to", "refresh_proposal": "a Refresh Proposal",
             "ballot": "a Ballot", "vote": "a vote", "count": "the count", "selected": "a Refresh Proposal selected",
             "applied": "a Refresh Proposal applied", "ended": "the Emergency ended"}


def step(c: Composition) -> None:
    state = c.state
    assert isinstance(state, BNomicState)
    d = c.event.data
    subject = f"{c.settings.subject_tag} Emergency {d['number']}: {_SUBJECTS.get(d['what'], d['what'])}"
    msgid = message_id(c.settings, f"emergency{d['number']}{d['what']}", c.seq, c.entry.hash)

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.event_at, subject=subject, msgid=msgid,
                            template="mail/emergency.txt", text=d["text"], pause=state.emergency.pause)
    announce(c.session, c.settings, c.seq, c.event_at, make, c.members.per_message, concerned=state.peps)


def flag(c: Composition) -> None:
    d = c.event.data
    subject = f"{c.settings.subject_tag} The Threat Flag: {d['flag']}"
    msgid = message_id(c.settings, "flag", c.seq, c.entry.hash)

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.event_at, subject=subject, msgid=msgid,
                            template="mail/threat_flag.txt", flag=d["flag"], by=d["by"])
    announce(c.session, c.settings, c.seq, c.event_at, make, c.members.per_message)
