"""Schema migrations: every open brings the game's database to the newest alembic revision.

A new database gets today's tables from the models and is stamped with the
newest revision; an existing one is upgraded through migrations/versions.
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


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision; cheap when it already is."""
    newest = head()
    with engine.connect() as conn:
        if current(conn) == newest:
            return
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_LOCK})")
        now = current(conn)
        if now == newest:
            return
        cfg = Config()
        cfg.set_main_option("script_location", str(SCRIPTS))
        cfg.attributes["connection"] = conn
        if now is None and not inspect(conn).has_table("journal"):
            metadata().create_all(conn)  # a new game: today's tables at once (the alembic cookbook way)
            command.stamp(cfg, "head")
            return
        if now is None:
            command.stamp(cfg, BASELINE)
        command.upgrade(cfg, "head")
