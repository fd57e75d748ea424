"""Fixtures of the site tests: one played test game and its built site, shared by the module."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.site.game import play_days
from tests.support import Play


@pytest.fixture(scope="session")
def session_db(pg_server):
    """A fresh database URL ("" = SQLite in the game directory) that lives for the session."""
    names = iter(range(1000))

    def make() -> str:
        if pg_server is None:
            return ""
        return pg_server.create_database(f"nomic_site_{os.getpid()}_{next(names)}")
    return make


@pytest.fixture(scope="session")
def played(tmp_path_factory, session_db) -> Play:
    """The test game after four days of play (fixed 24 h days, so ticks end days)."""
    play = Play(tmp_path_factory.mktemp("site") / "game", day_mode="fixed", database_url=session_db())
    play_days(play)
    return play


@pytest.fixture(scope="session")
def site(played, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("built") / "public"
    played.cli("build", "--out", str(out))
    return out


@pytest.fixture
def site_copy(site, tmp_path) -> Path:
    """A private copy of the built site, for tests that rebuild it."""
    return Path(shutil.copytree(site, tmp_path / "public"))
