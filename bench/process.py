"""Processing: the first fold of N journaled messages (default 2,000 and 10,000) with its mail
composed and queued, as `nomic serve`'s processor does, against the same fold of the same messages
without mail (`Game.process(send=False)`) in the same run, with the growth exponent of the CPU an
entry from the smallest N to the largest (the goal: within 1.2x).

Like with like at every size: the game's P players (default 1,000) have all joined, and so are on
the list, before the timed fold (each made a first Proposal, folded untimed); the N messages come
from them in turn, each player one an hour, two in three a Proposal (queued, whatever the game's
size: the bench game lifts rule 4's queue limit; each answered and announced to the Emperor and the
list), one in three a list post (copied to the list). So every timed entry mails the same list and
does the same work; what grows with N is the game: its submissions and pending matters, its
answer log and outbox. Then composing one mail (an answer's headers, threaded, the list's headers,
a rendered body, as bytes) the way the game does (one policy per game, its constant headers parsed
once) against the stdlib way: a new `EmailMessage` of `policy.default` given the same headers and
body.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from common import BODY, GAME, Conditions, Game, create, game_toml, growth, mail, player, report, sizes, verdict

from mailer import headers
from mailer.compose import body, list_headers, machine_mail, thread

AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
TEMPLATE, CONTEXT = "mail/post_refused.txt", {"reason": "you are not subscribed"}
UNQUEUED = "[variables]\nqueue_limit = 1000000000  # rule 4 off in effect: every Proposal waits for the Emperor\n"


def first_move(k: int) -> bytes:
    """Player ``k``'s first Proposal: it makes them a player, and so a member of the list."""
    return (f"From: Player {k} <{player(k)}>\r\nTo: {GAME}\r\nSubject: Proposal: Welcome {k}\r\n"
            f"Message-ID: <join-{k}@players.test>\r\nDate: Mon, 05 Jan 2026 00:30:00 +0000\r\n"
            f"Content-Type: text/plain; charset=\"utf-8\"\r\n\r\n{BODY}").encode()


def journaled(root: Path, name: str, n: int, players: int, send: bool) -> Game:
    """A game of ``players`` players, all on the list (their first moves folded, with mail if ``send``),
    and ``n`` more messages journaled from them in turn, each player one an hour, not yet folded."""
    cfg = root / f"{name}.toml"
    cfg.write_text(game_toml(database_url=os.environ.get("NOMIC_BENCH_DB", "")).replace("[variables]\n", UNQUEUED, 1))
    game = create(root / name, cfg)
    for start in range(0, players, 500):
        journal(game, [(first_move(k), AT) for k in range(start, min(players, start + 500))])
    game.process(send=send)
    step = timedelta(hours=1) / players
    for start in range(0, n, 500):
        journal(game, [(mail(i, player(i % players)), AT + timedelta(minutes=1) + i * step)
                       for i in range(start, min(n, start + 500))])
    return game


def journal(game: Game, messages: list[tuple[bytes, datetime]]) -> None:
    game.inbox.receive_many([game.inbox.prepare(raw, at, "bench", "bench@players.test", []) for raw, at in messages])


def fold_seconds(game: Game, send: bool) -> float:
    """CPU seconds of the first fold (CPU, not wall: this machine's load sways the wall clock)."""
    t0 = time.process_time()
    game.process(send=send)
    return time.process_time() - t0


def ours(game: Game, i: int) -> bytes:
    ls = game.list_settings
    m = machine_mail(ls, to=f"p{i}@players.test", subject=f"[Empire] Proposal {i}: Order", at=AT,
                     msgid=f"<sub{i}.answer.{i}.0123abcd@imperial.test>", template=TEMPLATE, **CONTEXT)
    thread(m, f"bench-{i}@players.test")
    list_headers(m, ls)
    return headers.as_bytes(m)


