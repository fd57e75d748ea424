"""The database: the journal (source of truth), snapshots of state, events.

SQLite in WAL mode by default, any SQLAlchemy URL (PostgreSQL) otherwise.
The journal is a hash chain: each entry's ``hash`` is SHA-256 over the
previous entry's hash and this entry's content, so the head hash published
in every chime commits to the whole history.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Iterator

from sqlalchemy import bindparam, delete, event, insert, make_url, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import Session, SQLModel, create_engine, select

from engine.events import Event
from storage.config import ConfigError
from storage.tables import EventRow, JournalEntry, Meta, ParsedInput

GENESIS = "0" * 64


JOURNAL = JournalEntry.__table__  # type: ignore[attr-defined]
META = Meta.__table__  # type: ignore[attr-defined]
PARSED = ParsedInput.__table__  # type: ignore[attr-defined]
EVENTS = EventRow.__table__  # type: ignore[attr-defined]
# built once: intake runs them for every message, and building a statement costs more than running it
_HEAD = select(META.c.value).where(META.c.key == "journal_head").with_for_update()
_SET_HEAD = update(META).where(META.c.key == "journal_head").values(value=bindparam("head"))
_MOVE_HEAD = (update(META).where((META.c.key == "journal_head") & (META.c.value == bindparam("old")))
              .values(value=bindparam("new")))
_KNOWN = select(JOURNAL.c.key, JOURNAL.c.seq).where(JOURNAL.c.key.in_(bindparam("keys", expanding=True)))
_INSERT = insert(JOURNAL).returning(JOURNAL.c.seq, sort_by_parameter_order=True)


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
        event.listen(eng, "begin", _sqlite_begin)
    else:  # a server that hangs must not hold the daemon (nor its stop) for ever; the URL may override
        connect_args = {} if "connect_timeout" in url else {"connect_timeout": 10}
        eng = create_engine(url, pool_pre_ping=True, connect_args=connect_args)
    from storage import migrate  # alembic: bring the schema to the newest revision
    try:
        migrate.upgrade(eng)
        SQLModel.metadata.create_all(eng)  # tables still without a migration (tests/deploy/test_migrations.py flags them)
    except DBAPIError as exc:  # corrupt, locked, or a server that is down: one clear line for the operator
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else type(exc).__name__
        raise ConfigError(f"cannot open the database {make_url(url).render_as_string(hide_password=True)}: "
                          f"{reason} (see docs/operating.md, 'When things go wrong')") from None
    return eng


def _sqlite_begin(conn: Connection) -> None:
    """Every transaction takes the write lock at once: two writers never deadlock
    on a lock upgrade. Straight to the driver: it runs before every journal commit."""
    conn.connection.driver_connection.execute("BEGIN IMMEDIATE")  # type: ignore[union-attr]


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


Item = tuple[str, datetime, str, "bytes | None", dict]  # (kind, at, key, raw, meta)


class StaleHead(Exception):
    """Another writer moved the journal's head since this one last wrote it."""


class Journal:
    """Appends to the journal, each call one committed transaction (a group commit).

    It remembers the head hash it last wrote: while it is the only writer (the
    daemon's journal writer), an append is one INSERT and one conditional
    UPDATE of the head, with no look-ups; a serial SMTP client waits for every
    commit. Another writer (``nomic ingest``, the web form, a clock step) or a
    duplicate Message-ID sends it down the careful path, which reads the head
    under lock and looks every key up.
    """

    def __init__(self, db: Engine):
        self.db = db
        self.head: str | None = None

    def append(self, items: list[Item]) -> list[int | Duplicate]:
        keys = [item[2] for item in items]
        if self.head is not None and len(set(keys)) == len(keys):
            try:
                seqs, head = self._append_fast(items, self.head)
                self.head = head
                return list(seqs)
            except (StaleHead, IntegrityError, sqlite3.IntegrityError):
                pass  # rolled back: nothing of it stays
        try:
            with self.db.begin() as conn:
                results, head = _append_checked(conn, items)
        except IntegrityError:  # a racing writer journaled one of them first: look again
            with self.db.begin() as conn:
                results, head = _append_checked(conn, items)
        self.head = head
        return results

    def _append_fast(self, items: list[Item], head: str) -> tuple[list[int], str]:
        """The fast path's one transaction: on SQLite through the pool's sqlite3 connection."""
        if self.db.dialect.name != "sqlite":
            with self.db.begin() as conn:
                return _append_after(conn, items, head)
        return _append_after_sqlite(self.db, items, head)


