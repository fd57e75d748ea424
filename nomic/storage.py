"""The database: the journal (source of truth), snapshots of state, events.

SQLite in WAL mode by default, any SQLAlchemy URL (PostgreSQL) otherwise.
The journal is a hash chain: each entry's ``hash`` is SHA-256 over the
previous entry's hash and this entry's content, so the head hash published
in every chime commits to the whole history.
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Iterator

from sqlalchemy import LargeBinary, event, insert, make_url, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import Column, Field, Session, SQLModel, create_engine, select

from nomic.config import ConfigError

GENESIS = "0" * 64


class JournalEntry(SQLModel, table=True):
    __tablename__ = "journal"
    seq: int | None = Field(default=None, primary_key=True)
    kind: str  # "mail" | "clock"
    at: str  # ISO 8601, UTC: the time of receipt or of the clock step
    key: str = Field(unique=True, index=True)  # Message-ID, "sha256:..." or "clock:<at>"
    raw: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    meta: str = "{}"  # JSON: source, envelope, authentication verdict, parsed commands
    prev_hash: str
    hash: str


class Snapshot(SQLModel, table=True):
    __tablename__ = "snapshot"
    seq: int = Field(primary_key=True)  # the state after folding journal entries 1..seq
    state: str


class EventRow(SQLModel, table=True):
    __tablename__ = "event"
    id: int | None = Field(default=None, primary_key=True)
    seq: int = Field(index=True)
    kind: str = Field(index=True)
    data: str


class Meta(SQLModel, table=True):
    __tablename__ = "meta"
    key: str = Field(primary_key=True)
    value: str


def entry_hash(prev: str, kind: str, at: str, key: str, raw: bytes | None, meta: str) -> str:
    h = hashlib.sha256()
    for part in (prev, kind, at, key, hashlib.sha256(raw or b"").hexdigest(), meta):
        h.update(part.encode())
        h.update(b"\x00")
    return h.hexdigest()


def connect(url: str) -> Engine:
    if url.startswith("sqlite"):
        eng = create_engine(url, connect_args={"timeout": 30})
        event.listen(eng, "connect", _sqlite_pragmas)
        event.listen(eng, "begin", lambda conn: conn.exec_driver_sql("BEGIN IMMEDIATE"))
    else:  # a server that hangs must not hold the daemon (nor its stop) for ever; the URL may override
        connect_args = {} if "connect_timeout" in url else {"connect_timeout": 10}
        eng = create_engine(url, pool_pre_ping=True, connect_args=connect_args)
    from nomic import migrate  # alembic: bring the schema to the newest revision
    try:
        migrate.upgrade(eng)
        SQLModel.metadata.create_all(eng)  # tables still without a migration (tests/deploy/test_migrations.py flags them)
    except DBAPIError as exc:  # corrupt, locked, or a server that is down: one clear line for the operator
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else type(exc).__name__
        raise ConfigError(f"cannot open the database {make_url(url).render_as_string(hide_password=True)}: "
                          f"{reason} (see docs/operating.md, 'When things go wrong')") from None
    return eng


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    dbapi_conn.isolation_level = None  # we issue BEGIN IMMEDIATE ourselves
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")  # a 250 must survive a power cut
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


class Duplicate(Exception):
    """The journal already holds an entry with this key."""

    def __init__(self, seq: int):
        super().__init__(f"already in the journal as entry {seq}")
        self.seq = seq


def append(session: Session, kind: str, at: datetime, key: str, raw: bytes | None,
           meta: dict) -> JournalEntry:
    """Append one entry to the chain inside the caller's transaction.

    Raises Duplicate if ``key`` is already journaled. The caller commits.
    """
    found = session.exec(select(JournalEntry.seq).where(JournalEntry.key == key)).first()
    if found is not None:
        raise Duplicate(found)
    head = _lock_head(session)
    at_s = iso(at)
    meta_s = json.dumps(meta, sort_keys=True, separators=(",", ":"))
    entry = JournalEntry(kind=kind, at=at_s, key=key, raw=raw, meta=meta_s, prev_hash=head,
                         hash=entry_hash(head, kind, at_s, key, raw, meta_s))
    session.add(entry)
    _set_meta(session, "journal_head", entry.hash)
    try:
        session.flush()
    except IntegrityError:
        session.rollback()
        seq = session.exec(select(JournalEntry.seq).where(JournalEntry.key == key)).first()
        raise Duplicate(seq or 0) from None
    return entry


def append_many(session: Session, items: list[tuple[str, datetime, str, bytes | None, dict]]
                ) -> list[int | Duplicate]:
    """Append several (kind, at, key, raw, meta) entries in one INSERT (group commit).

    Returns, per item, its new seq or a Duplicate (already journaled, or
    earlier in ``items``). Inside the caller's transaction; the caller commits.
    """
    head = _lock_head(session)
    keys = [item[2] for item in items]
    known: dict[str, int] = dict(session.exec(  # type: ignore[arg-type]
        select(JournalEntry.key, JournalEntry.seq).where(JournalEntry.key.in_(keys))).all())  # type: ignore[attr-defined]
    rows: list[dict] = []
    fresh: set[str] = set()
    for kind, at, key, raw, meta in items:
        if key in known or key in fresh:
            continue
        at_s = iso(at)
        meta_s = json.dumps(meta, sort_keys=True, separators=(",", ":"))
        digest = entry_hash(head, kind, at_s, key, raw, meta_s)
        rows.append({"kind": kind, "at": at_s, "key": key, "raw": raw, "meta": meta_s,
                     "prev_hash": head, "hash": digest})
        fresh.add(key)
        head = digest
    if rows:
        stmt = insert(JournalEntry).returning(JournalEntry.seq, sort_by_parameter_order=True)
        seqs = session.execute(stmt, rows).scalars().all()
        known.update({row["key"]: seq for row, seq in zip(rows, seqs)})
        _set_meta(session, "journal_head", head)
    out: list[int | Duplicate] = []
    for key in keys:
        out.append(known[key] if key in fresh else Duplicate(known[key]))
        fresh.discard(key)  # a second copy in the same batch is a duplicate of the first
    return out


def _lock_head(session: Session) -> str:
    """The current head hash, locked for this transaction (PostgreSQL: row lock)."""
    row = session.exec(select(Meta).where(Meta.key == "journal_head").with_for_update()).first()
    if row is None:
        session.add(Meta(key="journal_head", value=GENESIS))
        session.flush()
        return GENESIS
    return row.value


def get_meta(session: Session, key: str, default: str = "") -> str:
    row = session.get(Meta, key)
    return row.value if row else default


def _set_meta(session: Session, key: str, value: str) -> None:
    row = session.get(Meta, key)
    if row is None:
        session.add(Meta(key=key, value=value))
    else:
        row.value = value
        session.add(row)


set_meta = _set_meta


def entries(session: Session, after: int = 0, upto: int | None = None,
            batch: int = 1000) -> Iterator[JournalEntry]:
    """Journal entries with seq > after (and <= upto), in order, fetched in batches."""
    last = after
    while True:
        q = select(JournalEntry).where(JournalEntry.seq > last)
        if upto is not None:
            q = q.where(JournalEntry.seq <= upto)
        rows = session.exec(q.order_by(JournalEntry.seq).limit(batch)).all()
        if not rows:
            return
        yield from rows
        last = rows[-1].seq  # type: ignore[assignment]


def verify_chain(session: Session) -> tuple[bool, str]:
    """Recompute every hash; (ok, message)."""
    prev = GENESIS
    n = 0
    for e in entries(session):
        if e.prev_hash != prev or e.hash != entry_hash(prev, e.kind, e.at, e.key, e.raw, e.meta):
            return False, f"journal hash chain broken at entry {e.seq}"
        prev, n = e.hash, n + 1
    return True, f"{n} journal entries, head {prev}"


def iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


def wipe_derived(session: Session) -> None:
    """Drop everything derived from the journal (for a full replay)."""
    session.exec(text("DELETE FROM snapshot"))  # type: ignore[call-overload]
    session.exec(text("DELETE FROM event"))  # type: ignore[call-overload]
