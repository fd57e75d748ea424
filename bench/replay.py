"""Replay: `nomic replay --verify` over journals of N entries (default 10,000, 50,000 and 200,000).

Figures, all from one run, at each size, with the growth exponent of each cost from the smallest
size to the largest and from each size to the next (1.0: a flat cost per entry):
  * stdlib `email` parsing alone of every stored message: the limit for re-parsing, and the
    same-run baseline of the two below (each one's ratio to it is taken by CPU);
  * the first fold (`Game.process`, as `nomic serve` does, without mail out): parses every
    message once, keeps its commands (the cache of parsed inputs), stores events and snapshots;
    also the median CPU an entry of its 5,000-entry chunks, which a spike of the machine's load
    moves less than the whole (a cost an entry that grew with the game would raise it too);
  * `nomic replay --verify`'s work (``Game.verify``: the hash chain and a full fold from the parsed
    commands) in this process on a fresh ``Game``, so without any start-up, the first fold's game
    let go first: ROUNDS times, each just after a ROUNDS-th of the stdlib parsing above, so that
    both sides of each round's ratio meet the machine in the same state (its speed swings up to 2x
    from one half-minute to the next). The median round by CPU is judged and printed, with the
    spread of the rounds and the median of their ratios to stdlib parsing;
  * `nomic replay --verify` in a subprocess, for its peak memory (and its time less the start-up
    of the process, timed alone), then at the largest size with `--reparse` from the raw mail
    parsed again.
The journal is written in bulk with a valid hash chain (storage.append_many), not by N CLI calls.
"""
from __future__ import annotations

import argparse
import email
import gc
import statistics
import time
import email.policy
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

from common import Conditions, Game, children_cpu_seconds, growth, mail, new_game, peak_rss_mb, rate, report, sizes, timed, verdict
from sqlmodel import Session

import storage
from storage.config import parse_time

BATCH = 5000
ROUNDS = 3  # in-process verifies, each alternating with a part of the stdlib parsing
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


def stdlib_parse_seconds(g: Game, after: int, last: int) -> tuple[float, float]:
    """(seconds, CPU seconds) for stdlib `email` to parse the stored messages of entries after..last
    (the journal read is not timed)."""
    total, cpu = 0.0, 0.0
    with Session(g.db) as s:
        batch: list[bytes] = []
        for e in storage.entries(s.connection(), after=after, upto=last):
            batch.append(e.raw or b"")
            if len(batch) == BATCH or e.seq == last:
                with timed() as t:
                    for raw in batch:
                        email.message_from_bytes(raw, policy=email.policy.compat32)
                total, cpu = total + t[0], cpu + t[1]
                batch = []
    return total, cpu


def verify(game_dir: Path, *flags: str) -> tuple[float, float, float]:
    """(seconds, CPU seconds, peak MB) of `nomic replay --verify` in a fresh process."""
    cpu = children_cpu_seconds()
    with timed() as t:
        out = subprocess.run([sys.executable, "-c", CHILD, "replay", "--verify", *flags, "--game", str(game_dir)],
                             capture_output=True, text=True)
    if out.returncode != 0 or "matches" not in out.stdout:
        sys.exit(f"replay --verify {' '.join(flags)} failed: {out.stdout}{out.stderr}")
    return t[0], children_cpu_seconds() - cpu, int(out.stderr.rpartition("VmHWM:")[2].split()[0] or 0) / 1024


def start_up() -> tuple[float, float]:
    """(seconds, CPU seconds) of the same process doing nothing: `nomic --help`."""
    cpu = children_cpu_seconds()
    with timed() as t:
        subprocess.run([sys.executable, "-c", CHILD, "--help"], capture_output=True, check=True)
    return t[0], children_cpu_seconds() - cpu


