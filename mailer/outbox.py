"""The durable outbox: every outgoing mail is stored here before anything tries to send it."""
from __future__ import annotations

import json
from datetime import datetime
from email.message import EmailMessage

from sqlalchemy import LargeBinary
from sqlmodel import Column, Field, Session, SQLModel, select


class OutboxMessage(SQLModel, table=True):
    __tablename__ = "outbox"
    id: int | None = Field(default=None, primary_key=True)
    seq: int = Field(index=True)  # the journal entry that caused it
    kind: str  # answer | announcement | list | chime | digest | ...
    recipients: str  # JSON list of envelope recipients
    mail_from: str
    subject: str
    message_id: str = Field(index=True)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    status: str = Field(default="queued", index=True)  # queued | sent | failed
    attempts: int = 0
    next_attempt: str | None = None
    last_error: str | None = None
    created: str


def queue(session: Session, seq: int, kind: str, msg: EmailMessage, recipients: list[str],
          mail_from: str, created: datetime) -> OutboxMessage:
    row = OutboxMessage(
        seq=seq, kind=kind, recipients=json.dumps(recipients), mail_from=mail_from,
        subject=str(msg["Subject"]), message_id=str(msg["Message-ID"]), raw=bytes(msg),
        created=created.isoformat().replace("+00:00", "Z"))
    session.add(row)
    return row


def listing(session: Session) -> list[dict]:
    """``nomic outbox --json``: every outgoing mail, oldest first."""
    rows = session.exec(select(OutboxMessage).order_by(OutboxMessage.id)).all()
    return [{"id": r.id, "to": json.loads(r.recipients), "from": r.mail_from, "subject": r.subject,
             "kind": r.kind, "status": r.status, "message_id": r.message_id, "seq": r.seq,
             "attempts": r.attempts, "created": r.created, "last_error": r.last_error}
            for r in rows]
