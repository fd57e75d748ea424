"""A throwaway PostgreSQL server on loopback for the database suite (Debian's postgresql)."""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time


def _bindir() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """initdb + postgres as the 'postgres' user (or the current one if not root)."""

    def __init__(self) -> None:
        bindir = _bindir()
        if bindir is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self.bindir = bindir
        self.dir = tempfile.mkdtemp(prefix="nomic-pg-")
        self.port = _free_port()
        self.user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        if os.geteuid() == 0:
            shutil.chown(self.dir, self.user)
        self.proc: subprocess.Popen | None = None

    def _run(self, *args: str) -> list[str]:
        return ["runuser", "-u", self.user, "--", *args] if os.geteuid() == 0 else list(args)

    def start(self) -> "PgServer":
        """Create the cluster (the first time) and start the server; also restarts it after pause()."""
        data = os.path.join(self.dir, "data")
        if not os.path.isdir(data):
            subprocess.run(self._run(f"{self.bindir}/initdb", "-D", data, "-U", "postgres",
                                     "--auth=trust", "-E", "UTF8"), check=True, capture_output=True)
        self.proc = subprocess.Popen(self._run(
            f"{self.bindir}/postgres", "-D", data, "-p", str(self.port), "-h", "127.0.0.1",
            "-k", self.dir, "-c", "fsync=off", "-c", "max_connections=200"),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                time.sleep(0.3)
                return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("PostgreSQL did not start")

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, name: str) -> str:
        import psycopg
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def pause(self) -> None:
        """Stop the server (fast shutdown: clients are cut off), keeping its data for start()."""
        if self.proc is not None:
            subprocess.run(self._run(f"{self.bindir}/pg_ctl", "-D", os.path.join(self.dir, "data"),
                                     "-m", "fast", "-w", "stop"), check=True, capture_output=True)
            self.proc.wait(timeout=30)
            self.proc = None

    def stop(self) -> None:
        self.pause()
        shutil.rmtree(self.dir, ignore_errors=True)
