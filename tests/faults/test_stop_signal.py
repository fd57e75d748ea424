"""SIGTERM is a clean stop whenever it comes once ``nomic serve`` listens, even before it logs ``ready``.

A SIGTERM that came after the listeners opened but before the handler was installed ended the
daemon at once (exit status -15, no 250 for what was queued, nothing folded): the crash-safety
test, whose clients may all be done by the time the last restart listens, stopped it there now
and then on a loaded machine. Here the signal is sent in that window, every time.
"""
from __future__ import annotations

import subprocess
import sys

from tests.faults.daemon import free_port

# nomic serve, its GameService.start sending SIGTERM to its own process: after listen(), before "ready"
SERVE_SIGNALLED_EARLY = """
import logging, os, signal, sys
from pathlib import Path
from nomic import daemon
from nomic.game import Game

start = daemon.GameService.start

def start_then_sigterm(self):
    started = start(self)
    os.kill(os.getpid(), signal.SIGTERM)
    return started

daemon.GameService.start = start_then_sigterm
logging.basicConfig(level=logging.WARNING)  # as the command line does: the daemon's log on stderr
daemon.run(Game(Path(sys.argv[1])), lmtp=f"127.0.0.1:{sys.argv[2]}")
"""


def test_sigterm_between_listening_and_ready_is_a_clean_stop(make_play):
    play = make_play(auth="none")
    out = subprocess.run([sys.executable, "-c", SERVE_SIGNALLED_EARLY, str(play.dir), str(free_port())],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "listening for LMTP" in out.stderr
    assert "stopping" in out.stderr and "stopped" in out.stderr
