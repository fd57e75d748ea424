"""Batches: a big list post goes out over several connections, each member's copy once and their own;
a relay that takes fewer connections costs nothing; a sender killed in mid-batch loses nothing and
doubles at most the one message each connection had inside DATA."""
from __future__ import annotations

import asyncio
import signal
from collections import Counter

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP
from sqlalchemy import update

from mailer.outbox import HOST, Delivery, expand
from nomic.game import Game
from tests.outbox.conftest import Recorder, _free_port, configure
from tests.outbox.test_sender import arrivals, deliveries, start_sender, wait_for
from tests.support import LIST_ADDRESS

MEMBERS = [f"m{i}@members.test" for i in range(40)]
POSTER = MEMBERS[0]


class Limited(SMTP):
    """An SMTP server that answers 421 to connections beyond ``limit``, and notes every peer."""
    limit = 2
    open = 0
    peers: set = set()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if Limited.open >= Limited.limit:
            transport.write(b"421 4.7.0 too many connections\r\n")  # type: ignore[attr-defined]
            transport.close()
            self.refused = True
            return
        self.refused = False
        Limited.open += 1
        Limited.peers.add(transport.get_extra_info("peername"))
        super().connection_made(transport)

    def connection_lost(self, error: Exception | None) -> None:
        if not self.refused:
            Limited.open -= 1
            super().connection_lost(error)


class LimitedController(Controller):
    def factory(self):
        return Limited(self.handler, **self.SMTP_kwargs)


@pytest.fixture
def limited_relay():
    """A relay that takes at most two connections at once."""
    Limited.open = 0
    recorder = Recorder()
    controller = LimitedController(recorder, hostname="127.0.0.1", port=_free_port())
    controller.start()
    Limited.peers = set()  # not the Controller's own test connection
    recorder.address = f"127.0.0.1:{controller.port}"  # type: ignore[attr-defined]
    yield recorder
    controller.stop()


def post_to_forty(game) -> None:
    for m in MEMBERS:
        game.send(m, "Subscribe")
    game.send(POSTER, "Hello", "Hi all", to=LIST_ADDRESS, message_id="hello@members.test")


def copies(relay) -> list:
    return [a for a in relay.arrived if a.mail["Message-ID"] == "<hello@members.test>"]


def test_a_post_to_forty_members_goes_over_several_connections_each_copy_once_and_its_own(make_play, relay):
    game = configure(make_play(), relay.address, connections=4)
    post_to_forty(game)
    game.cli("send")
    got = copies(relay)
    assert sorted(r for a in got for r in a.rcpt_tos) == sorted(MEMBERS)
    links = {a.rcpt_tos[0]: a.mail["List-Unsubscribe"] for a in got}
    assert len(set(links.values())) == 40  # every member's own one-click link
    assert all(a.mail_from.startswith(f"game-bounces+{a.rcpt_tos[0].split('@')[0]}=") for a in got)  # and VERP
    assert {d.status for d in deliveries(game)} == {"sent"}
    assert not (game.dir / "outbox-handover").exists() or not any((game.dir / "outbox-handover").iterdir())


def test_a_relay_that_takes_two_connections_gets_everything_over_two(make_play, limited_relay):
    game = configure(make_play(), limited_relay.address, connections=4)
    post_to_forty(game)
    game.cli("send")
    assert sorted(r for a in copies(limited_relay) for r in a.rcpt_tos) == sorted(MEMBERS)
    assert len(Limited.peers) == 2  # the connections kept open for the whole pass: never more than two
    assert {(d.status, d.attempts) for d in deliveries(game)} == {("sent", 1)}  # a refused connection is no attempt


def kill_in_mid_batch(game, relay) -> Counter:
    """Kill the sender while every connection waits for the relay's answer to a DATA."""
    post_to_forty(game)
    relay.reply_delay = 2.0
    proc = start_sender(game)
    wait_for(lambda: len(relay.arrived) >= 3, proc)  # three connections inside DATA at once
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert {d.status for d in deliveries(game)} == {"claimed"}  # the batch's outcomes not yet recorded
    relay.reply_delay = 0
    game.cli("send")
    return arrivals(relay)


