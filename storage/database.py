"""Opening a game's database: SQLite in WAL mode by default, any SQLAlchemy URL (PostgreSQL) otherwise.

``connect`` only connects; ``open_database`` also gives a new (empty) database today's tables,
and refuses one that an older release wrote until ``nomic upgrade`` has migrated it (storage.migrate).
"""
from __future__ import annotations

from sqlalchemy import event, make_url
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import create_engine

from storage.config import ConfigError


def connect(url: str) -> Engine:
    """An engine for ``url`` (nothing is read or written yet)."""
    if url.startswith("sqlite"):
        eng = create_engine(url, connect_args={"timeout": 30})
        event.listen(eng, "connect", _sqlite_pragmas)
        event.listen(eng, "begin", _sqlite_begin)
        return eng
    # a server that hangs must not hold the daemon (nor its stop) for ever; the URL may override
    connect_args = {} if "connect_timeout" in url else {"connect_timeout": 10}
    return create_engine(url, pool_pre_ping=True, connect_args=connect_args)


class UpgradeNeeded(ConfigError):
    """The game was written by an older release: ``nomic upgrade`` must bring it up to date first
    (exit status 2: nothing is done until the operator has)."""
    code = 2


def open_database(url: str) -> Engine:
    """``connect``; a new database gets today's tables. ``UpgradeNeeded`` for one an older release
    wrote (``upgrade_database`` migrates it); ConfigError with one clear line for the operator when
    the database is corrupt, locked, or on a server that is down."""
    from storage import migrate  # alembic, imported when a database is opened, not by every reader of storage

    try:
        return _opened(url, existing=False)[0]
    except migrate.Behind as exc:
        raise UpgradeNeeded(str(exc)) from None


def upgrade_database(url: str) -> tuple[Engine, tuple[str | None, str] | None]:
    """``open_database``, migrating a database an older release wrote to the newest revision:
    the engine, and the (old, new) revisions if it was migrated."""
    return _opened(url, existing=True)


def _opened(url: str, existing: bool) -> tuple[Engine, tuple[str | None, str] | None]:
    from storage import migrate

    eng = connect(url)
    try:
        return eng, migrate.upgrade(eng, existing)
    except DBAPIError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else type(exc).__name__
        raise ConfigError(f"cannot open the database {make_url(url).render_as_string(hide_password=True)}: "
                          f"{reason} (see docs/operating.md, 'When things go wrong')") from None


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