def append_many(conn: Connection, items: list[Item]) -> list[int | Duplicate]:
    """Append several entries inside the caller's transaction (the caller commits).

    Returns, per item, its new seq or a Duplicate (already journaled, or
    earlier in ``items``). SQLAlchemy Core, not the ORM: a serial SMTP client
    waits for every commit, and the ORM's unit of work cost several times the fsync.
    """
    return _append_checked(conn, items)[0]


def _append_checked(conn: Connection, items: list[Item]) -> tuple[list[int | Duplicate], str]:
    head = _lock_head(conn)
    keys = [item[2] for item in items]
    known: dict[str, int] = {key: seq for key, seq in conn.execute(_KNOWN, {"keys": keys})}
    first: dict[str, Item] = {}
    for item in items:
        if item[2] not in known:
            first.setdefault(item[2], item)  # a second copy in the batch is a duplicate of the first
    fresh = list(first.values())
    if fresh:
        rows, new_head = _chained(fresh, head)
        seqs = conn.execute(_INSERT, rows).scalars().all()
        known.update({row["key"]: seq for row, seq in zip(rows, seqs)})
        conn.execute(_SET_HEAD, {"head": new_head})
        head = new_head
    out: list[int | Duplicate] = []
    new = set(first)
    for key in keys:
        out.append(known[key] if key in new else Duplicate(known[key]))
        new.discard(key)
    return out, head


def _append_after(conn: Connection, items: list[Item], head: str) -> tuple[list[int], str]:
    """Append ``items`` (distinct keys) after ``head``. Raises StaleHead if the head
    has moved, IntegrityError if a key is already journaled; the caller rolls back."""
    rows, new_head = _chained(items, head)
    if conn.execute(_MOVE_HEAD, {"old": head, "new": new_head}).rowcount != 1:
        raise StaleHead  # before the INSERT: a PostgreSQL sequence would lose the numbers
    return list(conn.execute(_INSERT, rows).scalars().all()), new_head


# The fast path's two statements as SQLite runs them (the same as _MOVE_HEAD and _INSERT)
_MOVE_HEAD_SQLITE = "UPDATE meta SET value = ? WHERE key = 'journal_head' AND value = ?"
_INSERT_SQLITE = ("INSERT INTO journal (kind, at, key, raw, meta, prev_hash, hash) "
                  "VALUES (:kind, :at, :key, :raw, :meta, :prev_hash, :hash) RETURNING seq")


def _append_after_sqlite(db: Engine, items: list[Item], head: str) -> tuple[list[int], str]:
    """``_append_after`` on the pool's own sqlite3 connection, in one BEGIN IMMEDIATE transaction.

    The daemon's journal writer runs this for every group commit, and on SQLite SQLAlchemy's
    transaction and statement machinery cost as much CPU as the commit itself (0.43 against
    0.21 ms an append here); the connection still comes from the pool, with its pragmas.
    """
    rows, new_head = _chained(items, head)
    con = db.raw_connection()
    try:
        cur = con.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            cur.execute(_MOVE_HEAD_SQLITE, (new_head, head))
            if cur.rowcount != 1:
                raise StaleHead  # the same order as _append_after
            seqs = [cur.execute(_INSERT_SQLITE, row).fetchone()[0] for row in rows]
            cur.execute("COMMIT")
        except BaseException:
            con.rollback()  # sqlite3 rolls back only a transaction still open
            raise
        return seqs, new_head
    finally:
        con.close()


def _chained(items: list[Item], head: str) -> tuple[list[dict], str]:
    """The journal rows of ``items``, each chained to the one before; and the new head."""
    rows = []
    for kind, at, key, raw, meta in items:
        at_s = iso(at)
        meta_s = json.dumps(meta, sort_keys=True, separators=(",", ":"))
        digest = entry_hash(head, kind, at_s, key, raw, meta_s)
        rows.append({"kind": kind, "at": at_s, "key": key, "raw": raw, "meta": meta_s,
                     "prev_hash": head, "hash": digest})
        head = digest
    return rows, head


def _lock_head(conn: Connection) -> str:
    """The current head hash, locked for this transaction (PostgreSQL: row lock)."""
    value = conn.execute(_HEAD).scalar()
    if value is None:
        conn.execute(insert(META).values(key="journal_head", value=GENESIS))
        return GENESIS
    return value


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


