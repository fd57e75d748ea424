"""The mail of each 00:00 UTC (``[bnomic] daily_mail``): the Clock, and what ended and began."""
from __future__ import annotations

from email.message import EmailMessage

from mailer.compose import announce, machine_mail, message_id
from mailer.personal import waiting
from mailer.rulesets import Composition


def compose(c: Composition) -> None:
    d = c.event.data
    clock = d["clock"]
    subject = (f"{c.settings.subject_tag} {str(d['at'])[:10]}: nweek {clock['nweek']}, {clock['nday_name']}"
               f"{'' if clock['on'] else ', the Clock is Off'}")
    msgid = message_id(c.settings, f"midnight{d['midnight']}", c.seq, c.entry.hash)
    owed = waiting(c)

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.event_at, subject=subject, msgid=msgid,
                            template="mail/daily.txt", seq=c.seq, head=c.entry.hash, d=d, owed=owed)
    announce(c.session, c.settings, c.seq, c.event_at, make, c.members.all, kind="daily")
