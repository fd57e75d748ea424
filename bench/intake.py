"""Intake: N messages (default 20,000), Proposals and list posts of ordinary size, sent over LMTP on
loopback by one serial client to `nomic serve` (a subprocess; every message journaled and committed
before its 250, the processor folding behind it, as in production), and, same client, same run, to a
bare aiosmtpd LMTP server in its own process whose handler only counts messages; then N more by 4
and by 16 clients at once, each over its own connection (where group commit shows).
"""
from __future__ import annotations

import argparse
import asyncio
import smtplib
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from common import GAME, mail, new_game, report, timed, verdict

HERE = Path(__file__).resolve()


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


def run_server(argv: list[str], port: int, rounds: list[tuple[int, list[bytes]]], log: Path) -> dict[int, float]:
    """Start the server (its log to a file: a full pipe would stall it), time each round of
    (clients, messages), stop it."""
    with log.open("w") as err:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        try:
            wait_listening(port, proc, log)
            return {clients: send_all(port, messages, clients) for clients, messages in rounds}
        finally:
            proc.terminate()
            proc.wait(timeout=300)


def journaled(game_dir: Path) -> int:
    from sqlmodel import Session, func, select

    from nomic.game import Game
    from storage import JournalEntry
    with Session(Game(game_dir).db) as s:
        return s.exec(select(func.count()).select_from(JournalEntry)).one()


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000, help="messages per round")
    ap.add_argument("--clients", type=lambda v: [int(c) for c in v.split(",")], default=[1, 4, 16],
                    help="the rounds: how many clients send at once in each (default 1,4,16)")
    ap.add_argument("--sink", type=int, help=argparse.SUPPRESS)  # internal: run the bare server on PORT
    ap.add_argument("--durable", type=Path, help=argparse.SUPPRESS)  # internal: the sink commits to this file
    args = ap.parse_args(argv)
    if args.sink:
        sink(args.sink, args.durable)
        return {}
    rounds = [(c, [mail(k * args.n + i) for i in range(args.n)]) for k, c in enumerate(args.clients)]
    with tempfile.TemporaryDirectory() as tmp:
        g = new_game(Path(tmp))
        port = free_port()
        t_bare = run_server([sys.executable, str(HERE), "--sink", str(port)], port, rounds, Path(tmp) / "sink.log")
        port = free_port()
        t_durable = run_server([sys.executable, str(HERE), "--sink", str(port), "--durable", str(Path(tmp) / "sink.db")],
                               port, rounds, Path(tmp) / "durable.log")
        port = free_port()
        t_ours = run_server([sys.executable, "-m", "nomic", "serve", "--lmtp", f"127.0.0.1:{port}",
                             "--game", str(g.config.dir)], port, rounds, Path(tmp) / "serve.log")
        stored = journaled(g.config.dir)
    if stored != args.n * len(rounds):
        raise SystemExit(f"{stored} of {args.n * len(rounds)} messages journaled")
    r: dict[str, float] = {}
    for clients, _ in rounds:
        bare, durable, ours = args.n / t_bare[clients], args.n / t_durable[clients], args.n / t_ours[clients]
        r |= {f"bare_rate_{clients}": bare, f"durable_rate_{clients}": durable, f"ours_rate_{clients}": ours}
        if clients == 1:
            report(f"intake of {args.n:,} messages over LMTP, one serial client", [
                ("bare aiosmtpd LMTP (counts only)", f"{bare:,.0f} msgs/s"),
                ("bare + SQLite INSERT and COMMIT (FULL)", f"{durable:,.0f} msgs/s = {durable / bare:.2f} of bare: "
                 "the floor of a durable 250"),
                ("nomic serve --lmtp (journaled, committed)", f"{ours:,.0f} msgs/s = {ours / durable:.2f} of the durable sink"),
                ("ratio (nomic serve / bare)", f"{ours / bare:.2f}  {verdict(ours / bare >= 0.6)} (>= 0.60)"),
            ])
            continue
        report(f"intake of {args.n:,} more messages over LMTP, {clients} clients at once", [
            (f"bare aiosmtpd LMTP, {clients} connections", f"{bare:,.0f} msgs/s"),
            (f"bare + SQLite COMMIT, {clients} connections", f"{durable:,.0f} msgs/s = {durable / bare:.2f} of bare"),
            (f"nomic serve --lmtp, {clients} connections", f"{ours:,.0f} msgs/s = {ours / bare:.2f} of bare"),
            (f"ratio (nomic serve / durable sink, {clients})", f"{ours / durable:.2f}  "
             f"{verdict(ours / durable >= 0.8)} (>= 0.80)"),
        ])
    return r


if __name__ == "__main__":
    main()
