"""Host: N games (default 100) in one `nomic host serve`, M messages (default 20,000) spread over them
through LMTP with 4 connections, against one game's `nomic serve` taking the same messages the same way
in the same run, in alternating rounds (--rounds, default 3: the single game first in even rounds, the
host first in odd ones), medians reported; also the memory of an idle game and the time a host of N
games takes to start. Every game has first had a week of play (--week messages, default 70, spread
over seven days, folded with their answers, a clock step journaled each day), not an empty state.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from datetime import timedelta
import threading
import time
from pathlib import Path

from common import Conditions, mail, proc_cpu_seconds, report, timed, verdict
from intake import free_port, journaled, wait_listening

from nomic.create import create
from storage.config import parse_time

CONNECTIONS = 4
GAME_TOML = """\
[game]
name = "Bench {k}"
address = "ths@{domain}"
list_address = "players@{domain}"
start = "2026-01-05T00:00:00Z"
seed = "bench-seed-{k}"

[offices]
emperor = "tie@{domain}"
scribe = "ths@{domain}"

[auth]
mode = "none"
"""


def domain(k: int) -> str:
    return f"g{k}.test"


def new_game(root: Path, k: int, week: int) -> Path:
    """Game ``k``: the Imperial defaults at its own domain, authentication off (bench mail carries
    none), after a week of play: ``week`` messages over seven days, folded and answered."""
    root.mkdir(parents=True, exist_ok=True)
    cfg = root / f"g{k}.toml"
    cfg.write_text(GAME_TOML.format(k=k, domain=domain(k)))
    game = create(root / f"g{k}", cfg)
    start = parse_time("2026-01-05T00:30:00Z")
    for day in range(7):
        for i in range(day * week // 7, (day + 1) * week // 7):
            raw = mail(-1 - i).replace(b"@imperial.test", f"@{domain(k)}".encode())  # ids apart from the rounds'
            game.inbox.receive(raw, start + timedelta(days=day, minutes=i))
        game.tick(start + timedelta(days=day, hours=23))
        game.process()
    return game.config.dir


def messages(n: int, games: int, first: int = 0) -> list[tuple[str, bytes]]:
    """Message i goes to game i mod ``games``: (its envelope recipient, the mail)."""
    out = []
    for i in range(first, first + n):
        raw = mail(i).replace(b"@imperial.test", f"@{domain(i % games)}".encode())
        out.append((f"ths@{domain(i % games)}", raw))
    return out


def send(port: int, batch: list[tuple[str, bytes]]) -> float:
    """Seconds for ``CONNECTIONS`` clients, each on its own LMTP connection, to deliver the batch between them."""
    import smtplib

    def client(part: list[tuple[str, bytes]]) -> None:
        with smtplib.LMTP("127.0.0.1", port) as lmtp:
            for i, (rcpt, raw) in enumerate(part):
                lmtp.sendmail(f"p{i % 1000}@players.test", [rcpt], raw)
    threads = [threading.Thread(target=client, args=(batch[c::CONNECTIONS],)) for c in range(CONNECTIONS)]
    with timed() as t:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return t[0]


def status_mb(pid: int, field: str) -> float:
    """``VmRSS`` (resident now) or ``VmHWM`` (its peak) of the process, in MB."""
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith(field))
    return int(line.split()[1]) / 1024


def rss_mb(pid: int) -> float:
    """Resident memory now, once it has settled (the games' first rounds load their states)."""
    def now() -> float:
        return status_mb(pid, "VmRSS")
    last, deadline = now(), time.monotonic() + 30
    while time.monotonic() < deadline:
        time.sleep(1.0)
        current = now()
        if abs(current - last) < 0.5:
            return current
        last = current
    return last


PARTS = ("event loop", "journal writers", "processors")  # the server's threads, as thread_cpu sorts them


def thread_cpu(pid: int) -> tuple[float, ...]:
    """CPU seconds so far of the server's threads by part (``PARTS``), to the nanosecond (schedstat):
    the main thread runs the event loop, the processors name their threads, and the rest are the
    journal writers (no other thread runs while the benchmark delivers: no relay, no HTTP)."""
    parts = [0.0] * len(PARTS)
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            comm = (task / "comm").read_text().strip()
            ns = int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError):  # the thread has just ended
            continue
        parts[0 if task.name == str(pid) else 2 if comm.startswith("processor") else 1] += ns / 1e9
    return tuple(parts)


