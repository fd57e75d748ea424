"""The players' list (rule 3): posts to ``list_address`` go to every per-message member.

A copy is the post as written with what a well-run list adds (Mailman 3's
habits): the subject tag, the author shown as "Name via <game>" with the
list's own address in From (so DMARC of the author's domain cannot reject
it) and the author in Reply-To, the RFC 2369/2919 headers, a footer, and, per
recipient when sending, the RFC 8058 one-click List-Unsubscribe. The
Message-ID, Date and threading headers are kept, so replies thread.

Loop protection: the engine never posts automatic mail (our own copies carry
List-Id and Precedence: list), and a post that carries our X-Loop or List-Id
is dropped here as well.

What the game itself announces to the list is each ruleset's (mailer/imperial/, ...).
"""
from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from datetime import datetime, timezone
from email.message import EmailMessage, Message
from email.utils import format_datetime

from sqlmodel import Session

from engine.events import Event
from mailer import headers, outbox, plain_text
from mailer.compose import body, list_headers, machine_mail, message_id, thread
from mailer.listconfig import ListSettings
from mailer.message import Received
from storage import Entry

log = logging.getLogger("nomic.list")

# Headers of the post that a copy does not carry on (ours replace them, or they are the
# sender's transport and authentication, which the copy's own signature replaces).
DROP = ("List-Id", "List-Post", "List-Help", "List-Subscribe", "List-Unsubscribe",
        "List-Unsubscribe-Post", "List-Archive", "List-Owner", "X-Loop", "Precedence",
        "DKIM-Signature", "ARC-Seal", "ARC-Message-Signature", "ARC-Authentication-Results",
        "Authentication-Results", "Received", "Return-Path", "Delivered-To", "Sender",
        "Errors-To", "Reply-To", "Bcc")


_TOKEN = r"[!#$%&'*+.^_`{|}~0-9A-Za-z-]+"  # RFC 2045's token
_NAME = r"[!#$%&'+.^_`{|}~0-9A-Za-z-]+"  # ... without "*" (an RFC 2231 parameter is read otherwise)
_SIMPLE = {  # a Content-Type of token/token and "; name=value" parameters (token or quoted), one encoding
    "Content-Type": re.compile(f'{_TOKEN}/{_TOKEN}(?:; ?{_NAME}=(?:{_TOKEN}|"[ !#-\\[\\]-~]+"))*'),
    "Content-Transfer-Encoding": re.compile(r"[0-9A-Za-z-]+")}
_PRINTABLE = re.compile("[!-~]")


def looped(mail: EmailMessage, ls: ListSettings) -> bool:
    loops = [str(v).strip().lower() for v in mail.get_all("X-Loop") or []]
    return ls.list_address in loops or ls.list_id in str(mail.get("List-Id", "")).lower()


def tagged(subject: str, tag: str) -> str:
    return subject if tag.lower() in subject.lower() else f"{tag} {subject}".strip()


FOOTER = "mail/list_footer.txt"  # it reads the list's settings alone: the processor renders it once a batch


def copy_of(entry: Entry, received: Received, at: datetime, ls: ListSettings,
            footer: str | None = None) -> EmailMessage | None:
    """The copy every member gets, or None for a post that came from this list (a loop).

    Made from a copy of the fold's own parse of the post (``received``): its bytes are not parsed
    again, and the parse, which the fold's other readers share, is left as it was. The author's own
    headers are carried on as they came (the parser keeps their source text; ``headers.VERBATIM``
    writes it out unchanged); the ones the copy writes anew are made from their text through
    mailer/headers.py. The copy's policy is ``VERBATIM`` with the game's header classes
    (``ListSettings.policy``): the same bytes, without a new class made for every header read.
    """
    mail = plain_text.copied(received.message)
    mail.policy = ls.policy.clone(refold_source=headers.VERBATIM.refold_source)
    if looped(mail, ls):
        return None
    if not headers.read(mail, "Message-ID"):  # every copy has a Message-ID and a Date, the same for all members
        del mail["Message-ID"]  # (a blank one: the package takes one alone)
        mail["Message-ID"] = message_id(ls, "list", entry.seq or 0, entry.hash)
    if not _dated(mail):
        del mail["Date"]
        mail["Date"] = format_datetime(at.astimezone(timezone.utc))
    name, author = headers.author(mail)
    subject = headers.read(mail, "Subject") or "(no subject)"
    present = {key.lower() for key in mail.keys()}
    for header in ("From", "Subject", *DROP):
        if header.lower() in present:  # (each ``del`` reads every header)
            del mail[header]
    headers.put_mailbox(mail, "From", headers.mailbox(f"{name or headers.name(author.split('@')[0])} via {ls.name}",
                                                      ls.list_address))
    headers.put_address(mail, "Reply-To", author)
    headers.put(mail, "Subject", headers.text(tagged(subject, ls.subject_tag)))
    list_headers(mail, ls)
    _add_footer(mail, body(FOOTER, ls) if footer is None else footer)
    return mail


