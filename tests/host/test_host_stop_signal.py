"""``nomic host serve``: SIGTERM is a clean stop whenever it comes once the host listens (as for
``nomic serve``, tests/faults/test_stop_signal.py): before, a SIGTERM between the listeners opening
and the wait for a signal ended the host at once (exit status -15, its games' queues not committed
in order, nothing folded)."""
from __future__ import annotations

import subprocess
import sys

from tests.faults.daemon import free_port

# nomic host serve, sending SIGTERM to its own process as soon as its listeners are open
HOST_SIGNALLED_EARLY = """
import logging, os, signal, sys
from pathlib import Path
from nomic import host_serve

listen = host_serve.listen

async def listen_then_sigterm(*args):
    servers = await listen(*args)
    os.kill(os.getpid(), signal.SIGTERM)
    return servers

host_serve.listen = listen_then_sigterm
logging.basicConfig(level=logging.INFO)  # the host's log on stderr
host_serve.run(Path(sys.argv[1]), lmtp=f"127.0.0.1:{sys.argv[2]}")
"""


def test_sigterm_as_soon_as_the_host_listens_is_a_clean_stop(host):
    out = subprocess.run([sys.executable, "-c", HOST_SIGNALLED_EARLY, str(host), str(free_port())],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "stopping" in out.stderr and "stopped" in out.stderr
