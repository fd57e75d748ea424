"""Intake: N messages (default 5,000), Proposals and list posts of ordinary size, sent over LMTP on
loopback by 1, 4 and 16 clients at once, each in its own process over its own connection (so the
clients share neither the servers' nor this script's GIL), to three servers in turn: a bare
aiosmtpd LMTP server in its own process whose handler only counts; the same with every message
INSERTed into a bare SQLite table (WAL, synchronous=FULL) before its 250, committed by nomic's own
group-commit writer (mailer.intake.JournalWriter: one thread committing every waiting message in
one transaction), the durable sink; and `nomic serve` (a subprocess with a new game: every message
journaled and committed before its 250, the processor folding and answering behind it, as in
production). Every server reads envelope addresses with nomic's reader (mailer.envelope), so the
baselines pay no parsing that nomic does not. Two clocks: until the last 250, and until the last
entry is folded and its answers queued (the sinks defer nothing: the same for them). The three
servers of a round run back to back, fresh, and every round is repeated (--repeat): the machine's
load swings by minutes, so each ratio is taken against its own round and the median reported,
with the servers' CPU per message, which the load sways far less than their rates. Each server's
clock starts once it has settled after the warm-up (``settled``). nomic serve's
CPU is also split by thread (/proc/PID/task): its intake (the event loop and the journal writer)
and the fold (the threads nomic.thread_names calls processor, indexer, sender), and intake's alone
is set against the sinks', which fold nothing.
"""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import multiprocessing.synchronize
import os
import smtplib
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from common import GAME, Conditions, mail, new_game, proc_cpu_seconds, report, verdict

HERE = Path(__file__).resolve()
WARM = 20  # messages each server takes before the timing starts (its first answers compile templates)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Stored:
    """What the durable sink gives the writer for each message (the Receipt fields it reads)."""
    seq: int
    status: str = "stored"


class BareJournal:
    """The durable sink's store: each batch INSERTed into a bare SQLite table in one transaction
    (WAL, synchronous=FULL, as nomic's journal): the floor of any server that keeps the promise a
    250 makes, with no parsing, hashing or SQLAlchemy. Used by one writer thread only."""

    def __init__(self, path: Path):
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE mail (id INTEGER PRIMARY KEY, raw BLOB)")

    def receive_many(self, batch: list[bytes]) -> list[Stored]:
        self.db.execute("BEGIN IMMEDIATE")
        first = self.db.execute("SELECT coalesce(max(id), 0) + 1 FROM mail").fetchone()[0]
        self.db.executemany("INSERT INTO mail (raw) VALUES (?)", [(raw,) for raw in batch])
        self.db.execute("COMMIT")
        return [Stored(first + k) for k in range(len(batch))]


def sink(port: int, durable: Path | None = None) -> None:
    """The baseline: aiosmtpd's LMTP reading addresses as nomic does, with a handler that only
    counts, or (``durable``) that has nomic's group-commit writer store the message in a bare
    SQLite table before its 250. Runs until killed."""
    from aiosmtpd.lmtp import LMTP

    from mailer.envelope import QuickAddress
    from mailer.intake import JournalWriter

    class QuickLMTP(QuickAddress, LMTP):
        """aiosmtpd's LMTP with nomic's envelope address reader."""

    writer = JournalWriter(BareJournal(durable)).start() if durable else None  # type: ignore[arg-type]

    class Count:
        n = 0

        async def handle_DATA(self, server, session, envelope) -> str:
            Count.n += 1
            if writer is not None:
                await writer.submit(envelope.original_content)  # type: ignore[arg-type]
            return "250 OK"

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        await loop.create_server(lambda: QuickLMTP(Count()), "127.0.0.1", port)
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


def client(port: int, share: list[bytes], ready: multiprocessing.synchronize.Barrier) -> None:
    """One client process: connect, wait for the others, deliver its share over one connection."""
    lmtp = smtplib.LMTP("127.0.0.1", port)
    lmtp.ehlo_or_helo_if_needed()
    ready.wait()
    for i, raw in enumerate(share):
        lmtp.sendmail(f"p{i % 1000}@players.test", [GAME], raw)
    lmtp.quit()


def send_all(port: int, messages: list[bytes], clients: int = 1) -> float:
    """Seconds for ``clients`` client processes, each over its own LMTP connection, to deliver
    every message (from the moment all are connected)."""
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Barrier(clients + 1)
    procs = [ctx.Process(target=client, args=(port, messages[k::clients], ready)) for k in range(clients)]
    for proc in procs:
        proc.start()
    ready.wait()
    t0 = time.perf_counter()
    for proc in procs:
        proc.join()
    took = time.perf_counter() - t0
    if any(proc.exitcode for proc in procs):
        raise SystemExit("a client failed")
    return took