def stdlib(game: Game, i: int) -> bytes:
    """The same mail, every header given to a new EmailMessage of policy.default as a string."""
    ls = game.list_settings
    m = EmailMessage()
    for name, value in (("From", f"The Humble Scribe <{ls.address}>"), ("To", f"p{i}@players.test"),
                        ("Subject", f"[Empire] Proposal {i}: Order"), ("Date", format_datetime(AT)),
                        ("Message-ID", f"<sub{i}.answer.{i}.0123abcd@imperial.test>"),
                        ("Auto-Submitted", "auto-generated"), ("In-Reply-To", f"<bench-{i}@players.test>"),
                        ("References", f"<bench-{i}@players.test>"), ("List-Id", ls.list_id_header),
                        ("List-Post", f"<mailto:{ls.list_address}>"),
                        ("List-Help", f"<mailto:{ls.address}?subject=help>"),
                        ("List-Subscribe", f"<mailto:{ls.address}?subject=subscribe>"),
                        ("Precedence", "list"), ("X-Loop", ls.list_address)):
        m[name] = value
    m.set_content(body(TEMPLATE, ls, **CONTEXT))
    return bytes(m)


def compose_ms(game: Game, make: Callable[[Game, int], bytes], rounds: int = 7, each: int = 300) -> float:
    """Median CPU milliseconds to compose one mail, over ``rounds`` rounds of ``each``."""
    make(game, 0)
    times = []
    for _ in range(rounds):
        t0 = time.process_time()
        for i in range(each):
            make(game, i)
        times.append((time.process_time() - t0) / each * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=sizes, default=[2_000, 10_000], help="journaled messages folded, e.g. 2000,10000")
    ap.add_argument("--players", type=int, default=1_000, help="players, all on the list before the timed fold")
    ap.add_argument("--rounds", type=int, default=1, help="rounds of every size in turn; each figure the median")
    ap.add_argument("--quick", action="store_true", help="a brief run: 1,000 and 3,000 messages among 100 players")
    args = ap.parse_args(argv)
    if args.quick:
        args.n, args.players, args.rounds = [1_000, 3_000], 100, 1
    since = Conditions()
    runs: dict[tuple[int, bool], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for r in range(args.rounds):  # the sizes in turn, so that a change of the machine's load sways each alike
            for n in args.n:
                for send in (False, True):
                    game = journaled(root, f"{'full' if send else 'quiet'}{n}-{r}", n, args.players, send)
                    runs.setdefault((n, send), []).append(fold_seconds(game, send))
        quiet, full = ([statistics.median(runs[n, send]) for n in args.n] for send in (False, True))
        members = len([s for s in game.state().subscribers if not s.digest])
        mine, theirs = compose_ms(game, ours), compose_ms(game, stdlib)
    rows = [("players, every one on the list before the timed fold", f"{args.players:,} ({members:,} list members)")]
    for n, q, f in zip(args.n, quiet, full):
        rows += [(f"{n:,} entries: fold with mail composed and queued", f"{n / f:,.0f} entries/s ({f / n * 1000:.2f} ms CPU each)"),
                 ("  the same fold without mail (baseline)", f"{n / q:,.0f} entries/s ({q / n * 1000:.2f} ms CPU each)"),
                 ("  ratio (with mail / without)", f"{q / f:.2f}")]
    g_full, g_quiet = growth(args.n, full), growth(args.n, quiet)
    if len(args.n) > 1:
        goal = growth(args.n, [args.n[0], args.n[-1] * 1.2])  # the exponent of a cost an entry 1.2x as large
        rows.append((f"growth exponent of CPU, {args.n[0]:,} to {args.n[-1]:,}",
                     f"with mail {g_full:.2f}, without {g_quiet:.2f} (1.00: flat per entry; within 1.2x: <= {goal:.2f})"))
        rows += [(f"  CPU an entry {label}, {args.n[-1]:,} / {args.n[0]:,}",
                  f"{cost[-1] / args.n[-1] / (cost[0] / args.n[0]):.2f}x  {verdict(growth(args.n, cost) <= goal)} (within 1.2x)")
                 for label, cost in (("with mail", full), ("without", quiet))]
    rows += [("composing one mail, as the game does", f"{mine:.3f} ms CPU"),
             ("the same mail, stdlib EmailMessage (baseline)", f"{theirs:.3f} ms CPU"),
             ("ratio (game / stdlib)", f"{mine / theirs:.2f}")]
    report(f"processing journaled messages, first fold (CPU time{f', medians of {args.rounds} rounds' if args.rounds > 1 else ''})",
           rows, since)
    n = args.n[-1]
    return {"fold_with_mail": n / full[-1], "fold_without_mail": n / quiet[-1], "compose_ms": mine,
            "compose_stdlib_ms": theirs, "growth_with_mail": g_full, "growth_without_mail": g_quiet}


if __name__ == "__main__":
    main()
