"""Fixtures for ``nomic host``: games of different rulesets, and ``nomic host serve`` as a real subprocess."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.mailer.conftest import Served

IMPERIAL = """\
[game]
name = "League Nomic"
address = "ths@league.test"
list_address = "players@league.test"
start = "2026-01-05T00:00:00Z"
seed = "league-seed"
database_url = "{database_url}"

[offices]
emperor = "tie@league.test"
scribe = "ths@league.test"

[auth]
mode = "none"
"""
BLOGNOMIC = """\
[game]
name = "Blog Nomic"
ruleset = "blognomic"
address = "ths@blog.test"
list_address = "players@blog.test"
start = "2026-01-05T00:00:00Z"
seed = "blog-seed"
database_url = "{database_url}"

[offices]
admins = ["alice@wonder.land"]

[auth]
mode = "none"
"""


def nomic(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
    out = subprocess.run([sys.executable, "-m", "nomic", *args], capture_output=True, text=True, timeout=120)
    assert (out.returncode == 0) == ok, out.stderr
    return out


class HostDaemon(Served):
    """``nomic host serve HOSTDIR``: every game of the host; ``signal`` sends it e.g. SIGHUP."""

    def __init__(self, host_dir: Path):
        super().__init__("host", "serve", str(host_dir))

    def signal(self, sig: int) -> None:
        self.proc.send_signal(sig)


@pytest.fixture
def make_game(tmp_path, new_database_url):
    """make_game(name, toml) -> the directory of a new game made with ``nomic init --config``."""
    def make(name: str, toml: str) -> Path:
        config = tmp_path / f"{name}.toml"
        config.write_text(toml.format(database_url=new_database_url()))
        nomic("init", str(tmp_path / name), "--config", str(config))
        return tmp_path / name
    return make


@pytest.fixture
def host(tmp_path, make_game):
    """A host with an Imperial game served as ``league`` and a BlogNomic game as ``blog``."""
    host_dir = tmp_path / "host"
    nomic("host", "init", str(host_dir))
    nomic("host", "add", str(host_dir), str(make_game("league", IMPERIAL)), "--slug", "league")
    nomic("host", "add", str(host_dir), str(make_game("blog", BLOGNOMIC)), "--slug", "blog")
    return host_dir


@pytest.fixture
def serve_host():
    """serve_host(host_dir) -> a running HostDaemon; stopped at the end of the test."""
    started: list[HostDaemon] = []

    def start(host_dir: Path) -> HostDaemon:
        daemon = HostDaemon(host_dir)
        started.append(daemon)
        return daemon
    yield start
    for daemon in started:
        daemon.stop()
