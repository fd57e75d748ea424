"""Host: N games (default 100) in one `nomic host serve`, M messages (default 20,000) spread over them
through LMTP with 4 connections, against one game's `nomic serve` taking the same messages the same way
in the same run; also the memory of an idle game and the time a host of N games takes to start.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import mail, report, timed, verdict
from intake import free_port, journaled, wait_listening

from nomic.game import Game

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


def new_game(root: Path, k: int) -> Path:
    """Game ``k``: the Imperial defaults at its own domain, authentication off (bench mail carries none)."""
    root.mkdir(parents=True, exist_ok=True)
    cfg = root / f"g{k}.toml"
    cfg.write_text(GAME_TOML.format(k=k, domain=domain(k)))
    return Game.create(root / f"g{k}", cfg).config.dir


def messages(n: int, games: int) -> list[tuple[str, bytes]]:
    """Message i goes to game i mod ``games``: (its envelope recipient, the mail)."""
    out = []
    for i in range(n):
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


def serve(argv: list[str], port: int, batch: list[tuple[str, bytes]], log: Path) -> tuple[float, float, float, float]:
    """Start the server, time its start, read its idle memory, time the delivery, stop it:
    (seconds to start listening, idle MB, seconds to deliver, peak MB once delivered)."""
    with log.open("w") as err, timed() as started:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        wait_listening(port, proc, log, limit=600)
    try:
        idle = rss_mb(proc.pid)
        took = send(port, batch)
        return started[0], idle, took, status_mb(proc.pid, "VmHWM")
    finally:
        proc.terminate()
        proc.wait(timeout=900)


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games in the host")
    ap.add_argument("--messages", type=int, default=20_000, help="messages, spread over the games")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        single = new_game(root / "single", 0)
        host = root / "host"
        subprocess.run([sys.executable, "-m", "nomic", "host", "init", str(host)], check=True, capture_output=True)
        with (host / "host.toml").open("a") as f:  # what `nomic host add` writes, without a process per game
            for k in range(args.games):
                f.write(f'\n[games.g{k}]\ndir = "{new_game(root / "games", k)}"\n')
        port = free_port()
        _, single_mb, t_single, _ = serve([sys.executable, "-m", "nomic", "serve", "--game", str(single),
                                        "--lmtp", f"127.0.0.1:{port}"], port, messages(args.messages, 1),
                                       root / "serve.log")
        port = free_port()
        start, host_mb, t_host, host_peak = serve([sys.executable, "-m", "nomic", "host", "serve", str(host),
                                        "--lmtp", f"127.0.0.1:{port}"], port, messages(args.messages, args.games),
                                       root / "host.log")
        stored = journaled(single), sum(journaled(root / "games" / f"g{k}") for k in range(args.games))
    if stored != (args.messages, args.messages):
        raise SystemExit(f"journaled {stored}, not {args.messages} each")
    one, many = args.messages / t_single, args.messages / t_host
    per_game = (host_mb - single_mb) / max(1, args.games - 1)
    report(f"{args.messages:,} messages over LMTP, {CONNECTIONS} connections: one game, then {args.games} games in a host", [
        ("nomic serve, one game", f"{one:,.0f} msgs/s (idle: {single_mb:.0f} MB)"),
        (f"nomic host serve, {args.games} games", f"{many:,.0f} msgs/s (idle: {host_mb:.0f} MB)"),
        ("ratio (host / one game)", f"{many / one:.2f}  {verdict(many / one >= 0.8)} (>= 0.80)"),
        ("memory per idle game", f"{per_game:.1f} MB  {verdict(per_game < 30)} (< 30 MB)"),
        ("memory per game in use", f"{host_peak / args.games:.1f} MB (the host's peak / {args.games})"),
        (f"start of a host of {args.games} games", f"{start:.1f} s (until its LMTP port answers)"),
    ])
    return {"single_rate": one, "host_rate": many, "ratio": many / one, "mb_per_game": per_game, "start_s": start}


if __name__ == "__main__":
    main()
