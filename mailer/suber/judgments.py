"""Rule 212's Judgments, published to the list as they are invoked, given and overruled."""
from __future__ import annotations

from email.message import EmailMessage

from engine.suber.state import SuberState
from mailer.compose import announce, machine_mail, message_id
from mailer.rulesets import Composition

SUBJECTS = {"judgment_invoked": "Judgment {n} invoked: {q}", "judgment": "Judgment {n}: {q}",
            "overruled": "Judgment {n} overruled: {q}"}


def compose(c: Composition) -> None:
    assert isinstance(c.state, SuberState)
    n = int(c.event.data["number"])
    judgment = next((j for j in c.state.judgments if j.number == n), None)
    if judgment is None:
        return
    subject = f"{c.settings.subject_tag} {SUBJECTS[c.event.kind].format(n=n, q=judgment.question)}"
    msgid = message_id(c.settings, f"judgment{n}.{c.event.kind}", c.seq, c.entry.hash)

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.at, subject=subject, msgid=msgid, template="mail/judgment.txt",
                            j=judgment, kind=c.event.kind, event=c.event.data)
    announce(c.session, c.settings, c.seq, c.at, make, c.members.per_message)
