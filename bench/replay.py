"""Replay: `nomic replay --verify` over a journal of N entries (default 200,000).

Figures, all from one run:
  * stdlib `email` parsing alone of every stored message: the limit for re-parsing;
  * the first fold (`Game.process`, as `nomic serve` does, without mail out): parses every
    message once, keeps its commands (the cache of parsed inputs), stores events and snapshots;
  * `nomic replay --verify` in a subprocess: the hash chain and a full fold from the parsed
    commands, then with `--reparse` from the raw mail parsed again; each with its peak memory.
The journal is written in bulk with a valid hash chain (storage.append_many), not by N CLI calls.
"""
from __future__ import annotations

import argparse
import email
import email.policy
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

from common import Game, mail, new_game, peak_rss_mb, report, timed, verdict
from sqlmodel import Session

import storage
from storage.config import parse_time

BATCH = 5000
# `nomic` itself, then its own peak memory: VmHWM belongs to this process image (getrusage's
# RUSAGE_CHILDREN would also count the parent's pages shared until exec)
CHILD = """import atexit, sys
atexit.register(lambda: sys.stderr.write([l for l in open("/proc/self/status") if l.startswith("VmHWM")][0]))
from nomic.cli import main
sys.argv[0] = "nomic"
main()
"""


def write_journal(g: Game, n: int) -> None:
    """N mail entries, one in ten a Proposal, the rest list posts, a second apart."""
    t0 = parse_time("2026-01-05T00:30:00Z")
    meta = {"source": "bench", "mail_from": None, "rcpt_to": None,
            "auth": {"authenticated": True, "method": "bench", "detail": ""}}
    with Session(g.db) as s:
        for start in range(0, n, BATCH):
            items = []
            for i in range(start, min(n, start + BATCH)):
                raw = mail(i * 3 + (1 if i % 10 == 0 else 0))  # mail(k): a Proposal unless k % 3 == 0
                items.append(("mail", t0 + timedelta(seconds=i), f"<bench-{i}>", raw, meta))
            storage.append_many(s.connection(), items)
            s.commit()


def stdlib_parse_seconds(g: Game) -> float:
    """Seconds for stdlib `email` to parse every stored message (the journal read is not timed)."""
    total, last = 0.0, g.journal_length()
    with Session(g.db) as s:
        batch: list[bytes] = []
        for e in storage.entries(s.connection()):
            batch.append(e.raw or b"")
            if len(batch) == BATCH or e.seq == last:
                with timed() as t:
                    for raw in batch:
                        email.message_from_bytes(raw, policy=email.policy.compat32)
                total += t[0]
                batch = []
    return total


def verify(game_dir: Path, *flags: str) -> tuple[float, float]:
    """(seconds, peak MB) of `nomic replay --verify` in a fresh process."""
    with timed() as t:
        out = subprocess.run([sys.executable, "-c", CHILD, "replay", "--verify", *flags, "--game", str(game_dir)],
                             capture_output=True, text=True)
    if out.returncode != 0 or "matches" not in out.stdout:
        sys.exit(f"replay --verify {' '.join(flags)} failed: {out.stdout}{out.stderr}")
    return t[0], int(out.stderr.rpartition("VmHWM:")[2].split()[0] or 0) / 1024


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000, help="journal entries")
    args = ap.parse_args(argv)
    n = args.n
    with tempfile.TemporaryDirectory() as tmp:
        g = new_game(Path(tmp))
        with timed() as t_gen:
            write_journal(g, n)
        t_email = stdlib_parse_seconds(g)
        with timed() as t_first:
            while g.process(send=False, limit=BATCH):  # as the daemon does, a chunk at a time
                pass
        t_cached, mb_cached = verify(g.config.dir)
        t_reparse, mb_reparse = verify(g.config.dir, "--reparse")
    r = {"gen_rate": n / t_gen[0], "email_rate": n / t_email, "first_rate": n / t_first[0],
         "cached_rate": n / t_cached, "cached_mb": mb_cached, "reparse_rate": n / t_reparse,
         "reparse_mb": mb_reparse}
    report(f"replay of {n:,} journal entries", [
        ("journal written (bulk, hash-chained)", f"{t_gen[0]:.1f} s ({r['gen_rate']:,.0f}/s)"),
        ("stdlib email parsing alone", f"{r['email_rate']:,.0f} msgs/s"),
        ("first fold (Game.process: parse, fold, store)", f"{t_first[0]:.1f} s ({r['first_rate']:,.0f} entries/s)"),
        ("replay --verify from parsed commands", f"{t_cached:.1f} s: {r['cached_rate']:,.0f} entries/s  "
         f"{verdict(r['cached_rate'] >= 20_000)} (>= 20,000/s)"),
        ("  its peak memory", f"{mb_cached:,.0f} MB  {verdict(mb_cached < 500)} (< 500 MB)"),
        ("replay --verify --reparse (mail parsed again)", f"{t_reparse:.1f} s: {r['reparse_rate']:,.0f} entries/s"
         f" = {r['reparse_rate'] / r['email_rate']:.2f} of stdlib email  {verdict(r['reparse_rate'] >= 1500)}"
         " (>= 1,500/s)"),
        ("  its peak memory", f"{mb_reparse:,.0f} MB  {verdict(mb_reparse < 500)} (< 500 MB)"),
        ("peak memory of this script", f"{peak_rss_mb():,.0f} MB"),
    ])
    return r


if __name__ == "__main__":
    main()