def one_size(root: Path, n: int, reparse: bool) -> dict[str, float]:
    """Every figure of a journal of n entries (``reparse``: also replay --verify --reparse)."""
    g = new_game(root, f"n{n}")
    with timed() as t_gen:
        write_journal(g, n)
    r = {"n": n, "gen_s": t_gen[0]}
    chunks: list[float] = []  # the CPU an entry of each chunk
    with timed() as t_first:
        while True:  # as the daemon does, a chunk at a time
            cpu = time.process_time()
            if not (done := g.process(send=False, limit=BATCH)):
                break
            chunks.append((time.process_time() - cpu) / len(done))
    r |= {"first_s": t_first[0], "first_cpu": t_first[1], "chunk_cpu": statistics.median(chunks)}
    game_dir = g.config.dir
    del g  # the first fold's game and its state let go (and collected), as `nomic replay --verify` has none
    gc.collect()  # beside it: full collections walked it, a verify of 50,000 entries 4-8% dearer
    r |= verify_rounds(game_dir, n)
    r["cached_s"], r["cached_cpu"], r["cached_mb"] = verify(game_dir)
    if reparse:
        r["reparse_s"], r["reparse_cpu"], r["reparse_mb"] = verify(game_dir, "--reparse")
    return r


def verify_rounds(game_dir: Path, n: int) -> dict[str, float]:
    """ROUNDS in-process verifies on a fresh ``Game`` each, each after a ROUNDS-th of the journal's
    messages parsed by stdlib `email` (together the whole journal, once): the median round's time
    and CPU, the least and most CPU of a round, the median of the rounds' ratios (a verify's
    rate over the stdlib parsing's rate just before it), and the whole parse's time and CPU."""
    rounds: list[tuple[float, float, float]] = []  # (seconds, CPU seconds, ratio by CPU)
    email_s = email_cpu = 0.0
    for k in range(ROUNDS):
        fresh = Game(game_dir)
        part = (k * n // ROUNDS, (k + 1) * n // ROUNDS)
        ref_s, ref_cpu = stdlib_parse_seconds(fresh, *part)
        with timed() as t:
            ok, message = fresh.verify()
        if not ok:
            sys.exit(f"verify failed: {message}")
        del fresh
        gc.collect()
        email_s, email_cpu = email_s + ref_s, email_cpu + ref_cpu
        rounds.append((t[0], t[1], (n / max(1e-9, t[1])) / ((part[1] - part[0]) / max(1e-9, ref_cpu))))
    mid = sorted(rounds, key=lambda r: r[1])[len(rounds) // 2]
    return {"inproc_s": mid[0], "inproc_cpu": mid[1], "inproc_cpu_min": min(r[1] for r in rounds),
            "inproc_cpu_max": max(r[1] for r in rounds), "inproc_ratio": statistics.median(r[2] for r in rounds),
            "email_s": email_s, "email_cpu": email_cpu}


def _spread(n: int, r: dict[str, float]) -> str:
    """The rounds' rates of CPU, least to most, and how far apart (the most over the least)."""
    slow, fast = n / max(1e-9, r["inproc_cpu_max"]), n / max(1e-9, r["inproc_cpu_min"])
    return f"{slow:,.0f} to {fast:,.0f}/s of CPU ({fast / slow:.2f}x) over {ROUNDS} rounds"


def _ratio(base_cpu: float, cpu: float) -> str:
    """The rate over the baseline's rate, by CPU: 1.00 as fast as parsing alone, 0.50 half as fast."""
    return f"{base_cpu / max(1e-9, cpu):.2f} by CPU (rate / stdlib parsing's rate)"


def _steps(runs: list[dict[str, float]]) -> list[tuple[str, str]]:
    """The growth exponent of each CPU from each size to the next, where there are more than two
    sizes: where a cost per entry starts to rise."""
    if len(runs) < 3:
        return []
    return [(f"  step {int(a['n']):,} to {int(b['n']):,} entries",
             f"first fold {growth([int(a['n']), int(b['n'])], [a['first_cpu'], b['first_cpu']]):.2f}, "
             f"replay --verify {growth([int(a['n']), int(b['n'])], [a['inproc_cpu'], b['inproc_cpu']]):.2f}")
            for a, b in zip(runs, runs[1:])]


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=sizes, default=[10_000, 50_000, 200_000], help="journal entries, e.g. 10000,200000")
    args = ap.parse_args(argv)
    since = Conditions()
    boot_s, boot_cpu = start_up()
    with tempfile.TemporaryDirectory() as tmp:
        runs = [one_size(Path(tmp), n, reparse=n == args.n[-1]) for n in args.n]
    rows = [("start-up of the replay process (subtracted)", f"{boot_s:.2f} s ({boot_cpu:.2f} s CPU)")]
    for r in runs:
        n = int(r["n"])
        verify_s, verify_cpu = max(1e-6, r["cached_s"] - boot_s), max(0.0, r["cached_cpu"] - boot_cpu)
        r["cached_rate"], r["inproc_rate"] = n / verify_s, n / max(1e-6, r["inproc_cpu"])
        rows += [
            (f"{n:,} entries: journal written (bulk)", f"{r['gen_s']:.1f} s"),
            ("  stdlib email parsing alone", rate(n, r["email_s"], r["email_cpu"])),
            ("  first fold (Game.process: parse, fold, store)", rate(n, r["first_s"], r["first_cpu"], "entries")),
            ("  ratio (first fold / stdlib parsing alone)", _ratio(r["email_cpu"], r["first_cpu"])),
            (f"  first fold, the median of its {BATCH:,}-entry chunks", f"{r['chunk_cpu'] * 1000:.3f} ms CPU an entry"),
            ("  replay --verify's work in process (no start-up)", rate(n, r["inproc_s"], r["inproc_cpu"], "entries") +
             f"; {r['inproc_rate']:,.0f}/s of CPU, the median of {ROUNDS} rounds  "
             f"{verdict(r['inproc_rate'] >= 20_000)} (>= 20,000/s of CPU)"),
            ("  its rounds", _spread(n, r)),
            ("  ratio (replay --verify / stdlib parsing alone)",
             f"{r['inproc_ratio']:.2f} by CPU (rate / stdlib parsing's rate), the median of {ROUNDS} rounds, each "
             "against the parsing just before it"),
            ("  replay --verify, a process less its start-up",
             rate(n, verify_s, verify_cpu, "entries") if r["cached_s"] > boot_s else
             "not resolved (the process took less than the start-up measured apart: the machine's speed moved)"),
            ("  its peak memory", f"{r['cached_mb']:,.0f} MB  {verdict(r['cached_mb'] < 500)} (< 500 MB)"),
        ]
    big = runs[-1]
    n = int(big["n"])
    reparse_rate, email_rate = n / big["reparse_s"], n / big["email_s"]
    rows += [
        (f"{n:,} entries: replay --verify --reparse", rate(n, big["reparse_s"], big["reparse_cpu"], "entries") +
         f" = {reparse_rate / email_rate:.2f} of stdlib email  {verdict(reparse_rate >= 1500)} (>= 1,500/s)"),
        ("  its peak memory", f"{big['reparse_mb']:,.0f} MB  {verdict(big['reparse_mb'] < 500)} (< 500 MB)"),
        ("peak memory of this script", f"{peak_rss_mb():,.0f} MB"),
    ]
    ns = [int(r["n"]) for r in runs]
    exponents = {"first": growth(ns, [r["first_cpu"] for r in runs]),
                 "verify": growth(ns, [r["inproc_cpu"] for r in runs])}
    goal = growth(ns, [ns[0], 1.2 * ns[-1]])  # the first fold's CPU per entry within 1.2x (issue 33)
    rows += [(f"growth exponent of CPU, {ns[0]:,} to {ns[-1]:,} entries",
              f"first fold {exponents['first']:.2f}  {verdict(exponents['first'] <= goal)} (<= {goal:.2f}: within "
              f"1.2x per entry), replay --verify {exponents['verify']:.2f} (1.00: flat per entry)")]
    rows += [("  the first fold's median chunk, CPU an entry",
              f"{runs[-1]['chunk_cpu'] / runs[0]['chunk_cpu']:.2f}x from {ns[0]:,} to {ns[-1]:,} entries "
              "(the steady cost an entry, which a spike of the load moves less than the whole)")]
    rows += _steps(runs)
    report(f"replay of journals of {', '.join(f'{n:,}' for n in ns)} entries", rows, since)
    return {"first_rate": n / big["first_s"], "cached_rate": big["cached_rate"], "reparse_rate": reparse_rate,
            "verify_cpu_rate": big["inproc_rate"],
            "cached_mb": big["cached_mb"], "first_growth": exponents["first"], "verify_growth": exponents["verify"]}


if __name__ == "__main__":
    main()
