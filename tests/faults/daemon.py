"""A real ``nomic serve`` in a subprocess, for the fault tests: start, kill, restart, talk LMTP to it."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

NOMIC = shutil.which("nomic") or str(Path(sys.executable).with_name("nomic"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nomic(game: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    out = subprocess.run([NOMIC, *args, "--game", str(game)], capture_output=True, text=True, timeout=300)
    if check:
        assert out.returncode == 0, out.stderr
    return out


class Daemon:
    """``nomic serve --lmtp`` on a loopback port that stays the same across restarts."""

    running: list[subprocess.Popen] = []  # every process started, for reap()

    @classmethod
    def reap(cls) -> None:
        """Kill whatever a test left running (it failed before stop())."""
        for proc in cls.running:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        cls.running.clear()

    def __init__(self, game: Path, log: Path, *extra: str):
        self.game = game
        self.port = free_port()
        self.log = log
        self.extra = extra
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> "Daemon":
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [NOMIC, "serve", "--game", str(self.game), "--lmtp", f"127.0.0.1:{self.port}", *self.extra],
                stdout=log, stderr=log, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.running.append(self.proc)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nomic serve exited with {self.proc.returncode}; see {self.log}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nomic serve did not start listening")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> int:
        """SIGTERM: a clean stop, which processes everything journaled."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=300)


def mail(sender: str, subject: str, message_id: str, body: str = "text\n") -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "ths@imperial.test"
    msg["Subject"] = subject
    msg["Message-ID"] = f"<{message_id}>"
    msg.set_content(body)
    return bytes(msg)