def _dated(mail: EmailMessage) -> bool:
    """``headers.read(mail, "Date") != ""``, without parsing the date where its line shows it:
    ASCII with a printable character and no encoded word reads as some text whether it parses as a
    date (its new form) or not (itself, made safe)."""
    stored = headers.stored(mail, "Date")
    if isinstance(stored, str) and stored.isascii() and "=?" not in stored and _PRINTABLE.search(stored):
        return True
    return bool(headers.read(mail, "Date"))


def _add_footer(mail: EmailMessage, footer: str) -> None:
    """The footer at the end of a plain text post's text (its Content-* headers made anew, as
    ``set_content`` makes them: ``plain_text.set_text``), else in a part of its own."""
    probe = _probe(mail)
    kind = probe.get_content_type()
    if kind == "text/plain" and not mail.is_multipart():
        try:
            text = mail.policy.content_manager.get_content(probe)  # type: ignore[attr-defined]  # (mail.get_content())
        except (LookupError, UnicodeError):
            text = None
        if text is not None:
            mail.clear_content()
            plain_text.set_text(mail, text.rstrip("\n") + "\n\n" + footer)
            return
    if kind != "multipart/mixed":  # (a mixed post, one with attachments, already is)
        mail.make_mixed()
    part = EmailMessage()
    part.set_content(footer)
    part["Content-Disposition"] = "inline"
    mail.attach(part)


def _probe(mail: EmailMessage) -> Message:
    """What the content manager reads of ``mail`` (its Content-Type and Content-Transfer-Encoding as
    ``mail``'s policy reads them, and its body) in a compat32 ``Message``, which reads those
    values as the same strings: each header is parsed once, not at each of the five reads that
    finding the type and reading the text make. ``mail`` itself where a value is not ASCII
    (compat32 would read it otherwise)."""
    values = {name: _mime_value(mail, name) for name in ("Content-Type", "Content-Transfer-Encoding")}
    if any(v is not None and not str(v).isascii() for v in values.values()):
        return mail
    probe = Message()
    for name, value in values.items():
        if value is not None:
            probe[name] = str(value)
    if not mail.is_multipart():
        payload = plain_text.stored_payload(mail)  # ASCII text: what get_payload() returns, unparsed its CTE
        probe.set_payload(payload if isinstance(payload, str) and payload.isascii() else mail.get_payload())
    return probe


def _mime_value(mail: EmailMessage, name: str) -> object:
    """``mail.get(name)``, or where the stored value is of ``_SIMPLE``'s plain shape, that value
    itself: a compat32 ``Message`` reads the same type, charset and encoding from it as from the
    policy's parse of it (which writes a parameter quoted: tests/outbox/test_list_copy_bytes.py),
    and the parse is most of making a copy."""
    stored = headers.stored(mail, name)
    if isinstance(stored, str) and _SIMPLE[name].fullmatch(stored):
        return stored
    return mail.get(name)


def distribute(session: Session, ls: ListSettings, entry: Entry, received: Received, at: datetime,
               members: Sequence[str], footer: str | None = None) -> None:
    """Queue the copies of an accepted post (the row is kept even with no per-message members:
    it is what the day's digest is made of). ``footer``: ``FOOTER`` rendered (None: render it now)."""
    mail = copy_of(entry, received, at, ls, footer)
    if mail is None:
        log.warning("journal entry %s carries this list's own X-Loop/List-Id; not posted again", entry.seq)
        return
    outbox.queue(session, entry.seq or 0, "list", mail, members, ls.list_address, at, personal=True)


def refuse(session: Session, ls: ListSettings, entry: Entry, event: Event, at: datetime) -> None:
    """Tell an authenticated non-member why the post went nowhere."""
    sender = event.data["sender"]
    mail = machine_mail(ls, to=sender, at=at, subject=f"Not posted: {event.data.get('subject') or '(no subject)'}",
                        msgid=message_id(ls, "refused", entry.seq or 0, entry.hash),
                        template="mail/post_refused.txt", reason=event.data.get("reason"), sender=sender)
    thread(mail, event.data["message_id"])
    outbox.queue(session, entry.seq or 0, "notice", mail, [sender], ls.address, at)
