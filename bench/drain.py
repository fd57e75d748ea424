"""Drain: a post to a list of N members (default 1,000) handed to an SMTP relay on loopback.

Every copy is personalised as in production (its VERP envelope sender, its one-click unsubscribe
link), and `mailer.sender.run_once` drains them from the outbox: the post's deliveries written
from its recipients (as the fold leaves it), batches claimed and recorded in one transaction each,
every DATA marked durably in the handover log first. The relay is a bare
aiosmtpd server in its own process whose handler only counts. The baseline, same relay, same run,
in alternating rounds: bare smtplib loops sending the same N prepared messages over as many
connections as the sender uses, like for like: one loop against the sender with one connection,
four loops in four threads against its default of four. Each round's ratio is taken against that
round's bare loops, and the median of the rounds is reported (the machine is noisy).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import signal
import smtplib
import statistics
import subprocess
from concurrent.futures import ThreadPoolExecutor
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from common import Conditions, Game, mail, new_game, player, rate, report, timed, verdict
from sqlalchemy import text
from sqlmodel import Session

from engine.state import Subscriber
from intake import free_port
from mailer import bounces
from mailer.sender import CRLF, Prepared, personalize, run_once
from nomic.wiring import outlet
from storage.tables import Snapshot

HERE = Path(__file__).resolve()
POSTED = datetime(2026, 1, 5, 1, 0, tzinfo=timezone.utc)


def relay(port: int) -> None:
    """The relay: aiosmtpd's SMTP, counting messages; prints the count when terminated."""
    from aiosmtpd.smtp import SMTP

    class Count:
        n = 0

        async def handle_DATA(self, server, session, envelope) -> str:
            Count.n += 1
            return "250 OK"

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, lambda: (print(Count.n, flush=True), loop.stop()))
        await loop.create_server(lambda: SMTP(Count()), "127.0.0.1", port)
        print("ready", flush=True)
        await asyncio.Event().wait()

    try:
        asyncio.run(serve())
    except RuntimeError:  # the loop stopped by the signal
        pass


def list_game(root: Path, n: int, port: int) -> Game:
    """A game whose list has n members, one post from a member queued to all of them."""
    g = new_game(root)
    toml = g.config.dir / "game.toml"
    toml.write_text(toml.read_text().replace('relay = ""', f'relay = "127.0.0.1:{port}"', 1))
    g = connections(g, 1)
    state = g.state()
    state.subscribers = [Subscriber(email=player(i)) for i in range(n)]
    with Session(g.db) as s:  # the members join the stored state directly
        s.merge(Snapshot(seq=0, state=state.model_dump_json()))
        s.commit()
    g = Game(g.config.dir)
    g.inbox.receive(mail(0, sender=player(0)), POSTED)  # mail(0) is a list post
    g.process()
    return g


def connections(g: Game, k: int) -> Game:
    """The same game with ``[outbox] connections = k``."""
    toml = g.config.dir / "game.toml"
    lines = [f"connections = {k}" if line.startswith("connections = ") else line
             for line in toml.read_text().splitlines()]
    toml.write_text("\n".join(lines) + "\n")
    return Game(g.config.dir)


def requeue(g: Game) -> None:
    """The post as the fold left it: queued, its deliveries not yet written (the sender writes them)."""
    with Session(g.db) as s:
        s.execute(text("DELETE FROM delivery"))
        s.execute(text("UPDATE outbox SET status = 'queued', expanded = :no"), params={"no": False})
        s.commit()


def prepared(g: Game) -> list[tuple[str, str, bytes]]:
    """(VERP sender, recipient, bytes) of every copy, as the sender makes them (line ends CRLF;
    smtplib doubles the leading dots itself)."""
    ls = g.list_settings
    with Session(g.db) as s:
        row = s.exec(text("SELECT COALESCE(r.recipients, o.recipients), o.raw, o.created FROM outbox AS o"  # type: ignore[call-overload]
                          " LEFT JOIN recipient_set AS r ON r.digest = o.recipient_set WHERE o.kind = 'list'")).one()
    rcpts = json.loads(row[0])
    issued = datetime.fromisoformat(row[2].replace("Z", "+00:00"))
    copy = Prepared(CRLF.sub(b"\r\n", bytes(row[1])), True, issued, utf8_head=False)  # its dots as stored
    return [(bounces.verp(ls, r), r, personalize(copy, r, ls)) for r in rcpts]


