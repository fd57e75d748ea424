"""The journal, the source of truth: appending entries, reading them back, checking the chain.

The journal is a hash chain: each entry's ``hash`` is SHA-256 over the previous
entry's hash and this entry's content, so the head hash (the last entry's ``hash``,
published in every chime) commits to the whole history.

An append, on either database, is one transaction that holds the journal's write lock
(SQLite: BEGIN IMMEDIATE; PostgreSQL: a transaction-level advisory lock whose key is this
game's journal table, ``lock_key``),
reads the head from the last entry, looks the keys up (a key already journaled, or twice
in the batch, is a ``Duplicate``) and inserts the new entries chained after the head
(on SQLite numbered by the append itself, from the head's seq, in one executemany).
The head is not kept anywhere else (since migration 0009; before, a meta row held it,
one more page written by every commit). Its statements are declared once, below, with
SQLAlchemy Core. On SQLite, ``Journal`` runs them, compiled once, on a sqlite3 connection
of its own (made by the pool, so with its pragmas, then kept): the daemon's journal writer
appends for every group commit, and SQLAlchemy's transaction and statement machinery cost as
much CPU as the commit itself (0.41-0.45 against 0.19-0.24 ms an append), and taking the
connection from the pool and giving it back (a reset) 0.01-0.02 ms more (docs/performance.md).
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, insert, select, text
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from storage.tables import JournalEntry, ParsedInput

GENESIS = "0" * 64
SKIP = "skip"

JOURNAL = JournalEntry.__table__  # type: ignore[attr-defined]
PARSED = ParsedInput.__table__  # type: ignore[attr-defined]
COLUMNS = ("kind", "at", "key", "raw", "meta", "prev_hash", "hash")
# The advisory lock an append holds on PostgreSQL: "jour" in the high 32 bits, the journal table's oid in
# the low 32. Advisory locks are per database; games sharing one (a schema each) have a journal table each,
# so each game has its own key (one constant key made every game's appends wait for every other's). The
# oid is resolved as the INSERT resolves the table (search_path), so every appender to one journal agrees,
# and it stays the same across restarts. Never the migrations' key (0x6E6F6D6963: above 32 bits, "nomic").
_PG_KEY = f"({0x6A6F7572 << 32} | CAST(CAST('{JOURNAL.name}' AS regclass) AS oid)::bigint)"

# The append's statements, built once: building a statement costs more than running it.
_HEAD = select(JOURNAL.c.hash).order_by(JOURNAL.c.seq.desc()).limit(1)  # the last entry's: the rowid's last leaf
_LOCK = text(f"SELECT pg_advisory_xact_lock({_PG_KEY})")  # PostgreSQL only (SQLite: BEGIN IMMEDIATE)
_SEQ_OF = select(JOURNAL.c.seq).where(JOURNAL.c.key == bindparam("key"))
_KNOWN = select(JOURNAL.c.key, JOURNAL.c.seq).where(JOURNAL.c.key.in_(bindparam("keys", expanding=True)))
_INSERT = (insert(JOURNAL).values({c: bindparam(c) for c in COLUMNS})
           .returning(JOURNAL.c.seq, sort_by_parameter_order=True))
# SQLite's append (Journal) reads the head's seq with its hash, under the write lock, and numbers
# the new entries itself: every row in one executemany, none of them read back.
_HEAD_SEQ = select(JOURNAL.c.seq, JOURNAL.c.hash).order_by(JOURNAL.c.seq.desc()).limit(1)
_INSERT_NUMBERED = insert(JOURNAL).values({c: bindparam(c) for c in ("seq", *COLUMNS)})
_META_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode  # json.dumps with these makes one a call
_SQLITE = sqlite.dialect(paramstyle="named")  # how the reads are compiled for the sqlite3 connection
_SQLITE_QMARK = sqlite.dialect(paramstyle="qmark")  # and Journal's appends

# (kind, at, key, raw, meta): the meta a dict, written as ``_META_JSON`` writes it, or that JSON text already
# (mailer.inbox writes a mail's meta by a template, the same bytes at a third of the CPU)
Item = tuple[str, datetime, str, "bytes | None", "dict | str"]
Row = tuple[str, str, str, "bytes | None", str, str, str]  # a journal row's COLUMNS, as inserted


class Duplicate(Exception):
    """The journal already holds an entry with this key."""

    def __init__(self, seq: int):
        super().__init__(f"already in the journal as entry {seq}")
        self.seq = seq


def entry_hash(prev: str, kind: str, at: str, key: str, raw: bytes | None, meta: str) -> str:
    """SHA-256 over the UTF-8 of each of (prev, kind, at, key, SHA-256 of raw as hex, meta), each
    followed by a NUL byte: hashed as one string, encoded once (the same bytes as part by part)."""
    body = hashlib.sha256(raw or b"").hexdigest()
    return hashlib.sha256(f"{prev}\0{kind}\0{at}\0{key}\0{body}\0{meta}\0".encode()).hexdigest()


def iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


class Journal:
    """Appends to the journal, each call one committed transaction (a group commit)."""

    def __init__(self, db: Engine):
        self.db = db
        self._sqlite = _SqliteAppend() if db.dialect.name == "sqlite" else None
        self._con: Any = None  # SQLite: the sqlite3 connection appends run on, opened by the first
        self._con_lock = threading.Lock()  # one append at a time on it (they would wait for the write lock anyway)

    def append(self, items: list[Item]) -> list[int | Duplicate]:
        """Per item, its new seq or a Duplicate (already journaled, or earlier in ``items``)."""
        if self._sqlite is not None:
            with self._con_lock:
                return self._append_sqlite(items)
        with self.db.begin() as conn:
            return append_many(conn, items)

    def _append_sqlite(self, items: list[Item]) -> list[int | Duplicate]:
        """``append_many`` in its own BEGIN IMMEDIATE transaction on this journal's sqlite3 connection
        (which has the pool's pragmas), its statements compiled for SQLite; the new entries numbered
        on from the head's seq, read under the write lock (seq is the rowid: what SQLite would give
        them). A connection an append failed on is closed, and the next append opens another."""
        if self._con is None:
            fairy = self.db.raw_connection()
            self._con = fairy.driver_connection
            fairy.detach()  # ours from now on: no checkout and no reset at every append
        con, sql = self._con, self._sqlite
        assert sql is not None
        try:
            cur = con.cursor()
            cur.execute("BEGIN IMMEDIATE")  # the write lock: the head cannot move under us
            seq, head = cur.execute(sql.head, sql.head_params).fetchone() or (0, GENESIS)
            known = {}
            for _, _, key, _, _ in items:
                found = cur.execute(sql.seq_of, (key,)).fetchone()
                if found is not None:
                    known[key] = found[0]
            rows = _chained(_fresh(items, known), head)
            numbered = []
            for row in rows:
                seq += 1
                known[row[2]] = seq
                numbered.append((seq, *row))
            cur.executemany(sql.insert, numbered)
            cur.execute("COMMIT")
        except BaseException:
            self._con = None
            try:  # at once: close() alone leaves the transaction, and the write lock, to the cursor's end
                con.rollback()
            finally:
                con.close()
            raise
        return _results(items, rows, known)


class _SqliteAppend:
    """SQLite's append statements as the sqlite3 driver takes them, compiled once per ``Journal``, their
    parameters by position: rows of tuples, not of dicts bound by name (the driver looks each name up)."""

    def __init__(self) -> None:
        self.head, self.head_params = _positional(_HEAD_SEQ)  # (its LIMIT's parameters)
        self.seq_of = _positional(_SEQ_OF)[0]
        self.insert = _positional(_INSERT_NUMBERED)[0]  # (seq, *COLUMNS)


def _compiled(statement: ClauseElement) -> tuple[str, dict[str, Any]]:
    """``statement``'s SQL for the sqlite3 driver and its parameters' defaults (LIMIT's among them),
    taken once: the compiled object makes a new dict of them at every call."""
    compiled = statement.compile(dialect=_SQLITE)
    return compiled.string, dict(compiled.params)


def _positional(statement: ClauseElement) -> tuple[str, tuple[Any, ...]]:
    """``statement``'s SQL for the sqlite3 driver with its parameters by position (``?``), and their
    defaults in that order."""
    compiled = statement.compile(dialect=_SQLITE_QMARK)
    assert isinstance(compiled, SQLCompiler)
    return compiled.string, tuple(compiled.params[name] for name in compiled.positiontup or ())


def append_many(conn: Connection, items: list[Item]) -> list[int | Duplicate]:
    """Append several entries inside the caller's transaction (the caller commits).

    SQLAlchemy Core, not the ORM: a serial SMTP client waits for every commit,
    and the ORM's unit of work cost several times the fsync. On PostgreSQL the advisory
    lock, held to the commit, keeps a second appender from reading the same head (SQLite's
    transactions all begin IMMEDIATE: storage.database).
    """
    if conn.dialect.name == "postgresql":
        conn.execute(_LOCK)
    head = conn.execute(_HEAD).scalar() or GENESIS
    known = {key: seq for key, seq in conn.execute(_KNOWN, {"keys": [item[2] for item in items]})}
    rows = _chained(_fresh(items, known), head)
    if rows:
        seqs = conn.execute(_INSERT, [dict(zip(COLUMNS, row)) for row in rows]).scalars().all()
        known.update(zip((row[2] for row in rows), seqs))
    return _results(items, rows, known)


def lock_key(conn: Connection) -> int:
    """The advisory lock key this game's appends hold on PostgreSQL (``_PG_KEY``)."""
    return int(conn.execute(text(f"SELECT {_PG_KEY}")).scalar_one())


def _fresh(items: list[Item], known: dict[str, int]) -> list[Item]:
    """The items to insert: not journaled yet, and each key's first copy in ``items`` alone."""
    first: dict[str, Item] = {}
    for item in items:
        if item[2] not in known:
            first.setdefault(item[2], item)
    return list(first.values())


def _results(items: list[Item], rows: list[Row], known: dict[str, int]) -> list[int | Duplicate]:
    """Per item, the seq it was given, or a Duplicate of the entry that holds its key."""
    new = {row[2] for row in rows}
    out: list[int | Duplicate] = []
    for _, _, key, _, _ in items:
        out.append(known[key] if key in new else Duplicate(known[key]))
        new.discard(key)
    return out


def _chained(items: list[Item], head: str) -> list[Row]:
    """The journal rows of ``items`` (``COLUMNS``), each chained to the one before, the first to ``head``."""
    rows = []
    for kind, at, key, raw, meta in items:
        at_s = iso(at)
        meta_s = meta if type(meta) is str else _META_JSON(meta)
        digest = entry_hash(head, kind, at_s, key, raw, meta_s)
        rows.append((kind, at_s, key, raw, meta_s, head, digest))
        head = digest
    return rows


class Entry(NamedTuple):
    """One journal entry as read back: JournalEntry's columns, and ``parsed``: its cached
    engine input (JSON) when one was written by the parser asked for. A named tuple: as immutable
    as a frozen dataclass, made 5 times faster (0.3 against 1.5 us; a replay makes one an entry)."""
    seq: int
    kind: str
    at: str
    key: str
    raw: bytes | None
    meta: str
    prev_hash: str
    hash: str
    parsed: str | None = None


# Entries after a seq, up to another, a batch at a time, each with the input a parser cached for it:
# declared once, its parameters bound at each batch (a statement built at each batch is compiled
# again, or its cache key computed again).
_ENTRIES = (select(JOURNAL, PARSED.c.input)
            .select_from(JOURNAL.outerjoin(PARSED, (PARSED.c.seq == JOURNAL.c.seq)
                                           & (PARSED.c.parser == bindparam("parser"))))
            .where((JOURNAL.c.seq > bindparam("after")) & (JOURNAL.c.seq <= bindparam("upto")))
            .order_by(JOURNAL.c.seq).limit(bindparam("size")))
_ENTRIES_SQLITE = _compiled(_ENTRIES)
_LAST_SEQ = 2**31 - 1  # ``upto`` when none is given: the journal's seq column is a 32-bit integer on PostgreSQL


def entries(conn: Connection, after: int = 0, upto: int | None = None, limit: int | None = None,
            parser: str = "", batch: int = 1000) -> Iterator[Entry]:
    """Journal entries with seq > after (and <= upto), in order, fetched in batches (flat memory;
    250 to 2,000 an execute cost the same CPU, 5,000 a third more: 50,000 entries, min of 9 rounds).

    With ``parser``, each carries the input that parser cached for it, if any.
    """
    last, left = after, limit
    params = {"parser": parser, "upto": _LAST_SEQ if upto is None else upto}
    fetch = _fetch_sqlite(conn) if conn.dialect.name == "sqlite" else lambda p: conn.execute(_ENTRIES, p).all()
    while left is None or left > 0:
        size = batch if left is None else min(batch, left)
        rows = fetch({**params, "after": last, "size": size})
        for row in rows:
            yield Entry(*row)  # the journal's columns and the input, in Entry's order
        if len(rows) < size:
            return
        last = rows[-1][0]
        left = None if left is None else left - len(rows)


def _fetch_sqlite(conn: Connection) -> Callable[[dict[str, Any]], list[tuple]]:
    """``_ENTRIES`` run on ``conn``'s own sqlite3 connection (in its transaction), its rows the
    driver's tuples: SQLAlchemy's result rows cost a replay about 1 us an entry (of 40)."""
    raw = conn.connection.driver_connection
    assert raw is not None
    sql, defaults = _ENTRIES_SQLITE
    return lambda params: raw.execute(sql, {**defaults, **params}).fetchall()


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
