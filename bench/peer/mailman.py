"""Side by side with the peer: GNU Mailman 3.3.10 and `nomic serve`, the same list, the same client.

Both servers take the same kind of list posts from the same members over LMTP (one connection,
this script's client) and deliver every copy, one per member (Mailman: VERP on every post, as
nomic's personalised copies), to the same counting SMTP sink on loopback. Rounds alternate
(Mailman first in even rounds, nomic in odd ones); each round times the posts until the last 250
(intake) and until the sink has counted every copy (delivered), and reads the CPU of every
process of the server from /proc (Mailman: its master and all its runners). Printed: the medians,
the ratios of the rates (nomic / Mailman) and of the CPU per post (Mailman / nomic).

Mailman is installed from PyPI into its own venv (under --cache, default ~/.cache/humble-scribe-peer)
on first use; see bench/peer/README.md. Not part of `./run tests` nor of `./run bench`'s default
(`./run bench --peer` adds it).
"""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import multiprocessing.sharedctypes
import os
import smtplib
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # bench/: common, intake

from common import LIST, Conditions, mail, new_game, player, proc_cpu_seconds, report  # noqa: E402
from intake import free_port, wait_listening  # noqa: E402

MAILMAN = "mailman==3.3.10"
CONFIG = """\
[mailman]
site_owner: tie@imperial.test
layout: bench

[paths.bench]
var_dir: {var}

[mta]
incoming: mailman.mta.null.NullMTA
lmtp_host: 127.0.0.1
lmtp_port: {lmtp}
smtp_host: 127.0.0.1
smtp_port: {smtp}
verp_delivery_interval: 1

[webservice]
port: {rest}
"""


def venv(cache: Path) -> Path:
    """The `mailman` command of a venv of its own under ``cache``, installed from PyPI if missing."""
    command = cache / "venv" / "bin" / "mailman"
    if not command.exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "venv", str(cache / "venv")], check=True)
        subprocess.run([str(cache / "venv" / "bin" / "pip"), "install", "-q", MAILMAN], check=True)
    return command


