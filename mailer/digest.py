"""The daily digest for members who chose it, numbered by volume and issue like Mailman's.

At each day end, the list traffic since the last digest (list posts as they
were sent, and THS's announcements) goes out to digest members twice over:
as MIME (multipart/mixed: masthead, table of contents, a multipart/digest of
message/rfc822 parts, footer) and as plain text (RFC 1153). Each member gets
the one they chose (``Digest on``: MIME). A day without list traffic sends no
digest, as Mailman does. Volumes follow the calendar month of the day end
(Mailman's default monthly volume); issues count from 1 within a volume.

The digest is composed, numbered and queued in the transaction that
processes the day end, so it exists exactly once whatever crashes; its
delivery is the sender's (mailer/sender.py).
"""
from __future__ import annotations

import email
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from datetime import datetime
from email.message import EmailMessage
from email.mime.message import MIMEMessage
from email.mime.multipart import MIMEMultipart
from email.policy import EmailPolicy
from email.utils import format_datetime

from sqlalchemy import and_, func
from sqlmodel import Session, col, select

from mailer import headers, outbox
from mailer.compose import body, list_headers, message_id
from mailer.listconfig import ListSettings
from mailer.message import Received, body_text
from storage import Entry, JournalEntry
from storage.tables import DigestIssue, OutboxMessage

# Mailman's mime_digest_keep_headers, roughly: what a reader of a digest wants to see.
KEEP = ("Date", "From", "To", "Cc", "Subject", "Message-ID", "In-Reply-To", "References",
        "MIME-Version", "Content-Type", "Content-Transfer-Encoding")
_KEPT = frozenset(name.lower() for name in KEEP)
DIGEST_KINDS = ("list", "announcement")


@dataclass
class Item:
    n: int
    mail: EmailMessage  # the message as a digest shows it

    @cached_property  # (the MIME digest's table of contents and the plain one's read it)
    def subject(self) -> str:
        return headers.read(self.mail, "Subject") or "(no subject)"

    @cached_property
    def sender(self) -> str:
        """The author's name as the table of contents shows it (their address if they gave none)."""
        name, address = headers.author(self.mail)
        return name or headers.text(address)

    @property
    def text(self) -> str:
        return body_text(self.mail).strip()

    def header_lines(self) -> list[str]:
        """The RFC 1153 header lines: one line each, so no text can pass for a message of its own."""
        return [f"{h}: {v}" for h in ("Date", "From", "To", "Cc", "Subject", "Message-ID")
                if (v := headers.read(self.mail, h))]


def _trimmed(raw: bytes, verbatim: EmailPolicy[EmailMessage]) -> EmailMessage:
    """The message with the headers a digest shows, as they came (``verbatim``: ``headers.verbatim()``)."""
    mail = parsed(raw, verbatim)
    for name in set(mail.keys()):
        if name.lower() not in _KEPT:
            del mail[name]
    return mail


def parsed(raw: bytes, verbatim: EmailPolicy[EmailMessage]) -> EmailMessage:
    """``email.message_from_bytes(raw, policy=verbatim)``, the same tree (tests/mailer/test_digest_parse.py).
    A post of one part (most are) is read as the fold reads it (``Received``: its compat32 reading,
    without the feed parser where its header section is plain) and given the policy: the feed
    parser's policy changes only how it reads the Content-Type (as a string, or as its header
    object's text), so where both read the same type, neither multipart nor message, the two make
    the same tree. Their parse was most of a digest's."""
    received = Received(raw)
    mail = received.message
    kind = mail.get_content_type()
    if received.cut or mail.is_multipart() or kind.partition("/")[0] in ("multipart", "message"):
        return email.message_from_bytes(raw, policy=verbatim)  # type: ignore[return-value]
    mail.policy = verbatim
    if mail.get_content_type() != kind:  # (its header object's text is not the stored value's: unfolded, ...)
        return email.message_from_bytes(raw, policy=verbatim)  # type: ignore[return-value]
    return mail


