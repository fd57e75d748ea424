"""``[auth] mode = "dkim"`` against a slow name server: no one waits on a stranger's DNS (issue 26).

A real DNS server on loopback (UDP, answers built with dnspython) serves the keys;
it answers names under slow.test only after ``DELAY`` seconds. dkimpy asks it
through mailer.dkim's ``dnsfunc``; the intake listener is the daemon's own
(mailer.intake), in this process, spoken to by smtplib.
"""
from __future__ import annotations

import asyncio
import json
import smtplib
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import dkim
import dns.message
import dns.name
import dns.rcode
import dns.resolver
import dns.rrset
import pytest
from sqlmodel import Session, select

import mailer.dkim as dkim_mode
from mailer.auth import Verdict
from mailer.intake import IntakeHandler, JournalWriter, Mailbox, Routes, protocol_factory
from mailer.message import parse_head
from nomic.game import Game
from storage.tables import JournalEntry
from tests.mailer.support import dkim_key
from tests.support import GAME_ADDRESS, make_mail

DELAY = 2.0  # seconds the slow name server takes over each answer
STRANGERS = 12
GENUINE = "alice@wonder.land"


class SlowNameServer:
    """TXT records over UDP on 127.0.0.1; names under ``slow`` are answered after ``DELAY`` seconds."""

    def __init__(self, records: dict[str, bytes], slow: str):
        self.records, self.slow = records, dns.name.from_text(slow)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.slow_queries = 0
        self.timers: list[threading.Timer] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                data, client = self.sock.recvfrom(4096)
            except OSError:  # closed
                return
            query = dns.message.from_wire(data)
            name = query.question[0].name
            reply = self._answer(query, name).to_wire()
            if name.is_subdomain(self.slow):
                self.slow_queries += 1
                timer = threading.Timer(DELAY, self._send, (reply, client))
                self.timers.append(timer)
                timer.start()
            else:
                self._send(reply, client)

    def _answer(self, query: dns.message.Message, name: dns.name.Name) -> dns.message.Message:
        reply = dns.message.make_response(query)
        record = self.records.get(name.to_text())
        if record is None:
            reply.set_rcode(dns.rcode.NXDOMAIN)
        else:
            strings = " ".join(f'"{record[i:i + 255].decode()}"' for i in range(0, len(record), 255))
            reply.answer.append(dns.rrset.from_text(name, 60, "IN", "TXT", strings))
        return reply

    def _send(self, reply: bytes, client: tuple[str, int]) -> None:
        try:
            self.sock.sendto(reply, client)
        except OSError:
            pass

    def lookup(self, name: bytes, timeout: float = 5) -> bytes | None:
        """dkimpy's dnsfunc, asking this server."""
        resolver = dns.resolver.Resolver(configure=False)
        resolver.nameservers, resolver.port = ["127.0.0.1"], self.port
        resolver.timeout = timeout  # one query, waited for (not retried every 2 s)
        try:
            answer = resolver.resolve(name.decode(), "TXT", lifetime=timeout)
        except dns.resolver.NXDOMAIN:
            return None
        except dns.exception.Timeout as exc:
            raise dkim.DnsTimeoutError(str(exc)) from None
        return b"".join(answer[0].strings)

    def close(self) -> None:
        for timer in self.timers:
            timer.cancel()
        self.sock.close()


def signed(private: bytes, sender: str, subject: str, n: int) -> bytes:
    raw = make_mail(sender, subject, "Cake.", message_id=f"slow{n}@x").replace(b"\n", b"\r\n")
    return dkim.sign(raw, b"sel", sender.split("@")[1].encode(), private,
                     include_headers=[b"From", b"To", b"Subject", b"Message-ID"]) + raw


@pytest.fixture
def keys() -> tuple[bytes, bytes]:
    return dkim_key()


@pytest.fixture
def name_server(keys, monkeypatch) -> Iterator[SlowNameServer]:
    _, record = keys
    records = {f"sel._domainkey.{d}.": record for d in ["wonder.land"] + [f"s{i}.slow.test" for i in range(STRANGERS)]}
    server = SlowNameServer(records, "slow.test.")
    monkeypatch.setattr(dkim_mode, "dnsfunc", server.lookup)
    yield server
    server.close()


