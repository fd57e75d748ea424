"""Counting Nomic's mail: each count announced to the list."""
from __future__ import annotations

from email.message import EmailMessage

from mailer.compose import announce, message_id
from mailer.rulesets import Composer, Composition


def counted(c: Composition) -> None:
    subject = f"{c.settings.subject_tag} the count is {c.event.data['count']}"
    msgid = message_id(c.settings, "counted", c.seq, c.entry.hash)

    def make(to: str) -> EmailMessage:
        mail = EmailMessage()
        mail["From"], mail["To"], mail["Subject"], mail["Message-ID"] = c.settings.address, to, subject, msgid
        mail.set_content(f"{c.event.data['by']} counted; the count is {c.event.data['count']}.\n")
        return mail
    announce(c.session, c.settings, c.seq, c.at, make, c.members.all)


class SkeletonMail:
    composers: dict[str, Composer] = {"counted": counted}
    day_event = "counted"  # it has no days: the list's digest follows each count
    about: tuple[str, ...] = ()


MAIL = SkeletonMail()
