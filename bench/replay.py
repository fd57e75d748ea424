"""Replay: `nomic replay --verify` over a journal of N entries (default 200,000).

Figures, all from one run:
  * stdlib `email` parsing alone of every stored message: the limit for re-parsing;
  * turning every entry into engine commands (our parser + grammar), in process;
  * folding the already-parsed commands through the engine: the rate a cache of parsed
    commands would give (there is no such cache yet; see docs/performance.md);
  * `nomic replay --verify` in a subprocess (chain check + full re-parse + fold), with peak memory.
The journal is written in bulk with a valid hash chain (storage.append_many), not by N CLI calls.
"""
from __future__ import annotations

import argparse
import email
import email.policy
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from common import Game, mail, new_game, peak_rss_mb, report, timed, verdict
from sqlmodel import Session

import engine
from nomic import storage
from nomic.config import parse_time
from nomic.storage import Snapshot

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


def measure(g: Game, state, entries: list, t_email: list[float], t_parse: list[float],
            t_fold: list[float]) -> None:
    """Add the times of stdlib parsing, our parsing and the fold of ``entries`` to the totals."""
    with timed() as t:
        for e in entries:
            email.message_from_bytes(e.raw or b"", policy=email.policy.compat32)
    t_email[0] += t[0]
    with timed() as t:
        inputs = [g._input(e) for e in entries]
    t_parse[0] += t[0]
    with timed() as t:
        for inp in inputs:
            engine.apply(state, inp, g.engine_config)
    t_fold[0] += t[0]


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000, help="journal entries")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        g = new_game(Path(tmp))
        with timed() as t_gen:
            write_journal(g, args.n)
        state = g.new_state()
        t_email, t_parse, t_fold = [0.0], [0.0], [0.0]
        with Session(g.db) as s:  # in batches: memory stays flat however long the journal
            batch: list = []
            for e in storage.entries(s.connection()):
                batch.append(e)
                if len(batch) == BATCH:
                    measure(g, state, batch, t_email, t_parse, t_fold)
                    batch = []
            measure(g, state, batch, t_email, t_parse, t_fold)
        with Session(g.db) as s:  # the folded state becomes the stored one, as after `process`
            s.add(Snapshot(seq=args.n, state=state.model_dump_json()))
            storage.set_meta(s, "processed_seq", str(args.n))
            s.commit()
        with timed() as t_verify:
            out = subprocess.run([sys.executable, "-c", CHILD, "replay", "--verify", "--game", str(g_dir(tmp))],
                                 capture_output=True, text=True)
        child_mb = int(out.stderr.rpartition("VmHWM:")[2].split()[0] or 0) / 1024
        if out.returncode != 0 or "matches" not in out.stdout:
            sys.exit(f"replay --verify failed: {out.stdout}{out.stderr}")
    n = args.n
    r = {"email_rate": n / t_email[0], "parse_rate": n / t_parse[0], "fold_rate": n / t_fold[0],
         "verify_rate": n / t_verify[0], "verify_mb": child_mb, "gen_rate": n / t_gen[0]}
    report(f"replay of {n:,} journal entries", [
        ("journal written (bulk, hash-chained)", f"{t_gen[0]:.1f} s ({r['gen_rate']:,.0f}/s)"),
        ("stdlib email parsing alone", f"{r['email_rate']:,.0f} msgs/s"),
        ("our parsing (mail + grammar -> commands)", f"{r['parse_rate']:,.0f} msgs/s"
         f"  = {r['parse_rate'] / r['email_rate']:.2f} of stdlib email"),
        ("fold from parsed commands (engine only)", f"{r['fold_rate']:,.0f} entries/s  "
         f"{verdict(r['fold_rate'] >= 20_000)} (>= 20,000/s)"),
        ("nomic replay --verify (re-parsing)", f"{r['verify_rate']:,.0f} entries/s  "
         f"= {r['verify_rate'] / r['email_rate']:.2f} of stdlib email  {verdict(r['verify_rate'] >= 1500)} (>= 1,500/s)"),
        ("peak memory of replay --verify", f"{child_mb:,.0f} MB  {verdict(child_mb < 500)} (< 500 MB)"),
        ("peak memory of this script", f"{peak_rss_mb():,.0f} MB"),
    ])
    return r


def g_dir(tmp: str) -> Path:
    return Path(tmp) / "game"


if __name__ == "__main__":
    main()
