"""Fan-out: the Bell Tower's chime (rule 19) to N subscribers (default 100,000) queued in the outbox.

The whole production path is timed: a clock step ends the day, `Game.process` folds it, composes
the chime and queues it in the outbox for every subscriber in the same transaction; then the
sender's first claim writes one delivery per subscriber from it (`mailer.outbox.claim_batch`, in a
transaction of its own, rolled back). The baseline, same run, same database kind: a bare bulk
INSERT of N rows of the delivery's shape into a scratch table.
"""
from __future__ import annotations

import argparse
import tempfile
from datetime import timedelta
from pathlib import Path

from common import Conditions, new_game, report, timed, took, verdict
from sqlalchemy import text
from sqlmodel import Session

from engine.state import Subscriber
from mailer.outbox import claim_batch, listing
from storage.tables import Snapshot


def bare_insert(db, n: int) -> list[float]:
    """[seconds, CPU seconds] of one bulk INSERT of n delivery-shaped rows, committed."""
    with Session(db) as s:
        s.execute(text("CREATE TABLE bench_sink (id INTEGER PRIMARY KEY, outbox_id INTEGER, rcpt TEXT, "
                       "status TEXT, attempts INTEGER, next_attempt TEXT)"))
        s.commit()
        with timed() as t:
            s.execute(text("INSERT INTO bench_sink (outbox_id, rcpt, status, attempts, next_attempt) "
                           "VALUES (1, :rcpt, 'queued', 0, '')"),
                      [{"rcpt": f"s{i}@subscribers.test"} for i in range(n)])
            s.commit()
    return t


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000, help="subscribers")
    args = ap.parse_args(argv)
    since = Conditions()
    with tempfile.TemporaryDirectory() as tmp:
        g = new_game(Path(tmp), day_mode="fixed")
        state = g.state()
        state.subscribers = [Subscriber(email=f"s{i}@subscribers.test") for i in range(args.n)]
        with Session(g.db) as s:  # the subscribers join the stored state directly
            s.merge(Snapshot(seq=0, state=state.model_dump_json()))
            s.commit()
        g._state = None
        due = state.day_started + timedelta(days=1)  # the end of day 1 (fixed 24 h days)
        if g.tick(due) is None:
            raise SystemExit("no day end is due")
        with timed() as t_chime:
            g.process()
        with Session(g.db) as s:
            queued = sum(1 for r in listing(s) if r["deliveries"].get("queued")
                         for a in r["to"] if a.endswith("@subscribers.test"))  # not TIE's copy
        with timed() as t_claim, g.db.connect() as conn, conn.begin() as tx:
            claim_batch(conn, "bench", due, due, 100)
            tx.rollback()
        base = bare_insert(g.db, args.n)
    if queued < args.n:
        raise SystemExit(f"only {queued} deliveries queued for {args.n} subscribers")
    r = {"chime_s": t_chime[0], "chime_cpu": t_chime[1], "bare_s": base[0], "bare_cpu": base[1], "queued": queued}
    report(f"fan-out of a chime to {args.n:,} subscribers", [
        ("day end + chime queued (Game.process)", f"{took(t_chime[0], t_chime[1], 2, 's')}, {queued:,} deliveries  "
         f"{verdict(t_chime[0] < 5)} (< 5 s)"),
        ("bare bulk INSERT of as many rows", took(base[0], base[1], 2, "s")),
        ("ratio (bare time / chime time)",
         f"{base[0] / t_chime[0]:.2f} ({base[1] / max(1e-9, t_chime[1]):.2f} by CPU)"),
    ], since)
    report("the chime's deliveries, written by the sender", [
        ("its first claim of a batch (mailer.outbox.claim_batch)", f"{t_claim[0]:.2f} s ({t_claim[1]:.2f} s CPU)")], since)
    return r


if __name__ == "__main__":
    main()
