"""The sender: retries with back-off, permanent failures, and a SIGKILL in mid-batch that loses and doubles nothing."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from sqlmodel import Session, select

from mailer.outbox import Delivery
from nomic.game import Game
from tests.outbox.conftest import _free_port, configure
from tests.support import LIST_ADDRESS

ALICE, BOB = "alice@wonder.land", "bob@builder.org"
MEMBERS = [ALICE, BOB, "carol@c.org", "dave@d.org", "erin@e.org"]
ROOT = Path(__file__).resolve().parents[2]


def deliveries(game) -> list[Delivery]:
    with Session(Game(game.dir).db) as s:
        return list(s.exec(select(Delivery).order_by(Delivery.id)).all())


def answer_to_alice(game) -> None:
    game.send(ALICE, "Subscribe", message_id="sub@wonder.land")


def test_a_temporary_refusal_is_retried_after_a_doubling_back_off(game, relay):
    relay.refuse[ALICE] = "451 4.3.0 try again later"
    answer_to_alice(game)
    game.cli("send", "--at", "2026-01-05T01:00:00Z")
    [d] = deliveries(game)
    assert (d.status, d.attempts, d.next_attempt, d.last_error) == (
        "queued", 1, "2026-01-05T01:01:00Z", "451 4.3.0 try again later")
    game.cli("send", "--at", "2026-01-05T01:00:59Z")  # not due yet
    assert deliveries(game)[0].attempts == 1
    game.cli("send", "--at", "2026-01-05T01:01:00Z")
    d = deliveries(game)[0]
    assert (d.status, d.attempts, d.next_attempt) == ("queued", 2, "2026-01-05T01:03:00Z")  # 60 s, then 120 s
    del relay.refuse[ALICE]
    game.cli("send", "--at", "2026-01-05T01:03:00Z")
    assert [(d.status, d.attempts) for d in deliveries(game)] == [("sent", 3)]
    assert [a.rcpt_tos for a in relay.arrived] == [[ALICE]]
    assert game.outbox()[0]["status"] == "sent"


def test_a_permanent_refusal_fails_at_once_and_is_never_retried(game, relay):
    relay.refuse[ALICE] = "550 5.1.1 no such user"
    answer_to_alice(game)
    game.cli("send")
    game.cli("send", "--at", "2027-01-01T00:00:00Z")
    [d] = deliveries(game)
    assert (d.status, d.attempts, d.last_error) == ("failed", 1, "550 5.1.1 no such user")
    [row] = game.outbox()
    assert (row["status"], row["last_error"]) == ("failed", "550 5.1.1 no such user")
    assert relay.arrived == []


def test_temporary_failures_end_after_max_attempts(make_play, relay):
    game = configure(make_play(), relay.address, max_attempts=2)
    relay.refuse[ALICE] = "421 4.7.0 busy"
    answer_to_alice(game)
    game.cli("send", "--at", "2026-01-05T01:00:00Z")
    game.cli("send", "--at", "2026-01-05T02:00:00Z")
    [d] = deliveries(game)
    assert (d.status, d.attempts, d.last_error) == ("failed", 2, "gave up after 2 attempts: 421 4.7.0 busy")


def test_an_unreachable_relay_costs_one_attempt_per_pass_not_one_per_mail(make_play):
    game = configure(make_play(), f"127.0.0.1:{_free_port()}")  # nobody listens there
    answer_to_alice(game)
    game.send(BOB, "Subscribe")
    game.cli("send", "--at", "2026-01-05T01:00:00Z")
    assert [(d.status, d.attempts) for d in deliveries(game)] == [("queued", 1), ("queued", 0)]
    assert "Connection refused" in deliveries(game)[0].last_error


def fan_out(game) -> None:
    """Five members and a post: five answers and five list copies."""
    for m in MEMBERS:
        game.send(m, "Subscribe")
    game.send(ALICE, "Hello", "Hi all", to=LIST_ADDRESS, message_id="hello@wonder.land")


def start_sender(game) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "nomic", "send", "--game", str(game.dir)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_for(condition, proc: subprocess.Popen) -> None:
    while not condition():
        assert proc.poll() is None, "the sender finished before it could be killed"
        time.sleep(0.01)


def arrivals(relay) -> Counter:
    return Counter((a.mail["Message-ID"], r) for a in relay.arrived for r in a.rcpt_tos)


def test_a_sender_killed_while_the_relay_is_slow_loses_and_doubles_nothing(game, relay):
    fan_out(game)
    relay.rcpt_delay = 0.5
    proc = start_sender(game)
    wait_for(lambda: relay.slowed == 4, proc)  # three delivered, the relay sits on the fourth's RCPT
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert len(relay.arrived) == 3
    assert {d.status for d in deliveries(game)} == {"claimed"}  # one batch, not yet recorded: its log knows
    relay.rcpt_delay = 0
    game.cli("send")
    want = Counter((row["message_id"], r) for row in game.outbox() for r in row["to"])
    assert len(want) == 10
    assert arrivals(relay) == want  # every delivery exactly once
    assert {row["status"] for row in game.outbox()} == {"sent"}


def kill_in_doubt(game, relay) -> Counter:
    """Kill the sender after the relay took a message but before it said 250."""
    fan_out(game)
    relay.reply_delay = 1.0
    proc = start_sender(game)
    wait_for(relay.waiting.is_set, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert {d.status for d in deliveries(game)} == {"claimed"}
    relay.reply_delay = 0
    game.cli("send")
    return arrivals(relay)


def test_in_doubt_resend_is_at_least_once_with_the_same_message_id(game, relay):
    got = kill_in_doubt(game, relay)
    [(doubled, n)] = [(k, n) for k, n in got.items() if n > 1]
    assert n == 2 and len(got) == 10
    first, second = [a.data for a in relay.arrived if (a.mail["Message-ID"], a.rcpt_tos[0]) == doubled]
    assert first == second  # the very same bytes: readers see one message
    [d] = [d for d in deliveries(game) if d.last_error and "in doubt" in d.last_error]
    assert d.status == "sent"


def test_in_doubt_hold_is_at_most_once_and_tells_the_operator(make_play, relay):
    game = configure(make_play(), relay.address, in_doubt="hold")
    got = kill_in_doubt(game, relay)
    assert set(got.values()) == {1} and len(got) == 10
    [held] = [d for d in deliveries(game) if d.status == "failed"]
    assert held.last_error == "in doubt: the sender died during DATA; not resent (in_doubt = hold)"
    assert (held.rcpt, ) in {(r,) for (_, r) in got}  # the relay did receive it once


def test_intake_goes_on_while_the_relay_keeps_the_sender_waiting(game, relay):
    answer_to_alice(game)
    relay.rcpt_delay = 120  # far past the database's 30 s busy timeout
    proc = start_sender(game)
    try:
        wait_for(lambda: relay.slowed == 1, proc)
        assert "recorded as Proposal 1" in game.propose(BOB, "Cake while we wait")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    relay.rcpt_delay = 0
    game.cli("send")
    assert Counter((a.mail["Message-ID"].split(".")[0], r) for a in relay.arrived for r in a.rcpt_tos) == {
        ("<answer", ALICE): 1, ("<sub1", BOB): 2,  # the answers; Bob, a player now, hears his Proposal too
        ("<sub1", ALICE): 1, ("<sub1", "tie@imperial.test"): 1}  # the Proposal's announcements, to members and TIE


def test_a_bad_relay_setting_is_one_clear_line(make_play):
    game = configure(make_play(), "mail.example.org")
    result = subprocess.run([sys.executable, "-m", "nomic", "send", "--game", str(game.dir)], capture_output=True,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (result.returncode, result.stderr) == (
        2, f'nomic: {game.dir / "game.toml"}: [outbox] relay must be "HOST:PORT", not "mail.example.org"\n')