def _items(session: Session, after_id: int, verbatim: EmailPolicy[EmailMessage]) -> tuple[list[Item], int]:
    """The list traffic queued after outbox row ``after_id``: list posts as their authors wrote them
    (each read with its journal entry, in one statement)."""
    posted = and_(col(JournalEntry.seq) == col(OutboxMessage.seq), col(OutboxMessage.kind) == "list")
    rows = session.exec(select(col(OutboxMessage.id), col(OutboxMessage.raw), col(JournalEntry.raw))
                        .outerjoin(JournalEntry, posted)
                        .where(col(OutboxMessage.id) > after_id, col(OutboxMessage.kind).in_(DIGEST_KINDS))
                        .order_by(col(OutboxMessage.id))).all()
    items = [Item(n, _trimmed(written or raw, verbatim)) for n, (_, raw, written) in enumerate(rows, 1)]
    return items, max((id_ or 0 for id_, _, _ in rows), default=after_id)


def _number(session: Session, ls: ListSettings, at: datetime, start: datetime) -> tuple[int, int]:
    volume = (at.year - start.year) * 12 + at.month - start.month + 1
    issued = session.exec(select(func.count()).select_from(DigestIssue)
                          .where(DigestIssue.volume == volume)).one()
    return volume, int(issued) + 1


def compose(session: Session, ls: ListSettings, entry: Entry, at: datetime, start: datetime,
            day: int, mime_members: Sequence[str], plain_members: Sequence[str]) -> DigestIssue | None:
    """Queue the digest of the day that ended; None if there was no list traffic."""
    outbox.write_held(session)  # the entry's list traffic queued before it is in this digest
    last = session.exec(select(func.max(DigestIssue.last_outbox_id))).one() or 0
    verbatim = headers.verbatim()  # this digest's: its every message and part read through it
    items, upto = _items(session, int(last), verbatim)
    if not items:
        return None
    volume, issue = _number(session, ls, at, start)
    title = f"{ls.name} Digest, Vol {volume}, Issue {issue}"
    ctx = dict(title=title, items=items, day=day)
    seq, hash_ = entry.seq or 0, entry.hash
    if mime_members:
        mail = _mime(ls, title, ctx, verbatim)
        _headers(mail, ls, title, at, message_id(ls, f"digest.v{volume}.i{issue}", seq, hash_))
        outbox.queue(session, seq, "digest", mail, mime_members, ls.list_address, at, personal=True)
    if plain_members:
        mail = EmailMessage()
        _headers(mail, ls, title, at, message_id(ls, f"digest.v{volume}.i{issue}.plain", seq, hash_))
        mail.set_content(body("mail/digest_plain.txt", ls, **ctx))
        outbox.queue(session, seq, "digest", mail, plain_members, ls.list_address, at, personal=True)
    row = DigestIssue(volume=volume, issue=issue, day=day, seq=seq, last_outbox_id=upto)
    session.add(row)
    return row


def _text(text: str, description: str = "") -> EmailMessage:
    part = EmailMessage()
    part.set_content(text)  # 7bit or quoted-printable, readable in any mail client's source view
    del part["MIME-Version"]
    if description:
        part["Content-Description"] = description
    return part


def _mime(ls: ListSettings, title: str, ctx: dict, verbatim: EmailPolicy[EmailMessage]) -> EmailMessage:
    top = MIMEMultipart("mixed", policy=verbatim)
    top.attach(_text(body("mail/digest_masthead.txt", ls, **ctx)))
    top.attach(_text(body("mail/digest_toc.txt", ls, **ctx), f"Today's Topics ({len(ctx['items'])} messages)"))
    inner = MIMEMultipart("digest", policy=verbatim)
    for item in ctx["items"]:
        part = MIMEMessage(item.mail, policy=verbatim)
        del part["MIME-Version"]
        inner.attach(part)
    del inner["MIME-Version"]
    top.attach(inner)
    top.attach(_text(body("mail/digest_footer.txt", ls, **ctx)))
    mail: EmailMessage = email.message_from_bytes(top.as_bytes(), policy=verbatim)  # type: ignore[assignment]
    return mail


def _headers(mail: EmailMessage, ls: ListSettings, title: str, at: datetime, msgid: str) -> None:
    mail["From"] = headers.mailbox(f"{ls.name} players", ls.list_address)
    mail["To"] = ls.list_address
    mail["Subject"] = headers.text(title)
    mail["Date"] = format_datetime(at)
    mail["Message-ID"] = msgid
    mail["Reply-To"] = ls.list_address
    mail["Auto-Submitted"] = "auto-generated"
    list_headers(mail, ls)