def want(game) -> set:
    return {(row["message_id"], r) for row in game.outbox() for r in row["to"]}


@pytest.mark.slow  # crash: a sender killed in mid batch
def test_killed_in_mid_batch_resend_doubles_only_what_was_inside_data(make_play, relay):
    game = configure(make_play(), relay.address, connections=4)
    got = kill_in_mid_batch(game, relay)
    assert set(got) == want(game)  # nothing lost
    doubled = [k for k, n in got.items() if n > 1]
    assert 1 <= len(doubled) <= 4 and max(got.values()) == 2  # at most one per connection, each twice
    for key in doubled:
        first, second = [a.data for a in relay.arrived if (a.mail["Message-ID"], a.rcpt_tos[0]) == key]
        assert first == second
    assert {d.status for d in deliveries(game)} == {"sent"}


@pytest.mark.slow  # crash: a sender killed in mid batch
def test_killed_in_mid_batch_hold_sends_nothing_twice(make_play, relay):
    game = configure(make_play(), relay.address, connections=4, in_doubt="hold")
    got = kill_in_mid_batch(game, relay)
    assert set(got.values()) == {1}
    ids = {row["id"]: row["message_id"] for row in game.outbox()}
    held = {(ids[d.outbox_id], d.rcpt) for d in deliveries(game) if d.status == "failed"}
    assert 1 <= len(held) <= 4  # what was inside DATA, one per connection at most
    assert set(got) | held == want(game) and {d.status for d in deliveries(game)} == {"sent", "failed"}


def claim_by_a_dead_sender(game, claim: str) -> None:
    """Alice's answer, expanded and claimed long ago by a sender that never came back."""
    game.send("alice@wonder.land", "Subscribe")
    with Game(game.dir).db.begin() as conn:
        assert expand(conn, 10) == 1
        conn.execute(update(Delivery).values(status="claimed", claim=claim, claimed_at="2026-01-05T00:00:00Z"))


def test_another_hosts_lapsed_claim_is_in_doubt_its_log_being_over_there(make_play, relay):
    game = configure(make_play(), relay.address, in_doubt="hold")
    claim_by_a_dead_sender(game, "elsewhere.example:4242:0123abcd")
    game.cli("send", "--at", "2026-01-06T00:00:00Z")  # a day later: the lease ran out long ago
    [d] = deliveries(game)
    assert (d.status, d.last_error) == ("failed", "in doubt: the sender died during DATA; not resent (in_doubt = hold)")
    assert relay.arrived == []


def test_this_hosts_dead_claim_without_a_log_never_reached_the_relay(make_play, relay):
    game = configure(make_play(), relay.address, in_doubt="hold")
    claim_by_a_dead_sender(game, f"{HOST}:{2 ** 22 + 1}:0123abcd")  # above pid_max: no such process
    game.cli("send")
    [d] = deliveries(game)
    assert (d.status, d.last_error, [a.rcpt_tos for a in relay.arrived]) == ("sent", None, [["alice@wonder.land"]])


class Closing(Recorder):
    """A relay that hangs up after every third message it takes (as relays with a per-connection limit do)."""

    async def handle_DATA(self, server, session, envelope):
        reply = await super().handle_DATA(server, session, envelope)
        if len(self.arrived) % 3 == 0:
            asyncio.get_running_loop().call_soon(server.transport.close)  # right after the 250
        return reply


def test_a_relay_that_hangs_up_between_messages_costs_no_attempt(make_play):
    recorder = Closing()
    controller = Controller(recorder, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        game = configure(make_play(), f"127.0.0.1:{controller.port}", connections=1)
        for m in MEMBERS[:8]:
            game.send(m, "Subscribe")
        game.cli("send")
    finally:
        controller.stop()
    assert sorted(r for a in recorder.arrived for r in a.rcpt_tos) == sorted(MEMBERS[:8])
    assert {(d.status, d.attempts) for d in deliveries(game)} == {("sent", 1)}