def folded(game_db: Path | None, total: int, limit: float = 900) -> None:
    """Wait until the game has folded ``total`` entries (their answers are queued in the same
    transaction); at once for a sink (``game_db`` None)."""
    if game_db is None:
        return
    deadline = time.monotonic() + limit
    db = sqlite3.connect(f"file:{game_db}?mode=ro", uri=True, timeout=30)
    try:
        while time.monotonic() < deadline:
            row = db.execute("SELECT value FROM meta WHERE key = 'processed_seq'").fetchone()
            if row and int(row[0]) >= total:
                return
            time.sleep(0.02)
    finally:
        db.close()
    raise SystemExit(f"{total} entries not folded in {limit:.0f} s")


def settled(pid: int, quiet: float = 0.01, every: float = 0.6, times: int = 2, limit: float = 60) -> None:
    """Wait until the server has done what the warm-up left it (nomic serve: the site build after
    the warm-up's fold, ~1.5 s, and its Pagefind run): until it and its child processes spend under
    ``quiet`` CPU seconds in each of ``times`` spans of ``every`` seconds in a row (a due rebuild
    looks again 0.5 s after mail stopped: nomic.daemon.SITE_RECHECK). The sinks leave nothing, so
    without this only nomic's clock would start with its warm-up's work still running, counted
    against the messages timed."""
    deadline = time.monotonic() + limit
    last, calm = family_cpu_seconds(pid), 0
    while calm < times and time.monotonic() < deadline:
        time.sleep(every)
        now = family_cpu_seconds(pid)
        calm = calm + 1 if 0 <= now - last < quiet else 0  # (less than before: a child ended meanwhile)
        last = now


def family_cpu_seconds(pid: int) -> float:
    """The CPU so far of a process and of the children it is running (a child that ended is left out:
    only a running child can still take CPU)."""
    total = 0.0
    try:
        total += proc_cpu_seconds(pid)
        for task in Path(f"/proc/{pid}/task").iterdir():
            total += sum(family_cpu_seconds(int(c)) for c in (task / "children").read_text().split())
    except FileNotFoundError:  # it ended meanwhile
        pass
    return total


FOLD_THREADS = ("processor", "indexer", "sender")  # nomic serve's threads that are not intake (nomic.thread_names)


def intake_cpu_seconds(pid: int) -> float:
    """The CPU so far of a server's intake threads: every thread but those the kernel calls by a name
    in ``FOLD_THREADS``. For nomic serve, the event loop and the journal writer; for a sink, all of
    it. Intake's threads live as long as the server, so a difference of two readings is exact; the
    fold's CPU is the process's less intake's (an indexer thread that ended is still counted there)."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            if (task / "comm").read_text().strip().startswith(FOLD_THREADS):
                continue
            fields = (task / "stat").read_text().rpartition(")")[2].split()
        except FileNotFoundError:  # the thread ended meanwhile
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@dataclass
class Round:
    """One server taking one round of messages: wall and server CPU seconds until the last 250,
    and until the last entry was folded and answered; and of that CPU, its intake threads' alone."""
    seconds: float
    cpu: float
    seconds_folded: float
    cpu_folded: float
    intake: float
    intake_folded: float


def run_round(argv: list[str], port: int, clients: int, messages: list[bytes], log: Path,
              game_db: Path | None) -> Round:
    """Start the server (its log to a file: a full pipe would stall it), warm it with the first
    ``WARM`` messages (folded, for nomic), time ``clients`` clients sending the rest and the server
    folding them, stop it."""
    warm, messages = messages[:WARM], messages[WARM:]
    with log.open("w") as err:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        try:
            wait_listening(port, proc, log)
            send_all(port, warm, clients)
            folded(game_db, WARM)
            settled(proc.pid)
            cpu, own, t0 = proc_cpu_seconds(proc.pid), intake_cpu_seconds(proc.pid), time.perf_counter()
            seconds = send_all(port, messages, clients)
            cpu_sent, own_sent = proc_cpu_seconds(proc.pid) - cpu, intake_cpu_seconds(proc.pid) - own
            folded(game_db, WARM + len(messages))
            return Round(seconds, cpu_sent, time.perf_counter() - t0, proc_cpu_seconds(proc.pid) - cpu,
                         own_sent, intake_cpu_seconds(proc.pid) - own)
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
                game_db = tmp / name / "game.db" if kind == "ours" else None
                found.setdefault((clients, kind), []).append(
                    run_round(argv, port, clients, messages, tmp / f"{name}-{kind}.log", game_db))
            if (stored := journaled(tmp / name)) != n + WARM:
                raise SystemExit(f"{stored} of {n + WARM} messages journaled in round {name}")
    return found


