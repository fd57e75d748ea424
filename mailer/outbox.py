"""The durable outbox: every outgoing mail is stored here before anything tries to send it.

One ``outbox`` row per composed mail (its bytes, once), one ``delivery`` row
per envelope recipient: a chime to 100,000 subscribers is one message and
100,000 small delivery rows, each with its own retries and status.

A delivery moves ``queued -> claimed -> sending -> sent | failed`` (or back
to ``queued`` with a later ``next_attempt``). ``claimed`` means a sender took
it and has not yet started the SMTP DATA phase; ``sending`` means the DATA
phase began, so the relay may have accepted it (see mailer/sender.py for
what happens to such a delivery after a crash). The outbox row's ``status``
sums its deliveries up: ``queued`` while any is pending, then ``sent`` if
any was delivered, else ``failed``.
"""
from __future__ import annotations

import json
from datetime import datetime
from email.message import EmailMessage

from sqlalchemy import func, insert
from sqlalchemy.orm import defer
from sqlmodel import Session, select

from mailer import headers
from storage.tables import Delivery, OutboxMessage

PENDING = ("queued", "claimed", "sending")


OUTBOX = OutboxMessage.__table__  # type: ignore[attr-defined]
DELIVERIES = Delivery.__table__  # type: ignore[attr-defined]


def iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


def queue(session: Session, seq: int, kind: str, msg: EmailMessage, recipients: list[str],
          mail_from: str, created: datetime, personal: bool = False) -> int:
    """Store one mail and a delivery per recipient, in the caller's transaction; its outbox id.

    SQLAlchemy Core: every answer passes through here, and the ORM's unit of
    work cost more than composing the mail.
    """
    recipients = list(dict.fromkeys(r.lower() for r in recipients if r))
    conn = session.connection()
    outbox_id = conn.execute(insert(OUTBOX).returning(OUTBOX.c.id), {
        "seq": seq, "kind": kind, "recipients": json.dumps(recipients), "mail_from": mail_from,
        "subject": headers.read(msg, "Subject"), "message_id": headers.read(msg, "Message-ID"), "raw": bytes(msg),
        "status": "queued" if recipients else "sent", "attempts": 0, "next_attempt": None,
        "last_error": None, "created": iso(created), "personal": personal}).scalar_one()
    if recipients:  # one bulk insert: a fan-out to 100,000 must stay fast
        conn.execute(insert(DELIVERIES), [{"outbox_id": outbox_id, "rcpt": r, "status": "queued",
                                           "attempts": 0, "next_attempt": ""} for r in recipients])
    return outbox_id


def _has(session: Session, outbox_id: int, statuses: tuple[str, ...]) -> bool:
    return session.exec(select(Delivery.id).where(
        Delivery.outbox_id == outbox_id, Delivery.status.in_(statuses)).limit(1)).first() is not None  # type: ignore[attr-defined]


def settle(session: Session, outbox_id: int, error: str | None = None) -> None:
    """Bring an outbox row's summary status up to date with its deliveries (indexed: cheap)."""
    row = session.get(OutboxMessage, outbox_id)
    if row is None:
        return
    status = ("queued" if _has(session, outbox_id, PENDING)
              else "sent" if _has(session, outbox_id, ("sent",)) else "failed")
    if status != row.status or (error and error != row.last_error):
        row.status, row.last_error = status, error or row.last_error
        session.add(row)


def listing(session: Session) -> list[dict]:
    """``nomic outbox --json``: every outgoing mail, oldest first."""
    rows = session.exec(select(OutboxMessage).options(defer(OutboxMessage.raw))  # type: ignore[arg-type]
                        .order_by(OutboxMessage.id)).all()
    tally: dict[int, dict[str, int]] = {}
    for oid, status, n in session.exec(select(Delivery.outbox_id, Delivery.status, func.count())
                                       .group_by(Delivery.outbox_id, Delivery.status)).all():
        tally.setdefault(oid, {})[status] = n
    return [{"id": r.id, "to": json.loads(r.recipients), "from": r.mail_from, "subject": r.subject,
             "kind": r.kind, "status": r.status, "message_id": r.message_id, "seq": r.seq,
             "attempts": r.attempts, "created": r.created, "last_error": r.last_error,
             "deliveries": tally.get(r.id or 0, {})}
            for r in rows]