def sink(port: int, count: multiprocessing.sharedctypes.Synchronized) -> None:
    """The delivery sink: aiosmtpd's SMTP counting every recipient of every message."""
    from aiosmtpd.smtp import SMTP

    class Count:
        async def handle_DATA(self, server, session, envelope) -> str:
            with count.get_lock():
                count.value += len(envelope.rcpt_tos)
            return "250 OK"

    async def serve() -> None:
        await asyncio.get_running_loop().create_server(lambda: SMTP(Count()), "127.0.0.1", port)
        await asyncio.Event().wait()

    asyncio.run(serve())


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and every live process descended from it (/proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            except (OSError, IndexError):
                continue
    family, grew = {root}, True
    while grew:
        more = {pid for pid, ppid in parents.items() if ppid in family} - family
        family |= more
        grew = bool(more)
    total = 0.0
    for pid in family:
        try:
            total += proc_cpu_seconds(pid)
        except OSError:
            pass
    return total


class Mailman:
    """A minimal Mailman instance: one list, its members, its LMTP runner and outgoing delivery."""

    def __init__(self, command: Path, root: Path, members: int, smtp: int):
        root.mkdir(parents=True)
        self.lmtp = free_port()
        self.cfg = root / "mailman.cfg"
        self.var = root / "var"
        self.cfg.write_text(CONFIG.format(var=self.var, lmtp=self.lmtp, smtp=smtp, rest=free_port()))
        self.argv = [str(command), "--run-as-root", "-C", str(self.cfg)] if os.geteuid() == 0 else \
            [str(command), "-C", str(self.cfg)]
        self.run("create", "-q", LIST)
        (root / "members").write_text("".join(f"{player(i)}\n" for i in range(members)))
        self.run("addmembers", "-W", str(root / "members"), LIST)

    def run(self, *args: str) -> None:
        """A `mailman` command (its output to files: `start` leaves the master holding them)."""
        with (self.var.parent / "commands.log").open("a") as out:
            subprocess.run([*self.argv, *args], check=True, stdout=out, stderr=out, timeout=600)

    def start(self) -> int:
        """Start the master and its runners; the master's pid once its LMTP runner listens."""
        self.run("start")
        pid_file = self.var / "master.pid"
        deadline = time.monotonic() + 300
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        pid = int(pid_file.read_text().strip())
        probe = subprocess.Popen(["sleep", "600"])  # wait_listening wants a process to watch
        try:
            wait_listening(self.lmtp, probe, self.cfg, limit=300)
        finally:
            probe.kill()
            probe.wait()
        return pid

    def stop(self, master: int) -> None:
        """Stop the master and wait until it and its runners have gone (before their files go)."""
        self.run("stop")
        deadline = time.monotonic() + 120
        while Path(f"/proc/{master}").exists() and time.monotonic() < deadline:
            time.sleep(0.2)


def nomic(root: Path, members: int, smtp: int) -> tuple[list[str], int]:
    """`nomic serve` of a new game whose list has the members, relaying to the sink: (argv, LMTP port)."""
    from sqlmodel import Session

    from engine.state import Subscriber
    from nomic.game import Game
    from storage.tables import Snapshot
    g = new_game(root, "nomic")
    toml = g.config.dir / "game.toml"
    toml.write_text(toml.read_text().replace('relay = ""', f'relay = "127.0.0.1:{smtp}"', 1))
    g = Game(g.config.dir)
    state = g.state()
    state.subscribers = [Subscriber(email=player(i)) for i in range(members)]
    with Session(g.db) as s:  # the members join the stored state directly (as bench/drain.py does)
        s.merge(Snapshot(seq=0, state=state.model_dump_json()))
        s.commit()
    port = free_port()
    return [sys.executable, "-m", "nomic", "serve", "--lmtp", f"127.0.0.1:{port}", "--game", str(g.config.dir)], port


@dataclass
class Round:
    intake_s: float
    intake_cpu: float
    delivered_s: float
    delivered_cpu: float


def post_round(port: int, root_pid: int, posts: list[tuple[str, bytes]], copies: int,
               count: multiprocessing.sharedctypes.Synchronized, limit: float = 1800) -> Round:
    """Send the posts over one LMTP connection; wait until the sink has ``copies`` more."""
    start_count, cpu0, t0 = count.value, tree_cpu(root_pid), time.perf_counter()
    lmtp = smtplib.LMTP("127.0.0.1", port)
    for sender, raw in posts:
        refused = lmtp.sendmail(sender, [LIST], raw)
        if refused:
            raise SystemExit(f"refused: {refused}")
    lmtp.quit()
    intake_s, intake_cpu = time.perf_counter() - t0, tree_cpu(root_pid) - cpu0
    deadline = time.monotonic() + limit
    while count.value - start_count < copies:
        if time.monotonic() > deadline:
            raise SystemExit(f"{count.value - start_count} of {copies} copies delivered in {limit:.0f} s")
        time.sleep(0.05)
    return Round(intake_s, intake_cpu, time.perf_counter() - t0, tree_cpu(root_pid) - cpu0)


def posts(first: int, n: int, members: int) -> list[tuple[str, bytes]]:
    """n list posts (mail(k) with k a multiple of 3), each from a member."""
    return [(player(k % members), mail(3 * k, sender=player(k % members))) for k in range(first, first + n)]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--posts", type=int, default=40, help="list posts a round")
    ap.add_argument("--members", type=int, default=50, help="list members (copies per post)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds; medians are reported")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "humble-scribe-peer",
                    help="where Mailman's venv is kept")
    args = ap.parse_args(argv)
    command = venv(args.cache)
    since = Conditions()
    ctx = multiprocessing.get_context("fork")
    count = ctx.Value("q", 0)
    smtp = free_port()
    relay = ctx.Process(target=sink, args=(smtp, count), daemon=True)
    relay.start()
    found: dict[str, list[Round]] = {"mailman": [], "nomic": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        mm = Mailman(command, root / "mailman", args.members, smtp)
        ours_argv, ours_port = nomic(root, args.members, smtp)
        master = mm.start()
        log = root / "serve.log"
        with log.open("w") as err:
            serve = subprocess.Popen(ours_argv, stdout=subprocess.DEVNULL, stderr=err)
        try:
            wait_listening(ours_port, serve, log)
            warm = posts(10**6, 5, args.members)  # both compile and cache what they need first
            post_round(mm.lmtp, master, warm, len(warm) * args.members, count)
            post_round(ours_port, serve.pid, warm, len(warm) * args.members, count)
            for r in range(args.rounds):
                batch = posts(r * args.posts, args.posts, args.members)
                order = [("mailman", mm.lmtp, master), ("nomic", ours_port, serve.pid)]
                for name, port, pid in (order if r % 2 == 0 else order[::-1]):
                    found[name].append(post_round(port, pid, batch, args.posts * args.members, count))
        finally:
            serve.terminate()
            serve.wait(timeout=300)
            mm.stop(master)
            relay.terminate()
    n, mm_r, ours_r = args.posts, found["mailman"], found["nomic"]

    def med(rounds: list[Round], field: str) -> float:
        return statistics.median(getattr(r, field) for r in rounds)

    def ratio(field: str) -> float:  # nomic's rate over Mailman's, each round against its own
        return statistics.median(m.__dict__[field] / o.__dict__[field] for m, o in zip(mm_r, ours_r))

    rows = []
    for label, rounds in (("GNU Mailman 3.3.10", mm_r), ("nomic serve", ours_r)):
        rows += [(f"{label}: intake (until the last 250)", f"{n / med(rounds, 'intake_s'):,.0f} posts/s "
                  f"({med(rounds, 'intake_cpu') / n * 1000:.2f} ms CPU each)"),
                 (f"{label}: delivered (every copy at the sink)", f"{n / med(rounds, 'delivered_s'):,.1f} posts/s "
                  f"({med(rounds, 'delivered_cpu') / n * 1000:.1f} ms CPU a post)")]
    rows += [
        ("ratio of intake rates (nomic / Mailman)", f"{ratio('intake_s'):.2f}"),
        ("ratio of intake CPU a post (Mailman / nomic)", f"{med(mm_r, 'intake_cpu') / med(ours_r, 'intake_cpu'):.2f}"),
        ("ratio of delivered rates (nomic / Mailman)", f"{ratio('delivered_s'):.2f}"),
        ("ratio of CPU a delivered post (Mailman / nomic)",
         f"{med(mm_r, 'delivered_cpu') / med(ours_r, 'delivered_cpu'):.2f}"),
    ]
    report(f"side by side with GNU Mailman 3.3.10: {n} list posts to {args.members} members a round, one LMTP "
           f"connection, alternating, medians of {args.rounds} rounds", rows, since)


if __name__ == "__main__":
    main()
