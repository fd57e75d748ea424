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

import importlib
import re
from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, inspect
from sqlalchemy.engine import Connection, Engine

import migrations

SCRIPTS = Path(migrations.__file__).resolve().parent
BASELINE = "0001"  # the schema that create_all made before there were migrations
_DECLARES_TABLE = re.compile(r"^class \w+\(.*\btable=True", re.M)
_PG_LOCK = 0x6E6F6D6963  # "nomic": the advisory lock key for migrations on PostgreSQL


def metadata() -> MetaData:
    """Every table of the game: importing each module that defines one registers it."""
    from sqlmodel import SQLModel

    for module in _table_modules():
        importlib.import_module(module)
    return SQLModel.metadata


@lru_cache(maxsize=1)
def _table_modules() -> tuple[str, ...]:
    """The modules of nomic/ and mailer/ that declare SQLModel tables (``table=True``)."""
    found = []
    for package in ("nomic", "mailer"):
        root = Path(importlib.import_module(package).__file__).parent  # type: ignore[arg-type]
        found += [f"{package}.{p.stem}" for p in sorted(root.glob("*.py")) if _DECLARES_TABLE.search(p.read_text())]
    return tuple(found)


@lru_cache(maxsize=1)
def head() -> str | None:
    return ScriptDirectory(str(SCRIPTS)).get_current_head()


def current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision; cheap when it already is."""
    with engine.connect() as conn:
        if current(conn) == head():
            return
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_LOCK})")
        now = current(conn)
        if now == head():
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