def bare_loop(port: int, messages: list[tuple[str, str, bytes]]) -> None:
    client = smtplib.SMTP("127.0.0.1", port)
    for mail_from, rcpt, data in messages:
        client.sendmail(mail_from, [rcpt], data)
    client.quit()


def bare_loops(port: int, messages: list[tuple[str, str, bytes]], k: int) -> list[float]:
    """[wall, CPU] seconds of ``k`` bare loops, in threads, each over its own connection, sending
    a k-th of the messages."""
    with timed() as t, ThreadPoolExecutor(k) as pool:
        list(pool.map(lambda share: bare_loop(port, share), [messages[i::k] for i in range(k)]))
    return t


def drain(g: Game, n: int) -> list[float]:
    """[wall, CPU] seconds of the sender draining the post's n copies."""
    requeue(g)
    with timed() as t:
        sent = run_once(outlet(g), POSTED)
    if sent != n:
        raise SystemExit(f"the sender sent {sent} of {n}")
    return t


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000, help="list members")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (the ratio is the median of theirs)")
    ap.add_argument("--relay", type=int, help=argparse.SUPPRESS)  # internal: run the relay on PORT
    args = ap.parse_args(argv)
    if args.relay:
        relay(args.relay)
        return {}
    since = Conditions()
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(HERE), "--relay", str(port)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        with tempfile.TemporaryDirectory() as tmp:
            one = list_game(Path(tmp), args.n, port)
            messages = prepared(one)
            if len(messages) != args.n:
                raise SystemExit(f"{len(messages)} copies queued for {args.n} members")
            four = connections(Game(one.config.dir), 4)
            one = connections(one, 1)
            times: dict[str, list[list[float]]] = {"bare1": [], "one": [], "bare4": [], "four": []}
            for _ in range(args.rounds):
                times["bare1"].append(bare_loops(port, messages, 1))
                times["one"].append(drain(one, args.n))
                times["bare4"].append(bare_loops(port, messages, 4))
                times["four"].append(drain(four, args.n))
    finally:
        proc.terminate()
        counted = int(proc.communicate(timeout=60)[0].strip() or 0)
    if counted != 4 * args.rounds * args.n:
        raise SystemExit(f"the relay counted {counted} messages, not {4 * args.rounds * args.n}")
    n = args.n

    def best(kind: str) -> str:
        wall, cpu = min(times[kind])
        return rate(n, wall, cpu, "msgs")

    def of(kind: str, base: str) -> float:
        return statistics.median(b[0] / t[0] for b, t in zip(times[base], times[kind]))
    one_r, four_r, four_of_one = of("one", "bare1"), of("four", "bare4"), of("four", "bare1")
    report(f"drain of a post to {n:,} list members (VERP, personalised) to an aiosmtpd relay, "
           f"best of {args.rounds} rounds, ratios the median of a round's", [
        ("ratio, one connection (run_once / bare loop)", f"{one_r:.2f}  {verdict(one_r >= 0.7)} (>= 0.70)"),
        ("ratio, four connections (run_once / 4 bare loops)", f"{four_r:.2f}  {verdict(four_r >= 0.7)} (>= 0.70)"),
        ("bare smtplib loop, one connection", best("bare1")),
        ("run_once, one connection", best("one")),
        ("4 bare smtplib loops, four connections (threads)", best("bare4")),
        ("run_once, four connections (the default)", best("four")),
        ("ratio (run_once, four / bare loop, one): unlike", f"{four_of_one:.2f}"),
    ], since)
    return {"one_ratio": one_r, "four_ratio": four_r, "four_of_one_ratio": four_of_one,
            **{f"{kind}_rate": n / min(times[kind])[0] for kind in times}}


if __name__ == "__main__":
    main()
