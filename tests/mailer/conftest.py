"""Fixtures for intake tests: ``nomic serve`` as a real subprocess on loopback ports."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

READY = re.compile(r"(?:listening for (SMTP|LMTP) on |serving the site on (http)://)([\d.]+):(\d+)")


class Served:
    """A ``nomic`` daemon (``command``) on loopback ports 0 (SMTP, LMTP, HTTP); the ports read from its log."""

    def __init__(self, *command: str):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "nomic", *command,
             "--smtp", "127.0.0.1:0", "--lmtp", "127.0.0.1:0", "--http", "127.0.0.1:0"],
            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.log: list[str] = []
        self.ports: dict[str, int] = {}
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.append(line)
            m = READY.search(line)
            if m:
                self.ports[(m[1] or m[2]).lower()] = int(m[4])
            if line.rstrip().endswith("ready"):
                break
        else:
            raise AssertionError(f"nomic {' '.join(command)} did not start:\n" + "".join(self.log))
        self._drain = threading.Thread(target=self._read_rest, daemon=True)
        self._drain.start()

    def _read_rest(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.append(line)

    def stop(self) -> int:
        """SIGTERM, then wait: everything journaled has been processed when this returns."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=60)
        self._drain.join(timeout=10)
        return code


class Daemon(Served):
    """``nomic serve`` for one game."""

    def __init__(self, game_dir: Path):
        super().__init__("serve", "--game", str(game_dir))


@pytest.fixture
def serve():
    """serve(play) -> a running Daemon for that test game; stopped at the end of the test."""
    started: list[Daemon] = []

    def start(play) -> Daemon:
        daemon = Daemon(play.dir)
        started.append(daemon)
        return daemon
    yield start
    for daemon in started:
        daemon.stop()


@pytest.fixture(scope="session")
def dovecot():
    """A real dovecot IMAP server on loopback for the whole session (see tests/mailer/dovecot.py).

    Its directory is outside pytest's private (0700) temp tree: dovecot's mail
    processes run as ``nobody`` and must reach the Maildirs.
    """
    from tests.mailer.dovecot import Dovecot
    if not Dovecot.available():
        pytest.skip("needs Debian's dovecot-imapd and root (deploy/apt-packages.txt)")
    root = Path(tempfile.mkdtemp(prefix="nomic-dovecot-"))
    root.chmod(0o755)
    server = Dovecot(root).start()
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)
