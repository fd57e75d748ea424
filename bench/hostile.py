"""The worst message an attacker can send costs at most a few times an ordinary one (issue 13).

Times reading (parse + grammar: what the fold does to a new journal entry) and the whole path
(journal, fold, answer) for an ordinary Proposal, a plain-text Proposal at the 1 MB size limit,
the attacks that once stalled a game, and a fuzz corpus drawn from the hypothesis strategies
of tests/faults/hostile.py (derandomized: the same corpus every run). Each figure is the best
of a few runs (by the wall clock, with this process's CPU in that run beside it), timed in the
same run as its baseline; the ratios are of wall times.

The target compares like with like: reading any message costs time in its size, so the worst
attack and the worst fuzz message are held to ``TARGET`` times the largest ordinary message,
a plain-text Proposal at the size limit; their ratio to a 1.5 KB Proposal is shown too.

Then a flood of matters (issue 26): a BlogNomic game with ``--cfjs`` pending Calls for Judgement
(2,000; the per-Pactmaker limit raised to let one Admin make them all) against a game with one,
the same vote in each: the engine's part (apply and ``next_due``) and the whole fold (journal,
fold, answer, snapshot), each the mean of ``--votes`` votes. Target: within ``FLOOD_TARGET``.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

from common import BODY, Conditions, GAME, Game, create, mail, new_game, report, timed, took, verdict
from hypothesis import HealthCheck, given, settings

from email.errors import MissingHeaderBodySeparatorDefect

from mailer.message import Received, parse, read_body
from tests.faults.hostile import hostile_mail
from engine import machine
from engine.blognomic.commands import VoteCmd
from engine.inputs import Message
from engine.ruleset import ruleset_for
from mailer.grammar import Grammar
from storage.config import default_text

GRAMMAR = Grammar(ruleset_for("imperial").commands)

LIMIT = 1024 * 1024  # [smtp] max_message_size's default
TARGET = 6.0  # "a few times"
FLOOD_TARGET = 3.0
ADMINS = [f"admin{i}@blog.test" for i in range(10)]  # Pactmakers from the start (Quorum 6): no Join needed
FLOOD_AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)


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
        "flat HTML divs, 1 MB": message("<div>Accept 1</div>" * (LIMIT // 19), "x", "text/html"),
        "empty quote containers, 1 MB": message("<div class=gmail_quote></div>" * (LIMIT // 29), "x", "text/html"),
        "a quote of 1 MB of divs": message("<div class=gmail_quote>" + "<div>" * (LIMIT // 5 - 10), "x", "text/html"),
        "one tag of 500,000 attributes": message("<img" + " a" * (LIMIT // 2 - 200) + ">", "x", "text/html"),
        "flat HTML images, 1 MB": message("<img src=x>" * (LIMIT // 11), "x", "text/html"),
        "flat HTML abbreviations, 1 MB": message("<abbr title=x>A</abbr>" * (LIMIT // 22), "x", "text/html"),
        "5,000-digit numbers": message("\r\n".join([f"Accept {'9' * 5000}", f"Agree swap {'9' * 5000}"] * 50), "x"),
        "1,000-word vandalize lines": message(("Vandalize " + "a " * 999 + "\r\n") * 400),
        "quoted lines, 1 MB": message(("> " * 40 + "\r\n") * (LIMIT // 84)),
        "a 99,990-dash line above a quote header": message(
            "x" + "-" * 99_990 + "x\r\nFrom: a@b.test\r\nSent: 2026-01-05 10:00\r\nTo: c@d.test\r\n"),
        "10,000 command lines": message("Tag alice@wonder.land\r\n" * 10_000, "x"),
        "10,000 header lines": message("hi", "x").replace(b"MIME", b"X-A: b\r\n" * 10_000 + b"MIME", 1),
        "a 99,000-character 'On' line, then 'wrote:'": message(f"Accept 1\r\nOn {'x' * 99_000}\r\na\r\nb\r\nwrote:\r\n"),
        "99,000 blanks after a signature's dash": message(f"Accept 1\r\n\r\n-{' ' * 99_000}x\r\n"),
    }


def kind(raw: bytes) -> str:
    """What a message is, in the terms its reading costs: size, type, the text read and its longest line."""
    msg = Received(raw).message
    lines = read_body(msg, unquoted=True).text.split("\n")
    what = [f"{len(raw):,} bytes", msg.get_content_type(),
            f"{sum(map(len, lines)):,} characters of text in {len(lines):,} lines (longest {max(map(len, lines)):,})"]
    if any(isinstance(d, MissingHeaderBodySeparatorDefect) for d in msg.defects):
        what.append("header lines read as its text (a line that is no field ends the header)")
    return "; ".join(what)


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


def best(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """(seconds, CPU seconds) of the fastest of ``runs`` calls, by the wall clock."""
    times = []
    for _ in range(runs):
        with timed() as t:
            fn()
        times.append((t[0], t[1]))
    return min(times)


def whole_path(root: Path, raws: list[bytes]) -> list[tuple[float, float]]:
    """(seconds, CPU seconds) to journal and fold each message (its answer composed and queued) in a
    fresh game."""
    game = new_game(root, f"game{time.perf_counter_ns()}")
    at = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
    out = []
    for i, raw in enumerate(raws):
        with timed() as t:
            game.inbox.receive(raw, at + timedelta(minutes=i))
            game.process()
        out.append((t[0], t[1]))
    return out


def blog_toml(cfjs: int) -> str:
    text = default_text("blognomic").replace('mode = "authres"', 'mode = "none"', 1)
    text = text.replace('seed = "change-me"', 'seed = "bench-seed"', 1)
    text = text.replace('admins = ["admin@blog.test"]', f"admins = {ADMINS!r}".replace("'", '"'), 1)
    return text.replace("max_pending_cfjs = 2 ", f"max_pending_cfjs = {max(cfjs, 1)} ", 1)


def blog_mail(i: int, sender: str, subject: str, body: str = BODY) -> bytes:
    return (f"From: <{sender}>\r\nTo: ths@blog.test\r\nSubject: {subject}\r\n"
            f"Message-ID: <flood-{i}@blog.test>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}").encode()


def flooded_game(root: Path, cfjs: int) -> Game:
    """A BlogNomic game whose first Admin has made ``cfjs`` Calls for Judgement (folded without mail)."""
    cfg = root / f"blog{cfjs}.toml"
    cfg.write_text(blog_toml(cfjs))
    game = create(root / f"blog{cfjs}", cfg)
    for start in range(0, cfjs, 500):
        game.inbox.receive_many([game.inbox.prepare(blog_mail(i, ADMINS[0], f"CfJ: Judge {i}"), FLOOD_AT, "bench")
                           for i in range(start, min(cfjs, start + 500))])
    game.process(send=False)
    return game


def votes_through_fold(game: Game, number: int, k: int, first: int = 0) -> tuple[float, float]:
    """Mean (seconds, CPU seconds) to journal and fold one vote on CfJ ``number``, its answer queued."""
    with timed() as t:
        for i in range(first, first + k):
            raw = blog_mail(10**6 + i, ADMINS[1], "Votes", f"{'AGAINST' if i % 2 else 'FOR'} {number}")
            game.inbox.receive(raw, FLOOD_AT + timedelta(minutes=10, seconds=i))
            game.process()
    return t[0] / k, t[1] / k


def votes_in_engine(game: Game, number: int, k: int) -> tuple[float, float]:
    """Mean (seconds, CPU seconds) of ``machine.apply`` and ``next_due`` for one vote on CfJ ``number``."""
    state, config = game.state().copy_deep(), game.engine_config
    votes = [Message(at=FLOOD_AT + timedelta(hours=1, seconds=i), message_id=f"v{i}@blog.test", sender=ADMINS[1],
                     authenticated=True, commands=[VoteCmd(icon="AGAINST" if i % 2 else "FOR", number=number)])
             for i in range(k)]
    machine.next_due(state, config)  # a copy's derived data start empty: built once, as after a load
    with timed() as t:
        for msg in votes:
            machine.apply(state, msg, config)
            machine.next_due(state, config)
    return t[0] / k, t[1] / k


def flood(cfjs: int, k: int) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        empty, full = flooded_game(Path(tmp), 1), flooded_game(Path(tmp), cfjs)
        assert len(full.state().pending("cfj")) == cfjs  # type: ignore[attr-defined]
        for game, number in ((empty, 1), (full, cfjs // 2)):  # warm: templates compiled, caches filled
            votes_in_engine(game, number, 5)
            votes_through_fold(game, number, 5)
        engine_base, engine_flood = votes_in_engine(empty, 1, k), votes_in_engine(full, cfjs // 2, k)
        fold_base, fold_flood = votes_through_fold(empty, 1, k, 5), votes_through_fold(full, cfjs // 2, k, 5)
    ok = max(engine_flood[0] / engine_base[0], fold_flood[0] / fold_base[0]) <= FLOOD_TARGET
    return [
        ("a vote, one CfJ pending: apply + next_due", took(*engine_base, 3)),
        (f"a vote among {cfjs:,} pending CfJs: apply + next_due", f"{took(*engine_flood, 3)} "
         f"({engine_flood[0] / engine_base[0]:.1f}x)"),
        ("a vote, one CfJ pending: journal + fold + answer", took(*fold_base)),
        (f"a vote among {cfjs:,} pending CfJs: journal + fold + answer", f"{took(*fold_flood)} "
         f"({fold_flood[0] / fold_base[0]:.1f}x)"),
        (f"target: a vote among {cfjs:,} CfJs <= {FLOOD_TARGET:.0f}x one among one", verdict(ok)),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--fuzz", type=int, default=400, help="messages drawn from the hostile strategies")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cfjs", type=int, default=2_000, help="pending Calls for Judgement in the flooded game")
    ap.add_argument("--votes", type=int, default=100, help="votes timed in each BlogNomic game")
    ap.add_argument("--quick", action="store_true", help="a short run: 100 fuzz messages, one run each, "
                    "200 CfJs, 20 votes")
    args = ap.parse_args()
    if args.quick:
        args.fuzz, args.runs, args.cfjs, args.votes = 100, 1, 200, 20
    since = Conditions()
    ordinary = mail(1)
    at_limit = message((BODY * (LIMIT // len(BODY)))[:LIMIT - 400])
    base_t = best(lambda: read(ordinary), args.runs * 10)
    base = base_t[0]
    rows = [("ordinary Proposal (1.5 KB): read", took(*base_t, 2))]
    named = {"plain-text Proposal at the 1 MB limit": at_limit, **attacks()}
    timings = {label: best(lambda raw=raw: read(raw), args.runs) for label, raw in named.items()}
    corpus = fuzz_corpus(args.fuzz)
    fuzz = sorted(((best(lambda raw=raw: read(raw), 1)[0], raw) for raw in corpus), key=lambda p: p[0])[-5:]
    worst_fuzz_t, worst_raw = max(((best(lambda raw=raw: read(raw), args.runs), raw) for _, raw in fuzz),
                                  key=lambda p: p[0])
    worst_fuzz = worst_fuzz_t[0]
    for label, t in timings.items():
        rows.append((f"{label}: read", f"{took(*t)} ({t[0] / base:.0f}x ordinary)"))
    rows.append((f"worst of {len(corpus)} fuzz messages: read", f"{took(*worst_fuzz_t)} "
                 f"({worst_fuzz / base:.1f}x ordinary)"))
    rows.append(("the worst fuzz message", kind(worst_raw)))
    worst_attack_t = max(t for k, t in timings.items() if k != "plain-text Proposal at the 1 MB limit")
    worst_attack = worst_attack_t[0]
    limit_t = timings["plain-text Proposal at the 1 MB limit"]
    limit_cost = limit_t[0]
    rows.append(("worst attack / plain Proposal at the limit", f"{worst_attack / limit_cost:.1f}x "
                 f"({worst_attack_t[1] / max(1e-9, limit_t[1]):.1f}x by CPU)"))
    rows.append(("worst fuzz message / plain Proposal at the limit", f"{worst_fuzz / limit_cost:.1f}x "
                 f"({worst_fuzz_t[1] / max(1e-9, limit_t[1]):.1f}x by CPU)"))
    with tempfile.TemporaryDirectory() as tmp:
        paths = whole_path(Path(tmp), [ordinary, mail(2), mail(4), *named.values(), worst_raw])
    path_base = min(paths[:3])
    rows.append(("ordinary Proposal: journal + fold + answer", took(*path_base)))
    worst_path = max(paths[3:])
    rows.append(("worst message: journal + fold + answer", f"{took(*worst_path)} "
                 f"({worst_path[0] / path_base[0]:.1f}x ordinary)"))
    ok = max(worst_fuzz, worst_attack) / limit_cost <= TARGET
    rows.append((f"target: worst <= {TARGET:.0f}x the Proposal at the limit", verdict(ok)))
    report("hostile mail: the cost of the worst message", rows, since)
    report(f"a flood of matters: a vote among {args.cfjs:,} pending Calls for Judgement", flood(args.cfjs, args.votes),
           since)


if __name__ == "__main__":
    main()