def median_rate(n: int, rounds: list[Round], until_folded: bool = False) -> float:
    return statistics.median(n / (r.seconds_folded if until_folded else r.seconds) for r in rounds)


def cpu_ms(n: int, rounds: list[Round], until_folded: bool = False, intake: bool = False) -> float:
    """The server's CPU per message (ms), median of the rounds: what it costs, whatever the load;
    with ``intake``, its intake threads' alone."""
    def seconds(r: Round) -> float:
        if intake:
            return r.intake_folded if until_folded else r.intake
        return r.cpu_folded if until_folded else r.cpu
    return statistics.median(seconds(r) / n * 1000 for r in rounds)


def cpu_ratio(ours: list[Round], base: list[Round]) -> float:
    """The baseline's CPU a message over nomic serve's intake threads', until the last 250, each
    repetition against its own round; the median (like the rate ratios: above 1, nomic costs less)."""
    return statistics.median(b.cpu / o.intake for o, b in zip(ours, base))


def ratio(ours: list[Round], base: list[Round], until_folded: bool = False) -> float:
    """nomic serve's rate over the baseline's, each repetition against its own round; the median."""
    return statistics.median(b.seconds / (o.seconds_folded if until_folded else o.seconds)
                             for o, b in zip(ours, base))


def figures(n: int, rounds: list[Round], until_folded: bool = False, split: bool = False) -> str:
    """A rate and the server's CPU a message; with ``split``, that CPU's share of its intake threads
    and of the fold (nomic serve)."""
    total = cpu_ms(n, rounds, until_folded)
    shares = ""
    if split:
        own = cpu_ms(n, rounds, until_folded, intake=True)
        shares = f": intake {own:.2f}, the fold {total - own:.2f}"
    return f"{median_rate(n, rounds, until_folded):,.0f} msgs/s ({total:.2f} ms server CPU each{shares})"


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
    since = Conditions()
    with tempfile.TemporaryDirectory() as tmp:
        found = measure(args.n, args.clients, args.repeat, Path(tmp))
    n, r = args.n, {}
    for clients in args.clients:
        bare, durable, ours = (found[clients, kind] for kind in ("bare", "durable", "ours"))
        of_bare, of_durable = ratio(ours, bare), ratio(ours, durable)
        of_durable_folded = ratio(ours, durable, until_folded=True)
        cpu_of_durable = cpu_ratio(ours, durable)
        r |= {f"{kind}_rate_{clients}": median_rate(n, found[clients, kind]) for kind in ("bare", "durable", "ours")}
        r |= {f"ours_folded_rate_{clients}": median_rate(n, ours, True), f"ours_of_durable_{clients}": of_durable,
              f"ours_of_durable_folded_{clients}": of_durable_folded, f"ours_cpu_ms_{clients}": cpu_ms(n, ours),
              f"ours_cpu_ms_folded_{clients}": cpu_ms(n, ours, True),
              f"ours_intake_cpu_ms_{clients}": cpu_ms(n, ours, intake=True),
              f"durable_cpu_of_intake_{clients}": cpu_of_durable}
        report(f"intake of {n:,} messages over LMTP, {clients} client process(es) at once, medians of {args.repeat}", [
            ("bare aiosmtpd LMTP (counts only)", figures(n, bare)),
            ("durable sink (group commit, FULL)", figures(n, durable)),
            ("nomic serve --lmtp, until the last 250", figures(n, ours, split=True)),
            ("nomic serve, until the last entry folded", figures(n, ours, True, split=True) + ", answers queued"),
            ("ratio (nomic serve / durable sink)", f"{of_durable:.2f}" + (
                "" if clients == 1 else f"  {verdict(of_durable >= 0.8)} (>= 0.80)")),
            ("ratio (nomic serve folded / durable sink)", f"{of_durable_folded:.2f}"),
            ("ratio (nomic serve / bare)", f"{of_bare:.2f}" + (
                f"  {verdict(of_bare >= 0.6)} (>= 0.60)" if clients == 1 else "")),
            ("CPU a message, durable sink / nomic's intake", f"{cpu_of_durable:.2f} (intake's threads alone, to the last 250)"),
            ("CPU a message, bare / nomic's intake", f"{cpu_ratio(ours, bare):.2f} (the same)"),
        ], since)
    return r


if __name__ == "__main__":
    main()
