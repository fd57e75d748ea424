"""Schema migrations: a game's database is brought to the newest alembic revision by ``nomic upgrade``
(and ``nomic serve`` at start), never behind the back of a command that only opens the game.

A new database gets today's tables from the models and is stamped with the
newest revision, on any open; an existing one is upgraded through migrations/versions
only when asked (``upgrade``), and an open that finds it behind is told so (``Behind``).
(tests/deploy/test_migrations.py checks that the migrations alone build the
same schema as the models.) A database made before migrations existed (tables but no ``alembic_version``)
is stamped with the baseline revision, whose schema it has, then upgraded.
The upgrade runs in one transaction that holds the database's write lock
(SQLite: BEGIN IMMEDIATE; PostgreSQL: an advisory lock), so a daemon and a
command line opening the same game at once cannot both migrate it.
"""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, inspect
from sqlalchemy.engine import Connection, Engine

import migrations
from storage import tables

SCRIPTS = Path(migrations.__file__).resolve().parent
BASELINE = "0001"  # the schema that create_all made before there were migrations
_PG_LOCK = 0x6E6F6D6963  # "nomic": the advisory lock key for migrations on PostgreSQL


def metadata() -> MetaData:
    """Every table of the game (storage/tables.py declares them all)."""
    return tables.SQLModel.metadata


def head() -> str | None:
    return ScriptDirectory(str(SCRIPTS)).get_current_head()


def current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


class Behind(Exception):
    """An existing game's database is at an older revision than this release's."""

    def __init__(self, revision: str | None, newest: str):
        super().__init__(f"its database is at schema {revision or 'from before migrations'}, "
                         f"this release needs schema {newest}")
        self.revision, self.newest = revision, newest


def upgrade(engine: Engine, existing: bool = True) -> tuple[str | None, str] | None:
    """Bring the database to the newest revision; cheap when it already is.

    A new (empty) database gets today's tables whatever ``existing`` says. An existing one
    behind the newest revision is migrated only with ``existing`` (else ``Behind`` is raised and
    nothing is changed); then its (old, new) revisions are returned, else None.
    """
    newest = head()
    with engine.connect() as conn:
        if current(conn) == newest:
            return None
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_LOCK})")
        now = current(conn)
        if now == newest:
            return None
        cfg = Config()
        cfg.set_main_option("script_location", str(SCRIPTS))
        cfg.attributes["connection"] = conn
        if now is None and not inspect(conn).has_table("journal"):
            metadata().create_all(conn)  # a new game: today's tables at once (the alembic cookbook way)
            command.stamp(cfg, "head")
            return None
        if not existing:
            raise Behind(now, newest or "")
        if now is None:
            command.stamp(cfg, BASELINE)
        command.upgrade(cfg, "head")
        metadata().create_all(conn)  # tables still without a migration (tests/deploy/test_migrations.py flags them)
        return now, newest or ""