@dataclass(frozen=True, slots=True)
class Entry:
    """One journal entry as read back: JournalEntry's columns, and ``parsed``: its cached
    engine input (JSON) when one was written by the parser asked for."""
    seq: int
    kind: str
    at: str
    key: str
    raw: bytes | None
    meta: str
    prev_hash: str
    hash: str
    parsed: str | None = None


def entries(conn: Connection, after: int = 0, upto: int | None = None, limit: int | None = None,
            parser: str = "", batch: int = 1000) -> Iterator[Entry]:
    """Journal entries with seq > after (and <= upto), in order, fetched in batches (flat memory).

    With ``parser``, each carries the input that parser cached for it, if any.
    """
    q = (select(JOURNAL, PARSED.c.input).select_from(JOURNAL.outerjoin(
        PARSED, (PARSED.c.seq == JOURNAL.c.seq) & (PARSED.c.parser == parser)))
        .order_by(JOURNAL.c.seq))
    if upto is not None:
        q = q.where(JOURNAL.c.seq <= upto)
    last, left = after, limit
    while left is None or left > 0:
        size = batch if left is None else min(batch, left)
        rows = conn.execute(q.where(JOURNAL.c.seq > last).limit(size)).all()
        for row in rows:
            yield Entry(*row)  # type: ignore[call-arg]  # the columns of _COLUMNS, in Entry's order
        if len(rows) < size:
            return
        last = rows[-1][0]
        left = None if left is None else left - len(rows)


SKIP = "skip"


def skip_item(seq: int, at: datetime, error: str) -> Item:
    """The journal entry that records that folding entry ``seq`` faulted.

    The fold skips entry ``seq`` from then on, and every replay skips it the
    same way without trying it again, whatever the code does with it now.
    """
    return (SKIP, at, f"{SKIP}:{seq}", None, {"seq": seq, "error": error})


def skipped(conn: Connection) -> dict[int, str]:
    """Entries recorded as faulting: seq -> the error (a range of the key index, not a scan)."""
    q = select(JOURNAL.c.meta).where((JOURNAL.c.key >= f"{SKIP}:") & (JOURNAL.c.key < f"{SKIP};"))
    found = (json.loads(meta) for (meta,) in conn.execute(q))
    return {int(m["seq"]): str(m["error"]) for m in found}


def event_rows(seq: int, events: list[Event]) -> list[dict]:
    """The rows that store one journal entry's events (made inside the entry's fault boundary)."""
    return [{"seq": seq, "kind": e.kind, "data": json.dumps(e.data, default=str),
             "cause_what": e.cause.what if e.cause else None, "cause_number": e.cause.number if e.cause else None}
            for e in events]


def add_events(conn: Connection, rows: list[dict]) -> None:
    """Store events (``event_rows``) in one statement."""
    if rows:
        conn.execute(insert(EVENTS), rows)


def cache_inputs(conn: Connection, parser: str, inputs: list[tuple[int, str]]) -> None:
    """Keep the engine inputs parsed out of entries, (seq, JSON) each, replacing any from other code."""
    if inputs:
        conn.execute(delete(PARSED).where(PARSED.c.seq.in_([seq for seq, _ in inputs])))
        conn.execute(insert(PARSED), [{"seq": seq, "parser": parser, "input": data} for seq, data in inputs])


class ChainBroken(Exception):
    def __init__(self, seq: int):
        super().__init__(f"journal hash chain broken at entry {seq}")


class Chain:
    """Checks the hash chain entry by entry, in order from the first."""

    def __init__(self) -> None:
        self.head, self.count = GENESIS, 0

    def check(self, e: Entry) -> None:
        if e.prev_hash != self.head or e.hash != entry_hash(self.head, e.kind, e.at, e.key, e.raw, e.meta):
            raise ChainBroken(e.seq)
        self.head, self.count = e.hash, self.count + 1


def iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


# meta key: a migration left derived rows that only folding the journal again can complete
# (migrations/versions/0005: events without their cause); ``wipe_derived`` clears it
REFOLD = "refold"


def refold_due(db: Engine) -> bool:
    with Session(db) as s:
        return bool(get_meta(s, REFOLD))


def wipe_derived(session: Session) -> None:
    """Drop everything derived from the journal (for a full replay), and any call for one."""
    session.exec(text("DELETE FROM meta WHERE key = :key").bindparams(key=REFOLD))  # type: ignore[call-overload]
    session.exec(text("DELETE FROM snapshot"))  # type: ignore[call-overload]
    session.exec(text("DELETE FROM event"))  # type: ignore[call-overload]
    session.exec(text("DELETE FROM parsed_input"))  # type: ignore[call-overload]
