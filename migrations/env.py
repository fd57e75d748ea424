"""Alembic environment: the game's SQLModel tables, on the connection nomic hands over.

``storage.migrate.upgrade`` passes its own connection (already inside a locked
transaction) in ``config.attributes["connection"]``. From the ``alembic``
command line the database comes from ``-x url=...``, else from the game
directory's game.toml (``-x game=DIR``, else $NOMIC_GAME, else ./game).
"""
from __future__ import annotations

import os
from pathlib import Path

from alembic import context
from sqlalchemy import create_engine

from storage.migrate import metadata

config = context.config
target_metadata = metadata()


def _url() -> str:
    args = context.get_x_argument(as_dictionary=True)
    if args.get("url"):
        return args["url"]
    from storage.config import Config
    return Config.load(Path(args.get("game") or os.environ.get("NOMIC_GAME", "game"))).database_url


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
elif config.attributes.get("connection") is not None:
    _run(config.attributes["connection"])
else:
    with create_engine(_url()).connect() as conn:
        _run(conn)
        conn.commit()
