"""Every table of a game's database, in one module (storage.migrate builds and checks the schema from it).

The journal (the source of truth), snapshots, events and parsed inputs belong to the game
runner; the outbox, deliveries, bounce scores, digests and the answer log to the mailer.
"""
from __future__ import annotations

from sqlalchemy import Index, LargeBinary
from sqlmodel import Column, Field, SQLModel


class JournalEntry(SQLModel, table=True):
    __tablename__ = "journal"
    seq: int | None = Field(default=None, primary_key=True)
    kind: str  # "mail" | "clock" | "skip" (an entry whose fold faulted: see ``skip_item``)
    at: str  # ISO 8601, UTC: the time of receipt or of the clock step
    key: str = Field(unique=True, index=True)  # mailer.message.journal_key, "clock:<at>" or "skip:<seq>"
    raw: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    meta: str = "{}"  # JSON: source, envelope, authentication verdict (parsed commands: ParsedInput)
    prev_hash: str
    hash: str


class Snapshot(SQLModel, table=True):
    __tablename__ = "snapshot"
    seq: int = Field(primary_key=True)  # the state after folding journal entries 1..seq
    state: str


class EventRow(SQLModel, table=True):
    """One engine event (engine.events.Event); its cause, where it has one, as two columns."""
    __tablename__ = "event"
    id: int | None = Field(default=None, primary_key=True)
    seq: int = Field(index=True)
    kind: str = Field(index=True)
    data: str
    cause_what: str | None = None  # "submission", "proposal", "day"... (None: no cause)
    cause_number: int | None = None


class ParsedInput(SQLModel, table=True):
    """The engine input parsed out of a journal entry, kept so a replay need not parse the mail again.

    ``parser`` names the parsing code that wrote it (mailer.inputs.parser_version):
    a row written by other code is read as absent.
    """
    __tablename__ = "parsed_input"
    seq: int = Field(primary_key=True)
    parser: str
    input: str  # engine.inputs.Message as JSON


class Meta(SQLModel, table=True):
    __tablename__ = "meta"
    key: str = Field(primary_key=True)
    value: str


class OutboxMessage(SQLModel, table=True):
    __tablename__ = "outbox"
    id: int | None = Field(default=None, primary_key=True)
    seq: int = Field(index=True)  # the journal entry that caused it (0: the web form)
    kind: str  # answer | announcement | list | chime | digest | notice | confirm | operator
    recipients: str  # JSON list of envelope recipients ("[]" when ``recipient_set`` names them)
    mail_from: str
    subject: str
    message_id: str = Field(index=True)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    status: str = Field(default="queued", index=True)  # queued | sent | failed
    attempts: int = 0
    next_attempt: str | None = None
    last_error: str | None = None
    created: str
    personal: bool = False  # add each recipient's List-Unsubscribe headers when sending
    expanded: bool = Field(default=False, index=True)  # its delivery rows are written (mailer.outbox.expand)
    recipient_set: str | None = None  # the digest of its recipients' ``RecipientSet`` (a list's members), or None


class RecipientSet(SQLModel, table=True):
    """Recipients shared by many mails (a list's members), stored once under the digest of their JSON:
    each announcement and list copy names them (``OutboxMessage.recipient_set``, mailer/recipients.py)."""
    __tablename__ = "recipient_set"
    digest: str = Field(primary_key=True)  # sha256 of ``recipients``, hex
    recipients: str  # JSON list of envelope recipients


class Delivery(SQLModel, table=True):
    """One envelope recipient of one outbox message."""
    __tablename__ = "delivery"
    __table_args__ = (Index("ix_delivery_outbox_status", "outbox_id", "status"),)
    id: int | None = Field(default=None, primary_key=True)
    outbox_id: int
    rcpt: str
    status: str = Field(default="queued", index=True)  # queued | claimed | sending | sent | failed
    attempts: int = 0
    next_attempt: str = ""  # ISO time; "" means at once
    claim: str | None = None  # "host:pid:nonce" of the sender that holds it
    claimed_at: str | None = None
    last_error: str | None = None
    sent_at: str | None = None


class BounceScore(SQLModel, table=True):
    __tablename__ = "bounce"
    address: str = Field(primary_key=True)
    score: int = 0
    last_day: str = ""  # UTC date of the last bounce counted
    disabled: bool = False


class DigestIssue(SQLModel, table=True):
    __tablename__ = "digest"
    id: int | None = Field(default=None, primary_key=True)
    volume: int
    issue: int
    day: int  # the game day it covers
    seq: int  # the journal entry whose day end made it
    last_outbox_id: int  # it holds the list traffic up to this outbox row


class AnswerLog(SQLModel, table=True):
    """One row per answer queued: who, and when the message it answers was received."""
    __tablename__ = "answer_log"
    id: int | None = Field(default=None, primary_key=True)
    sender: str = Field(index=True)
    at: str = Field(index=True)  # ISO 8601 UTC, as in the journal
