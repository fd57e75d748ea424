"""Issue 31: ``./run demo`` (deploy/demo.sh) as an operator runs it: its ports come from the
environment, its game starts today, and SIGTERM to the script stops the daemon and frees the ports."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tomllib
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_sigterm_to_the_demo_stops_its_daemon_on_the_ports_the_environment_gave(tmp_path):
    bin_dir = tmp_path / "bin"  # `nomic` as this checkout runs it
    bin_dir.mkdir()
    (bin_dir / "nomic").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m nomic "$@"\n')
    (bin_dir / "nomic").chmod(0o755)
    ports = {name: free_port() for name in ("SMTP", "LMTP", "HTTP", "MAILBOX")}
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "PYTHONUNBUFFERED": "1",
           "NOMIC_DEMO_RULESET": "suber", "NOMIC_GAME": str(tmp_path / "demo-suber"),
           "PYTHONPATH": str(ROOT), **{f"NOMIC_DEMO_{k}": f"127.0.0.1:{p}" for k, p in ports.items()}}
    demo = subprocess.Popen(["bash", str(ROOT / "deploy" / "demo.sh")], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert demo.stderr is not None
        log = []
        for line in demo.stderr:
            log.append(line)
            if line.rstrip().endswith("ready"):
                break
        assert all(listening(p) for p in ports.values()), "".join(log)
        demo.send_signal(signal.SIGTERM)
        out, _ = demo.communicate(timeout=60)
    finally:
        if demo.poll() is None:
            demo.kill()
    assert demo.returncode == 0
    assert not any(listening(p) for p in ports.values())
    assert f"over SMTP on 127.0.0.1:{ports['SMTP']} " in out and f"The site: http://127.0.0.1:{ports['HTTP']}/" in out
    game = tomllib.loads((tmp_path / "demo-suber" / "game.toml").read_text())
    assert game["game"]["start"] == datetime.now(timezone.utc).strftime("%Y-%m-%dT00:00:00Z")
    assert game["outbox"]["relay"] == f"127.0.0.1:{ports['MAILBOX']}"