def serve(argv: list[str], port: int, batch: list[tuple[str, bytes]], log: Path) -> tuple[float, ...]:
    """Start the server, time its start, read its idle memory, time the delivery, stop it:
    (seconds to start listening, idle MB, seconds to deliver, peak MB once delivered, the
    server's CPU seconds while delivered to, then those of each of ``PARTS``)."""
    with log.open("w") as err, timed() as started:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        wait_listening(port, proc, log, limit=600)
    try:
        idle = rss_mb(proc.pid)
        cpu, parts = proc_cpu_seconds(proc.pid), thread_cpu(proc.pid)
        took = send(port, batch)
        used = [after - before for before, after in zip(parts, thread_cpu(proc.pid))]
        return started[0], idle, took, status_mb(proc.pid, "VmHWM"), proc_cpu_seconds(proc.pid) - cpu, *used
    finally:
        proc.terminate()
        proc.wait(timeout=900)


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games in the host")
    ap.add_argument("--messages", type=int, default=20_000, help="messages a round, spread over the games")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds; medians are reported")
    ap.add_argument("--week", type=int, default=70, help="messages of each game's week of play")
    args = ap.parse_args(argv)
    since = Conditions()
    found: dict[str, list[tuple[float, ...]]] = {"single": [], "host": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        single = new_game(root / "single", 0, args.week)
        host = root / "host"
        subprocess.run([sys.executable, "-m", "nomic", "host", "init", str(host)], check=True, capture_output=True)
        with (host / "host.toml").open("a") as f:  # what `nomic host add` writes, without a process per game
            for k in range(args.games):
                f.write(f'\n[games.g{k}]\ndir = "{new_game(root / "games", k, args.week)}"\n')
        before = journaled(single), sum(journaled(root / "games" / f"g{k}") for k in range(args.games))
        for r in range(args.rounds):
            first = r * args.messages
            runs = {"single": lambda port: ([sys.executable, "-m", "nomic", "serve", "--game", str(single),
                                             "--lmtp", f"127.0.0.1:{port}"], messages(args.messages, 1, first)),
                    "host": lambda port: ([sys.executable, "-m", "nomic", "host", "serve", str(host),
                                           "--lmtp", f"127.0.0.1:{port}"], messages(args.messages, args.games, first))}
            for kind in (["single", "host"] if r % 2 == 0 else ["host", "single"]):
                port = free_port()
                argv_, batch = runs[kind](port)
                found[kind].append(serve(argv_, port, batch, root / f"{kind}{r}.log"))
        stored = journaled(single), sum(journaled(root / "games" / f"g{k}") for k in range(args.games))
    grown = (stored[0] - before[0], stored[1] - before[1])
    if grown != (args.rounds * args.messages,) * 2:
        raise SystemExit(f"journaled {grown}, not {args.rounds * args.messages} each")

    def median(kind: str, i: int) -> float:
        return statistics.median(run[i] for run in found[kind])
    one = statistics.median(args.messages / run[2] for run in found["single"])
    many = statistics.median(args.messages / run[2] for run in found["host"])
    ratio = statistics.median(s[2] / h[2] for s, h in zip(found["single"], found["host"]))
    single_mb, host_mb, host_peak = median("single", 1), median("host", 1), median("host", 3)
    per_game = (host_mb - single_mb) / max(1, args.games - 1)

    def split(kind: str) -> str:
        return " / ".join(f"{median(kind, 5 + i) / args.messages * 1000:.2f}" for i in range(len(PARTS)))
    report(f"{args.messages:,} messages over LMTP, {CONNECTIONS} connections: one game and {args.games} games in a "
           f"host, alternating, medians of {args.rounds} rounds; every game after a week of play "
           f"({args.week} messages)", [
        ("nomic serve, one game", f"{one:,.0f} msgs/s ({median('single', 4) / args.messages * 1000:.2f} ms "
         f"server CPU each; idle: {single_mb:.0f} MB)"),
        (f"nomic host serve, {args.games} games", f"{many:,.0f} msgs/s ({median('host', 4) / args.messages * 1000:.2f} "
         f"ms server CPU each; idle: {host_mb:.0f} MB)"),
        (f"server CPU by thread, ms a message ({' / '.join(PARTS)})",
         f"one game {split('single')}; host {split('host')}"),
        ("ratio (host / one game)", f"{ratio:.2f}  {verdict(ratio >= 0.8)} (>= 0.80)"),
        ("memory per idle game (a week of play)", f"{per_game:.1f} MB  {verdict(per_game < 30)} (< 30 MB)"),
        ("memory per game in use", f"{host_peak / args.games:.1f} MB (the host's peak / {args.games})"),
        (f"start of a host of {args.games} games", f"{median('host', 0):.1f} s (until its LMTP port answers)"),
    ], since)
    return {"single_rate": one, "host_rate": many, "ratio": ratio, "mb_per_game": per_game, "start_s": median("host", 0)}


if __name__ == "__main__":
    main()
