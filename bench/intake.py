"""Intake: N messages (default 5,000), Proposals and list posts of ordinary size, sent over LMTP on
loopback by 1, 4 and 16 clients at once, each over its own connection (where group commit shows), to
three servers in turn: a bare aiosmtpd LMTP server in its own process whose handler only counts; the
same with a SQLite INSERT and COMMIT before each 250 (the durable sink); and `nomic serve` (a
subprocess with a new game: every message journaled and committed before its 250, the processor
folding behind it, as in production). The three servers of a round run back to back, fresh, and
every round is repeated (--repeat): the machine's load swings by minutes, so each ratio is taken
against its own round and the median reported, with the servers' CPU per message, which the load
sways far less than their rates.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from common import GAME, mail, new_game, report, timed, verdict

HERE = Path(__file__).resolve()
WARM = 20  # messages each server takes before the timing starts (its first answers compile templates)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sink(port: int, durable: Path | None = None) -> None:
    """The baseline: aiosmtpd's LMTP with a handler that only counts (runs until killed).

    With ``durable``, the handler also INSERTs each message into a bare SQLite table there and
    COMMITs (WAL, synchronous=FULL) before its 250: the floor of any server that keeps the
    promise a 250 makes, with no parsing, hashing or SQLAlchemy.
    """
    import sqlite3

    from aiosmtpd.lmtp import LMTP
    db = None
    if durable is not None:
        db = sqlite3.connect(durable, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE mail (id INTEGER PRIMARY KEY, raw BLOB)")

    class Count:
        n = 0

        async def handle_DATA(self, server, session, envelope) -> str:
            Count.n += 1
            if db is not None:
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO mail (raw) VALUES (?)", (envelope.original_content,))
                db.execute("COMMIT")
            return "250 OK"

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        await loop.create_server(lambda: LMTP(Count()), "127.0.0.1", port)
        print("ready", flush=True)
        await asyncio.Event().wait()

    asyncio.run(serve())


def wait_listening(port: int, proc: subprocess.Popen, log: Path, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited: {log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing listens on port {port}")


def send_all(port: int, messages: list[bytes], clients: int = 1) -> float:
    """Seconds for ``clients`` clients, each over its own LMTP connection, to deliver every message."""
    def client(share: list[bytes]) -> None:
        lmtp = smtplib.LMTP("127.0.0.1", port)
        for i, raw in enumerate(share):
            lmtp.sendmail(f"p{i % 1000}@players.test", [GAME], raw)
        lmtp.quit()

    with timed() as t, ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, [messages[k::clients] for k in range(clients)]))
    return t[0]


def cpu_seconds(pid: int) -> float:
    """The user and system CPU a process has used so far (Linux: /proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Round:
    """One server taking one round of messages: wall seconds, and the server's CPU seconds meanwhile."""
    seconds: float
    cpu: float


def run_round(argv: list[str], port: int, clients: int, messages: list[bytes], log: Path) -> Round:
    """Start the server (its log to a file: a full pipe would stall it), warm it with the first
    ``WARM`` messages, time ``clients`` clients sending the rest, stop it."""
    warm, messages = messages[:WARM], messages[WARM:]
    with log.open("w") as err:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        try:
            wait_listening(port, proc, log)
            send_all(port, warm, clients)
            cpu = cpu_seconds(proc.pid)
            seconds = send_all(port, messages, clients)
            return Round(seconds, cpu_seconds(proc.pid) - cpu)
        finally:
            proc.terminate()
            proc.wait(timeout=300)


def servers(tmp: Path, name: str, port: int) -> dict[str, list[str]]:
    """The three servers of one round, each fresh: the bare sink, the durable sink, and nomic serve
    with a new game (so no round folds an earlier round's backlog)."""
    game = new_game(tmp, name)
    sink_argv = [sys.executable, str(HERE), "--sink", str(port)]
    return {"bare": sink_argv, "durable": [*sink_argv, "--durable", str(tmp / f"{name}.db")],
            "ours": [sys.executable, "-m", "nomic", "serve", "--lmtp", f"127.0.0.1:{port}",
                     "--game", str(game.config.dir)]}


def journaled(game_dir: Path) -> int:
    from sqlmodel import Session, func, select

    from nomic.game import Game
    from storage import JournalEntry
    with Session(Game(game_dir).db) as s:
        return s.exec(select(func.count()).select_from(JournalEntry)).one()


def measure(n: int, concurrency: list[int], repeat: int, tmp: Path) -> dict[tuple[int, str], list[Round]]:
    """Every (clients, server) pair ``repeat`` times, the three servers of a round back to back so
    that the machine's load, which swings by minutes, weighs on them alike."""
    found: dict[tuple[int, str], list[Round]] = {}
    for r in range(repeat):
        for k, clients in enumerate(concurrency):
            name = f"r{r}c{clients}"
            messages = [mail((r * len(concurrency) + k) * (n + WARM) + i) for i in range(n + WARM)]
            port = free_port()
            for kind, argv in servers(tmp, name, port).items():
                found.setdefault((clients, kind), []).append(
                    run_round(argv, port, clients, messages, tmp / f"{name}-{kind}.log"))
            if (stored := journaled(tmp / name)) != n + WARM:
                raise SystemExit(f"{stored} of {n + WARM} messages journaled in round {name}")
    return found


def median_rate(n: int, rounds: list[Round]) -> float:
    return statistics.median(n / r.seconds for r in rounds)


def cpu_ms(n: int, rounds: list[Round]) -> float:
    """The server's CPU per message (ms), median of the rounds: what it costs, whatever the load."""
    return statistics.median(r.cpu / n * 1000 for r in rounds)


def ratio(n: int, ours: list[Round], base: list[Round]) -> float:
    """nomic serve's rate over the baseline's, each repetition against its own round; the median."""
    return statistics.median(b.seconds / o.seconds for o, b in zip(ours, base))


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=5_000, help="messages per round")
    ap.add_argument("--clients", type=lambda v: [int(c) for c in v.split(",")], default=[1, 4, 16],
                    help="the rounds: how many clients send at once in each (default 1,4,16)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds of each kind; medians are reported")
    ap.add_argument("--sink", type=int, help=argparse.SUPPRESS)  # internal: run the bare server on PORT
    ap.add_argument("--durable", type=Path, help=argparse.SUPPRESS)  # internal: the sink commits to this file
    args = ap.parse_args(argv)
    if args.sink:
        sink(args.sink, args.durable)
        return {}
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        found = measure(args.n, args.clients, args.repeat, Path(tmp))
    load_note = f"load average {load:.1f} -> {os.getloadavg()[0]:.1f}, medians of {args.repeat}"
    r: dict[str, float] = {}
    for clients in args.clients:
        bare, durable, ours = (found[clients, kind] for kind in ("bare", "durable", "ours"))
        rates = {kind: median_rate(args.n, found[clients, kind]) for kind in ("bare", "durable", "ours")}
        of_bare, of_durable = ratio(args.n, ours, bare), ratio(args.n, ours, durable)
        r |= {f"{kind}_rate_{clients}": rate for kind, rate in rates.items()}
        r |= {f"ours_of_durable_{clients}": of_durable, f"ours_cpu_ms_{clients}": cpu_ms(args.n, ours)}
        costs = ", ".join(f"{kind} {cpu_ms(args.n, found[clients, kind]):.2f}" for kind in ("bare", "durable", "ours"))
        rows = [
            ("bare aiosmtpd LMTP (counts only)", f"{rates['bare']:,.0f} msgs/s"),
            ("bare + SQLite INSERT and COMMIT (FULL)", f"{rates['durable']:,.0f} msgs/s: the floor of a durable 250"),
            ("nomic serve --lmtp (journaled, committed)", f"{rates['ours']:,.0f} msgs/s"),
            ("server CPU per message (ms)", costs),
            ("ratio (nomic serve / durable sink)", f"{of_durable:.2f}" + (
                "" if clients == 1 else f"  {verdict(of_durable >= 0.8)} (>= 0.80)")),
            ("ratio (nomic serve / bare)", f"{of_bare:.2f}" + (
                f"  {verdict(of_bare >= 0.6)} (>= 0.60)" if clients == 1 else "")),
        ]
        report(f"intake of {args.n:,} messages over LMTP, {clients} client(s) at once ({load_note})", rows)
    return r


if __name__ == "__main__":
    main()
