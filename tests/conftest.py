"""Fixtures shared by the whole suite.

NOMIC_TEST_DB=postgres runs every game on a throwaway PostgreSQL server
(started here from Debian's postgresql); the default is SQLite.
"""
from __future__ import annotations

import itertools
import os

import pytest

from tests.support import Play

_counter = itertools.count()


@pytest.fixture(scope="session")
def pg_server():
    if os.environ.get("NOMIC_TEST_DB") != "postgres":
        yield None
        return
    from tests.pgserver import PgServer
    server = PgServer().start()
    yield server
    server.stop()


@pytest.fixture
def new_database_url(pg_server):
    """new_database_url() -> "" (SQLite in the game directory) or a fresh PostgreSQL database."""
    def make() -> str:
        if pg_server is None:
            return ""
        return pg_server.create_database(f"nomic_test_{os.getpid()}_{next(_counter)}")
    return make


@pytest.fixture
def make_play(tmp_path, new_database_url):
    """make_play(**game_toml_options) -> a new test game (see tests.support.Play)."""
    def make(**options) -> Play:
        options.setdefault("database_url", new_database_url())
        return Play(tmp_path / f"game{next(_counter)}", **options)
    return make


@pytest.fixture
def play(make_play) -> Play:
    return make_play()
