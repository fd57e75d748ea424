"""SMTP and LMTP intake with aiosmtpd: 250 only once the message is in the journal.

aiosmtpd runs every connection's handler on one event loop, so nothing here
may block it: authentication reads only the headers (dkim mode, which asks
DNS, runs in the default executor), and the durable commit runs in ONE writer thread (``JournalWriter``) that takes every
message waiting and commits them in a single transaction (group commit).
Processing (the engine, answers, the site) happens elsewhere, later, and
never delays a 250.

Replies: 550 at RCPT for an address the game does not own, 452 past the
recipient limit, 552 past the size limit (SIZE), 421 past the connection
limit, and 451 when the journal cannot be written (the sending server keeps
the mail and retries): never a 5xx for our own fault.

Each listener has its own connection limit and idle timeout (``Door``):
SMTP is the public door, LMTP the trusted MTA's, and idle strangers filling
the first must never shut the MTA out of the second.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import queue
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP

if TYPE_CHECKING:
    from mailer.ports import Arrival, GameHandle, Receipt

log = logging.getLogger("nomic.intake")
BATCH = 500  # most messages one group commit takes


@dataclass(frozen=True)
class Limits:
    """``[smtp]`` in game.toml: what both listeners accept; ``max_connections`` and ``timeout`` are SMTP's."""
    max_message_size: int = 1024 * 1024
    max_connections: int = 100
    max_recipients: int = 100
    timeout: float = 300
    bounce_prefix: str = "game-bounces"
    hostname: str = ""

    @classmethod
    def from_config(cls, section: dict[str, Any]) -> "Limits":
        names = cls.__dataclass_fields__
        return cls(**{k: v for k, v in section.items() if k in names})


@dataclass(frozen=True)
class Door:
    """One listener's connections: at most ``max_connections`` at once (more get 421), each
    dropped after ``timeout`` seconds of silence."""
    max_connections: int
    timeout: float


LMTP_DOOR = Door(max_connections=100, timeout=600)  # [lmtp] defaults: the MTA's door, roomy and patient


def door(kind: str, game: "GameHandle", limits: Limits) -> Door:
    """SMTP: ``[smtp] max_connections`` and ``timeout``; LMTP: ``[lmtp]``'s, defaulting to ``LMTP_DOOR``."""
    if kind == "smtp":
        return Door(limits.max_connections, limits.timeout)
    section = game.config.section("lmtp")
    return Door(int(section.get("max_connections", LMTP_DOOR.max_connections)),
                float(section.get("timeout", LMTP_DOOR.timeout)))


