"""BlogNomic's daily mail at 00:00 UTC (engine/blognomic/daily.py says what it holds), to every list
member and to each Admin."""
from __future__ import annotations

from email.message import EmailMessage

from engine.blognomic.state import KIND_NAMES
from mailer.compose import announce, machine_mail, message_id
from mailer.personal import waiting
from mailer.rulesets import Composition


def compose(c: Composition) -> None:
    facts = c.event.data
    date = str(facts["at"])[:10]
    subject = (f"{c.settings.subject_tag} {date}: {len(facts['pending'])} pending, "
               f"{len(facts['resolved'])} resolved in the last day")
    msgid = message_id(c.settings, f"daily{facts['day']}", c.seq, c.entry.hash)
    owed = waiting(c)

    def make(to: str) -> EmailMessage:
        return machine_mail(c.settings, to=to, at=c.event_at, subject=subject, msgid=msgid,
                            template="mail/daily.txt", seq=c.seq, head=c.entry.hash,
                            d=facts, date=date, kinds=KIND_NAMES, owed=owed)
    announce(c.session, c.settings, c.seq, c.event_at, make, c.members.all, c.config.offices.get("admins", ()),
             kind="daily")