@pytest.fixture
def smtp_port(make_play, name_server) -> Iterator[tuple[int, Game]]:
    """The daemon's SMTP listener for a dkim-mode game, on an event loop of its own thread."""
    game = Game(make_play(auth="dkim").dir)
    writer = JournalWriter(game.inbox).start()
    settings = game.config.settings
    named = settings.model_copy(update={"smtp": settings.smtp.model_copy(update={"hostname": "imperial.test"})})
    handler = IntakeHandler(Routes([Mailbox(game.inbox, writer)]), named)
    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(loop.create_server(protocol_factory("smtp", handler), "127.0.0.1", 0))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield server.sockets[0].getsockname()[1], game
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    server.close()
    writer.stop()


def send(port: int, sender: str, raw: bytes) -> str:
    with smtplib.SMTP("127.0.0.1", port, timeout=120) as client:
        client.ehlo("x.test")
        client.mail(sender)
        client.rcpt(GAME_ADDRESS)
        code, reply = client.data(raw)
    return f"{code} {reply.decode()}"


def test_a_genuine_mail_is_journaled_while_strangers_wait_on_their_slow_name_server(smtp_port, name_server, keys):
    port, game = smtp_port
    private, _ = keys
    with ThreadPoolExecutor(STRANGERS) as pool:
        strangers = [pool.submit(send, port, f"x@s{i}.slow.test", signed(private, f"x@s{i}.slow.test", f"Proposal: S{i}", i))
                     for i in range(STRANGERS)]
        deadline = time.monotonic() + 30
        while name_server.slow_queries < 2:  # the strangers' look-ups are under way
            assert time.monotonic() < deadline, "no stranger's look-up reached the name server"
            time.sleep(0.01)
        started = time.monotonic()
        reply = send(port, GENUINE, signed(private, GENUINE, "Proposal: Genuine cake", 100))
        took = time.monotonic() - started
        answered = sum(f.done() for f in strangers)
        assert reply.startswith("250 2.0.0 Journaled as entry")
        assert answered == 0  # every stranger still waits on its name server
        assert took < DELAY  # generous: it took no stranger's look-up time
        assert all(f.result().startswith("250 2.0.0 Journaled") for f in strangers)
    auth = {parse_head(raw).subject: meta["auth"] for raw, meta in journal(game)}
    assert auth["Proposal: Genuine cake"] == {"authenticated": True, "method": "dkim", "detail": "dkim=pass wonder.land"}
    assert [a["authenticated"] for s, a in auth.items() if s.startswith("Proposal: S")] == [True] * STRANGERS


def journal(game: Game) -> list[tuple[bytes, dict]]:
    with Session(game.db) as s:
        rows = s.exec(select(JournalEntry).where(JournalEntry.kind == "mail")).all()
        return [(e.raw or b"", json.loads(e.meta)) for e in rows]


def test_one_messages_look_ups_share_one_time_budget(monkeypatch, keys):
    private, _ = keys
    _, other = dkim_key()
    monkeypatch.setattr(dkim_mode, "MESSAGE_DNS_BUDGET", 1)
    asked: list[bytes] = []

    def slow(name: bytes, timeout: float = 5) -> bytes | None:  # 0.4 s an answer, another key: each fails
        asked.append(name)
        time.sleep(min(0.4, timeout))
        if timeout < 0.4:
            raise dkim.DnsTimeoutError("timed out")
        return other
    raw = make_mail(GENUINE, "Proposal: Five times signed", message_id="five@x").replace(b"\n", b"\r\n")
    for selector in (b"s1", b"s2", b"s3", b"s4", b"s5"):
        raw = dkim.sign(raw, selector, b"wonder.land", private, include_headers=[b"From", b"Subject"]) + raw
    verdict = dkim_mode.verify(raw, parse_head(raw), lookup=slow)
    assert len(asked) == 3  # 0.4 s + 0.4 s + what was left; the fourth and fifth are never asked
    assert verdict == Verdict(False, "dkim", "; ".join(["d=wonder.land did not verify"] * 3 + [
        "2 more aligned DKIM signatures not examined: this message's DNS time (1 s) is used up"]))