class JournalWriter:
    """One thread that journals messages, several per transaction when several wait."""

    def __init__(self, game: "GameHandle", on_commit: Callable[[], None] = lambda: None):
        self.game = game
        self.on_commit = on_commit
        self.last_commit = 0.0  # time.monotonic() of the latest group commit
        self.committing = False  # a batch is in hand (perhaps waiting for the database lock)
        self._queue: queue.Queue[tuple[Arrival, concurrent.futures.Future] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="journal-writer", daemon=True)

    def start(self) -> "JournalWriter":
        self._thread.start()
        return self

    def submit(self, arrival: "Arrival") -> concurrent.futures.Future:
        fut: concurrent.futures.Future = concurrent.futures.Future()
        self._queue.put((arrival, fut))
        return fut

    def busy(self) -> bool:
        """Is mail arriving (queued, being committed, or committed in the last 50 ms)?

        "Being committed" matters: a writer kept waiting for the database lock
        by the processor must not look idle, or the processor folds on and on
        while the senders wait for their 250s.
        """
        return self.committing or not self._queue.empty() or time.monotonic() - self.last_commit < 0.05

    def stop(self) -> None:
        """Commit what is already queued, then end the thread."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._commit(batch)
                    return
                batch.append(nxt)
            self._commit(batch)

    def _commit(self, batch: list[tuple["Arrival", concurrent.futures.Future]]) -> None:
        self.committing = True
        try:
            self._journal(batch)
        finally:
            self.committing = False
            self.last_commit = time.monotonic()

    def _journal(self, batch: list[tuple["Arrival", concurrent.futures.Future]]) -> None:
        try:
            receipts = self.game.receive_many([a for a, _ in batch])
        except Exception as exc:
            if len(batch) > 1:  # one bad message must not fail the others: one at a time
                for one in batch:
                    self._journal([one])
                return
            log.error("cannot write the journal (the sender will retry): %s", exc)
            batch[0][1].set_exception(exc)
            return
        for (_, fut), receipt in zip(batch, receipts):
            fut.set_result(receipt)
        self.on_commit()


class IntakeHandler:
    """The aiosmtpd handler for both SMTP and LMTP."""

    def __init__(self, game: "GameHandle", writer: JournalWriter, limits: Limits):
        self.game = game
        self.writer = writer
        self.limits = limits
        cfg = game.engine_config
        self.domain = cfg.address.rpartition("@")[2]
        self.owned = {cfg.address, cfg.list_address}
        self.slow_auth = game.config.section("auth").get("mode") == "dkim"

    def owns(self, address: str) -> bool:
        addr = address.lower()
        local, _, domain = addr.rpartition("@")
        if addr in self.owned:
            return True
        prefix = self.limits.bounce_prefix.lower()
        return bool(prefix) and domain == self.domain and (local == prefix or local.startswith(prefix + "+"))

    async def handle_RCPT(self, server: SMTP, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if not self.owns(address):
            return f"550 5.1.1 <{address}>: no such mailbox here"
        if len(envelope.rcpt_tos) >= self.limits.max_recipients:
            return "452 4.5.3 Too many recipients"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Any, envelope: Any) -> str:
        status = await self._journal(server, envelope)
        if isinstance(server, LMTP):  # LMTP: one reply per accepted recipient
            return "\r\n".join([status] * max(1, len(envelope.rcpt_tos)))
        return status

    async def _journal(self, server: SMTP, envelope: Any) -> str:
        raw: bytes = envelope.original_content or b""
        at = datetime.now(timezone.utc)
        source = "lmtp" if isinstance(server, LMTP) else "smtp"
        mail_from = envelope.mail_from if envelope.mail_from not in (None, "<>") else ""
        args = (raw, at, source, mail_from, list(envelope.rcpt_tos))
        try:
            if self.slow_auth:  # DNS look-ups: off the event loop
                arrival = await asyncio.get_running_loop().run_in_executor(None, self.game.prepare, *args)
            else:  # the headers only: well under a millisecond, cheaper than a thread hop
                arrival = self.game.prepare(*args)
            receipt: Receipt = await asyncio.wrap_future(self.writer.submit(arrival))
        except Exception:
            log.exception("message from <%s> not journaled; answered 451", mail_from)
            return "451 4.3.0 The message could not be stored; please try again later"
        if receipt.status == "duplicate":
            return f"250 2.0.0 Already received (journal entry {receipt.seq})"
        log.info("journal entry %s: %s from <%s>", receipt.seq, receipt.key, mail_from)
        return f"250 2.0.0 Journaled as entry {receipt.seq}"


class _ConnectionLimit:
    """Mixin: at most ``limit`` simultaneous connections (a counter per listener); the rest get 421.

    Lines up to 64 KiB are taken: RFC 5321 says 1000, but real clients send
    longer (unencoded HTML), and refusing them would be a permanent 500.
    """
    counter: list[int]
    limit: int
    kind: str  # for the log
    line_length_limit = 64 * 1024

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self.counter[0] += 1
        if self.counter[0] > self.limit:
            log.warning("%s connection limit (%d) reached; 421 to %s", self.kind, self.limit,
                        transport.get_extra_info("peername"))
            transport.write(b"421 4.3.2 Too many connections; try again later\r\n")  # type: ignore[attr-defined]
            transport.close()

    def connection_lost(self, error: Exception | None) -> None:
        self.counter[0] -= 1
        super().connection_lost(error)  # type: ignore[misc]


class LimitedSMTP(_ConnectionLimit, SMTP):
    kind = "SMTP"


class LimitedLMTP(_ConnectionLimit, LMTP):
    kind = "LMTP"


def protocol_factory(kind: str, handler: IntakeHandler) -> Callable[[], SMTP]:
    """A factory for ``loop.create_server``: SMTP or LMTP speaking to ``handler``, with its own ``Door``."""
    limits = handler.limits
    own = door(kind, handler.game, limits)
    counter = [0]  # this listener's connections
    cls = LimitedLMTP if kind == "lmtp" else LimitedSMTP
    hostname = limits.hostname or socket.getfqdn()  # once: getfqdn may ask DNS

    def make() -> SMTP:
        proto = cls(handler, data_size_limit=limits.max_message_size, timeout=own.timeout,
                    hostname=hostname, enable_SMTPUTF8=True, loop=asyncio.get_running_loop())
        proto.counter, proto.limit = counter, own.max_connections
        return proto
    return make
