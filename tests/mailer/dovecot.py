"""A real IMAP server for tests: Debian's dovecot on a loopback port, everything in a temp dir.

No system configuration is read or touched (``dovecot -F -c OUR_CONFIG``);
users (made up front: dovecot caches the passwd-file) and their Maildirs
live under the temp dir, owned by ``nobody``.
"""
from __future__ import annotations

import itertools
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

CONFIG = """\
base_dir = {dir}/run
state_dir = {dir}/state
log_path = {dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
default_login_user = dovenull
default_internal_user = dovecot
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {dir}/passwd
}}
userdb {{
  driver = static
  args = uid=nobody gid=nogroup home={dir}/home/%u
}}
mail_location = maildir:~/Maildir
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""
USERS = 20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Dovecot:
    def __init__(self, dir: Path):
        self.dir = dir
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self._users = itertools.count(1)
        for sub in ("run", "state", "home"):
            (dir / sub).mkdir(parents=True, exist_ok=True)
        shutil.chown(dir / "home", "nobody", "nogroup")
        (dir / "passwd").write_text("".join(f"player{i}:{{PLAIN}}secret\n" for i in range(1, USERS + 1)))
        (dir / "dovecot.conf").write_text(CONFIG.format(dir=dir, port=self.port))

    @staticmethod
    def available() -> bool:
        return shutil.which("dovecot") is not None and os.geteuid() == 0

    def start(self) -> "Dovecot":
        self.proc = subprocess.Popen(["dovecot", "-F", "-c", str(self.dir / "dovecot.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):  # until it listens (or has died)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        raise RuntimeError("dovecot did not start: " + self.log())

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
        self.proc = None

    def drop_connections(self) -> int:
        """Kill the imap processes (children of our dovecot): every client connection dies."""
        assert self.proc is not None
        killed = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                pid, rest = stat.read_text().split(" ", 1)
            except OSError:
                continue
            comm, _, fields = rest.rpartition(") ")
            if comm == "(imap" and int(fields.split()[1]) == self.proc.pid:
                os.kill(int(pid), signal.SIGKILL)
                killed += 1
        return killed

    def new_user(self) -> tuple[str, str]:
        """A user with an empty mailbox, not handed out before."""
        n = next(self._users)
        assert n <= USERS, "raise USERS in tests/mailer/dovecot.py"
        return f"player{n}", "secret"

    def log(self) -> str:
        path = self.dir / "dovecot.log"
        return path.read_text() if path.exists() else ""
