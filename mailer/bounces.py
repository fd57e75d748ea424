"""Bounces: a VERP return path on every mail, and delivery stopped after repeated bounces.

Every delivery goes out with the envelope sender
``<bounce_prefix>+<local>=<domain>.<mac>@<game domain>`` (Mailman's VERP,
plus a MAC so that nobody can forge bounces to unsubscribe someone). A
delivery failure report (RFC 3464, ``Action: failed``) that comes back to
such an address scores one bounce for the recipient, at most one per UTC
day; at ``[list] bounce_limit`` days list mail to the address stops and the
operator gets a note. Subscribing again starts delivery afresh.

The bounce score is delivery bookkeeping, like the outbox, not game state:
it lives in its own table, written in the same transaction as the journal
entry's processing, so a bounce is counted exactly once.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from email.message import Message as MimeMessage
from typing import TYPE_CHECKING

from sqlmodel import Session

from engine.inputs import Message
from mailer import outbox
from mailer.compose import machine_mail, message_id
from mailer.listconfig import ListSettings
from mailer.message import Received, addresses
from mailer.tokens import mac
from storage.tables import BounceScore

if TYPE_CHECKING:
    from storage import Entry

log = logging.getLogger("nomic.bounces")


def verp(ls: ListSettings, rcpt: str) -> str:
    local, _, domain = rcpt.lower().rpartition("@")
    return f"{ls.bounce_prefix}+{local}={domain}.{mac(ls.token_key, 'bounce', rcpt.lower(), 10)}@{ls.domain}"


def read_verp(ls: ListSettings, address: str) -> str | None:
    """The recipient a VERP return path was made for, or None."""
    local, _, domain = address.lower().rpartition("@")
    prefix = ls.bounce_prefix.lower() + "+"
    if domain != ls.domain or not local.startswith(prefix):
        return None
    token, _, given = local[len(prefix):].rpartition(".")
    rlocal, _, rdomain = token.rpartition("=")
    rcpt = f"{rlocal}@{rdomain}"
    if not rlocal or not rdomain or given != mac(ls.token_key, "bounce", rcpt, 10):
        return None
    return rcpt


def is_failure_report(msg: MimeMessage) -> bool:
    """RFC 3464: a multipart/report of delivery-status with a recipient whose Action is failed
    (``msg`` parsed with compat32, as mailer.message.Received parses every message)."""
    for part in msg.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        blocks = part.get_payload()
        if isinstance(blocks, list) and any(
                isinstance(b, MimeMessage) and str(b.get("Action", "")).strip().lower() == "failed"
                for b in blocks):
            return True
    return False


def record(session: Session, ls: ListSettings, entry: "Entry", received: Received,
           msg: Message) -> tuple[str | None, str | None]:
    """Count a failure report sent to a VERP address; stop delivery at the limit. The report is
    read from ``received``, the fold's own parse of the entry. Returns the address it scored, and
    the one it stopped (None, None: neither)."""
    meta = json.loads(entry.meta or "{}")
    rcpt = next((r for r in map(lambda a: read_verp(ls, a), _recipients(meta, received)) if r), None)
    if rcpt is None:
        return None, None
    if not is_failure_report(received.message):
        log.info("mail to the bounce address for %s is not a failure report; not counted", rcpt)
        return None, None
    row = session.get(BounceScore, rcpt) or BounceScore(address=rcpt)
    day = msg.at.date().isoformat()
    if row.disabled or row.last_day == day:
        return None, None
    row.score, row.last_day = row.score + 1, day
    session.add(row)
    if row.score < ls.bounce_limit:
        return rcpt, None
    row.disabled = True
    _tell_operator(session, ls, entry, msg, rcpt, row.score)
    return rcpt, rcpt


def _recipients(meta: dict, received: Received) -> Iterator[str]:
    """The envelope recipients, then the To addresses (the first To field, as the fold read it)."""
    yield from meta.get("rcpt_to") or []
    yield from (a for _, a in addresses([str(received.message.get("To", ""))]))


def _tell_operator(session: Session, ls: ListSettings, entry: "Entry", msg: Message,
                   rcpt: str, score: int) -> None:
    log.warning("list delivery to %s disabled after %d bounces", rcpt, score)
    mail = machine_mail(ls, to=ls.operator, subject=f"List delivery to {rcpt} disabled after {score} bounces",
                        at=msg.at, msgid=message_id(ls, "bounce", entry.seq or 0, entry.hash),
                        template="mail/bounce_notice.txt", address=rcpt, score=score)
    outbox.queue(session, entry.seq or 0, "operator", mail, [ls.operator], ls.address, msg.at)


def enable(session: Session, address: str) -> None:
    """A member who subscribes again gets delivery again, with a clean score."""
    row = session.get(BounceScore, address)
    if row is not None:
        session.delete(row)
