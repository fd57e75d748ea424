"""The worst message an attacker can send costs at most a few times an ordinary one (issue 13).

Times reading (parse + grammar: what the fold does to a new journal entry) and the whole path
(journal, fold, answer) for an ordinary Proposal, a plain-text Proposal at the 1 MB size limit,
the attacks that once stalled a game, and a fuzz corpus drawn from the hypothesis strategies
of tests/faults/hostile.py (derandomized: the same corpus every run). Each figure is the best
of a few runs, timed in the same run as its baseline.

The target compares like with like: reading any message costs time in its size, so the worst
attack and the worst fuzz message are held to ``TARGET`` times the largest ordinary message,
a plain-text Proposal at the size limit; their ratio to a 1.5 KB Proposal is shown too.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

from common import BODY, Conditions, GAME, mail, new_game, report, verdict
from hypothesis import HealthCheck, given, settings

from mailer import grammar
from mailer.message import parse
from tests.faults.hostile import hostile_mail
from engine.ruleset import ruleset_for
from mailer.grammar import Grammar

GRAMMAR = Grammar(ruleset_for("imperial").commands)

LIMIT = 1024 * 1024  # [smtp] max_message_size's default
TARGET = 6.0  # "a few times"


def message(body: str, subject: str = "Proposal: Cake", ctype: str = "text/plain", i: int = 0) -> bytes:
    return (f"From: Mallory <mallory@evil.example>\r\nTo: {GAME}\r\nSubject: {subject}\r\n"
            f"Message-ID: <hostile-{i}-{time.perf_counter_ns()}@evil.example>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: {ctype}; charset=utf-8\r\n\r\n{body}").encode()


def attacks() -> dict[str, bytes]:
    """What the attack of issue 13 sent, each as large as the size limit allows where size matters."""
    nested = "<ul><li>" * 12_000 + "Accept 1" + "</li></ul>" * 12_000
    return {
        "nested lists, 12,000 deep (108 KB)": message(nested, "x", "text/html"),
        "nested lists at the size limit": message("<ul><li>" * (LIMIT // 8 - 10), "x", "text/html"),
        "flat HTML paragraphs, 1 MB": message("<p>Accept 1</p>" * (LIMIT // 16), "x", "text/html"),
        "5,000-digit numbers": message("\r\n".join([f"Accept {'9' * 5000}", f"Agree swap {'9' * 5000}"] * 50), "x"),
        "1,000-word vandalize lines": message(("Vandalize " + "a " * 999 + "\r\n") * 400),
        "quoted lines, 1 MB": message(("> " * 40 + "\r\n") * (LIMIT // 84)),
        "a 99,990-dash line above a quote header": message(
            "x" + "-" * 99_990 + "x\r\nFrom: a@b.test\r\nSent: 2026-01-05 10:00\r\nTo: c@d.test\r\n"),
        "10,000 command lines": message("Tag alice@wonder.land\r\n" * 10_000, "x"),
        "10,000 header lines": message("hi", "x").replace(b"MIME", b"X-A: b\r\n" * 10_000 + b"MIME", 1),
    }


def fuzz_corpus(n: int) -> list[bytes]:
    corpus: list[bytes] = []

    @settings(max_examples=n, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(hostile_mail())
    def collect(raw: bytes) -> None:
        corpus.append(raw)

    collect()
    return corpus


def read(raw: bytes) -> None:
    mail_ = parse(raw)
    GRAMMAR.read(mail_.subject, mail_.text, mail_.written, cut=mail_.cut)


def best(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def whole_path(root: Path, raws: list[bytes]) -> list[float]:
    """Seconds to journal and fold each message (its answer composed and queued) in a fresh game."""
    game = new_game(root, f"game{time.perf_counter_ns()}")
    at = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
    out = []
    for i, raw in enumerate(raws):
        t0 = time.perf_counter()
        game.receive(raw, at + timedelta(minutes=i))
        game.process()
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--fuzz", type=int, default=400, help="messages drawn from the hostile strategies")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    since = Conditions()
    ordinary = mail(1)
    at_limit = message((BODY * (LIMIT // len(BODY)))[:LIMIT - 400])
    base = best(lambda: read(ordinary), args.runs * 10)
    rows = [("ordinary Proposal (1.5 KB): read", f"{base * 1000:.2f} ms")]
    named = {"plain-text Proposal at the 1 MB limit": at_limit, **attacks()}
    costs = {label: best(lambda raw=raw: read(raw), args.runs) for label, raw in named.items()}
    corpus = fuzz_corpus(args.fuzz)
    fuzz = sorted(((best(lambda raw=raw: read(raw), 1), raw) for raw in corpus), key=lambda p: p[0])[-5:]
    worst_fuzz = max(best(lambda raw=raw: read(raw), args.runs) for _, raw in fuzz)
    for label, cost in costs.items():
        rows.append((f"{label}: read", f"{cost * 1000:.1f} ms ({cost / base:.0f}x ordinary)"))
    rows.append((f"worst of {len(corpus)} fuzz messages: read", f"{worst_fuzz * 1000:.1f} ms "
                 f"({worst_fuzz / base:.1f}x ordinary)"))
    worst_attack = max(v for k, v in costs.items() if k != "plain-text Proposal at the 1 MB limit")
    limit_cost = costs["plain-text Proposal at the 1 MB limit"]
    rows.append(("worst attack / plain Proposal at the limit", f"{worst_attack / limit_cost:.1f}x"))
    rows.append(("worst fuzz message / plain Proposal at the limit", f"{worst_fuzz / limit_cost:.1f}x"))
    with tempfile.TemporaryDirectory() as tmp:
        paths = whole_path(Path(tmp), [ordinary, mail(2), mail(4), *named.values(), fuzz[-1][1]])
    path_base = min(paths[:3])
    rows.append(("ordinary Proposal: journal + fold + answer", f"{path_base * 1000:.1f} ms"))
    worst_path = max(paths[3:])
    rows.append(("worst message: journal + fold + answer", f"{worst_path * 1000:.1f} ms "
                 f"({worst_path / path_base:.1f}x ordinary)"))
    ok = max(worst_fuzz, worst_attack) / limit_cost <= TARGET
    rows.append((f"target: worst <= {TARGET:.0f}x the Proposal at the limit", verdict(ok)))
    report("hostile mail: the cost of the worst message", rows, since)


if __name__ == "__main__":
    main()
