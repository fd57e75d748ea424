"""The sender: hands queued deliveries to the SMTP relay (``[outbox] relay = "HOST:PORT"``).

``run_once(game)`` is one pass (``nomic send``); ``run_forever(game, stop)``
is what ``nomic serve`` runs. Several senders may run at once: deliveries
are taken with a compare-and-set claim.

How a pass works
----------------
It claims up to ``[outbox] batch`` due deliveries in one transaction (writing
first, when fewer are due, the deliveries of mail the fold queued: ``outbox.expand``),
hands them to the relay, and records their outcomes in the transaction that claims
the next batch. Its SMTP connections stay open for the whole pass (one SMTP
transaction per delivery: each has its own VERP envelope sender, and list
mail its own one-click unsubscribe link); a batch of more than ten
deliveries is spread over up to ``[outbox] connections`` of them, each
recipient's deliveries on one connection and in order. Every mail is made
ready for the wire once per pass (``Prepared``): a copy is its recipient's
headers in front of the same bytes.

What survives a crash, exactly
------------------------------
Before the DATA of each delivery, the pass writes ``D <id>`` to its handover
log and makes it durable (mailer/outbox.py, ``HandoverLog``); after the
relay's 250 it writes ``S <id>``. The next pass finds the deliveries of a
dead sender (its pid is gone on this host, or its claim is older than
``claim_lease``) and reads its log:

- no ``D``: the relay never got the message: it goes back to the queue.
  A crash before DATA therefore loses nothing and doubles nothing.
- ``S``: the relay took it: it is sent.
- ``D`` alone: the crash fell inside the DATA exchange, between our first
  byte of DATA and the log's record of the relay's answer, and nobody can
  know whether the relay took the message. ``[outbox] in_doubt`` decides:
  ``"resend"`` (the default: at-least-once; the one message that was in
  flight may arrive twice, with the same Message-ID and the same bytes, so
  mail clients and archives that deduplicate by Message-ID show it once) or
  ``"hold"`` (at-most-once: it is marked failed as "in doubt" for the
  operator to check in the relay's log). The window is one message per
  connection; after a power cut, one message per connection and the marks
  written after the last fdatasync (the ``S`` of that same message).

A sender on another host keeps its log there: when its lease runs out, its
claimed deliveries are all in doubt.

Temporary failures (4xx, a dropped or refused connection) go back to the
queue with a doubling back-off (``retry_base`` seconds, at most
``retry_cap``) until ``max_attempts``; a 5xx answer fails the delivery at once.
Any other error while handing over one delivery is that delivery's alone: it
is retried the same way and the pass goes on. An address that is not ASCII
goes with SMTPUTF8 (RFC 6531) when the relay offers it, and fails at once
when it does not.
"""
from __future__ import annotations

import logging
import os
import re
import smtplib
import socket
import threading
import time
import uuid
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

from sqlalchemy.engine import Connection, Engine

from mailer import bounces, headers
from mailer.listconfig import ListSettings
from mailer.outbox import HOST, Claimed, HandoverLog, Outcome, claim_batch, iso, raws, record, recover
from mailer.tokens import stamped_token
from storage.settings.common import OutboxSection

log = logging.getLogger("nomic.sender")
CRLF = re.compile(rb"\r?\n")
DOTS = re.compile(rb"^\.", re.MULTILINE)  # RFC 5321 4.5.2: a line's leading dot is doubled
UNSAFE = re.compile(r"[\x00-\x1f<>]")  # what would break MAIL FROM:<...> or RCPT TO:<...> (smtplib's
# quoteaddr parsed every address again: a fifth of a delivery's time)
HEAD_END = b"\r\n\r\n"  # the blank line after the header section (line ends made CRLF)
ERROR_MAX = 1000  # characters of a last_error
FOLDER = "outbox-handover"  # the handover logs, in the game directory
PER_LANE = 10  # deliveries a batch needs per extra connection


def relay_address(cfg: OutboxSection) -> tuple[str, int]:
    """``[outbox] relay``'s host and port (checked HOST:PORT when the game was opened)."""
    host, _, port = cfg.relay.rpartition(":")
    return host or "localhost", int(port or 25)


class Temporary(Exception):
    """Try again later."""


class Unreachable(Temporary):
    """The relay cannot be reached, or dropped the connection: try again later, and end the pass."""


class Permanent(Exception):
    """Never try again."""


class Doubt(Exception):
    """The connection failed during DATA: the relay may have the message."""


@dataclass(frozen=True)
class Prepared:
    """One outbox mail made ready for the wire, once a pass: CRLF line ends, dots doubled, and
    whether its header section needs SMTPUTF8. ``issued`` stamps its unsubscribe links."""
    wire: bytes
    personal: bool
    issued: datetime
    utf8_head: bool

    @classmethod
    def of(cls, raw: bytes, personal: bool, created: str) -> "Prepared":
        wire = DOTS.sub(b"..", CRLF.sub(b"\r\n", raw))
        if not wire.endswith(b"\r\n"):
            wire += b"\r\n"
        return cls(wire, personal, datetime.fromisoformat(created.replace("Z", "+00:00")),
                   not wire.split(HEAD_END, 1)[0].isascii())


def personalize(mail: Prepared, rcpt: str, ls: ListSettings) -> bytes:
    """The bytes for one recipient: list mail gets its RFC 8058 one-click unsubscribe.

    The link is stamped with the time the mail was composed, so mailer/web.py can
    refuse it once it is old or older than the recipient's latest subscription,
    and every attempt at one delivery sends the same bytes.
    """
    if not mail.personal:
        return mail.wire
    links = [f"<mailto:{ls.address}?subject=unsubscribe>"]
    if ls.site_url:
        links.insert(0, f"<{ls.url('unsubscribe/' + stamped_token(ls.token_key, 'unsubscribe', rcpt, mail.issued))}>")
    head = "List-Unsubscribe: " + ",\r\n ".join(links) + "\r\n"
    if ls.site_url:
        head += "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"
    return head.encode() + mail.wire


class Relay:
    """One SMTP connection to the relay, opened on first use and kept for many transactions."""

    def __init__(self, cfg: OutboxSection):
        self.cfg = cfg
        self.smtp: smtplib.SMTP | None = None

    def connect(self) -> smtplib.SMTP:
        if self.smtp is None:
            host, port = relay_address(self.cfg)
            smtp = smtplib.SMTP(host, port, timeout=self.cfg.timeout)
            if smtp.sock is not None:  # the final dot goes alone: Nagle would hold it for the relay's ACK
                smtp.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            smtp.ehlo_or_helo_if_needed()
            self.smtp = smtp
        return self.smtp

    def send(self, mail_from: str, rcpt: str, data: bytes, utf8_head: bool,
             before_data: Callable[[], Callable[[], None]]) -> None:
        """One SMTP transaction; ``data`` is ready for the wire (``Prepared``): DATA is written
        here, not by smtplib, which would double the dots again. ``before_data`` is called
        before the DATA command; what it returns, before the final dot."""
        reused = self.smtp is not None
        try:
            smtp = self.connect()
            options = self._options(smtp, mail_from, rcpt, utf8_head)
            smtp.command_encoding = "utf-8" if options else "ascii"
            reply = smtp.docmd("mail", f"FROM:<{mail_from}>{''.join(' ' + o for o in options)}")
            if reply[0] == 250:
                reply = smtp.docmd("rcpt", f"TO:<{rcpt}>")
        except (OSError, smtplib.SMTPException) as exc:
            self.close()
            if reused:  # the relay closed a connection we kept: once more, on a new one
                return self.send(mail_from, rcpt, data, utf8_head, before_data)
            raise Unreachable(f"relay {self.cfg.relay}: {exc}") from None
        if reply[0] not in (250, 251):
            self._reset()
            _refused(*reply)
        durable = before_data()
        try:
            code, resp = smtp.docmd("data")
            if code == 354:
                smtp.send(data)
                durable()  # the relay cannot take the message before its final dot
                smtp.send(b".\r\n")
                code, resp = smtp.getreply()
        except Exception as exc:  # whatever broke, the relay may have the message
            self.close()
            raise Doubt(f"relay {self.cfg.relay}: {exc} during DATA") from None
        if code != 250:
            self._reset()
            _refused(code, resp)

    def _options(self, smtp: smtplib.SMTP, mail_from: str, rcpt: str, utf8_head: bool) -> list[str]:
        """SMTPUTF8 (RFC 6531) for an address that is not ASCII, which cannot go without it, and
        for UTF-8 headers (RFC 6532) when the relay offers it."""
        if UNSAFE.search(mail_from) or UNSAFE.search(rcpt):
            raise Permanent(f"the address {rcpt!r} cannot be written in an SMTP command")
        offered = smtp.has_extn("smtputf8")
        if not (mail_from.isascii() and rcpt.isascii()):
            if not offered:
                raise Permanent(f"the address {rcpt} is not ASCII and the relay {self.cfg.relay} "
                                "does not offer SMTPUTF8 (RFC 6531), so it cannot be sent")
            return ["SMTPUTF8"]
        return ["SMTPUTF8"] if offered and utf8_head else []

    def _reset(self) -> None:
        try:
            if self.smtp is not None:
                self.smtp.rset()
        except (OSError, smtplib.SMTPException):
            self.close()

    def close(self) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except (OSError, smtplib.SMTPException):
                self.smtp.close()
            self.smtp = None


def _refused(code: int, text: bytes) -> None:
    message = f"{code} {text.decode(errors='replace')}"
    raise (Permanent if code >= 500 else Temporary)(message)


@dataclass(frozen=True)
class Outlet:
    """What the sender needs of a game: its database (the outbox), its list settings, its
    ``[outbox]`` section and its directory (the handover logs are kept in ``FOLDER`` there)."""
    db: Engine
    settings: ListSettings
    cfg: OutboxSection
    game_dir: Path


def run_once(outlet: Outlet, now: datetime | None = None) -> int:
    """One pass over the due deliveries; returns how many were sent.

    A pass stops early when the relay cannot be reached (everything waits for
    the next pass), so a relay outage costs one attempt, not one per delivery.
    """
    if not outlet.cfg.relay:
        log.warning("no [outbox] relay configured: mail stays queued")
        return 0
    return Pass(outlet, now or datetime.now(timezone.utc)).run()


class Pass:
    """One pass of the sender: its claim, its connections, its prepared mails and its handover log."""

    def __init__(self, outlet: Outlet, now: datetime):
        self.db, self.cfg, self.now = outlet.db, outlet.cfg, now
        self.ls = outlet.settings
        self.claim = f"{HOST}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.folder = outlet.game_dir / FOLDER
        self.started = time.monotonic()
        self.relays = [Relay(self.cfg) for _ in range(self.cfg.connections)]
        self.width = self.cfg.connections  # connections the relay has taken (it may allow fewer)
        self.prepared: dict[int, Prepared] = {}
        self.log: HandoverLog | None = None
        self.stop = threading.Event()  # the relay is unreachable: end the pass
        self.syncer = ThreadPoolExecutor(1, "handover-sync")  # makes D marks durable during DATA
        self.deadline = 0.0

    def run(self) -> int:
        with self.db.begin() as conn:
            dead = recover(conn, self.folder, self.cfg.claim_lease, self.cfg.in_doubt, self.now, self.claim)
        for claim in dead:
            (self.folder / f"{claim}.log").unlink(missing_ok=True)
        sent, finished = 0, False
        done: list[Outcome] = []
        owners: dict[int, int] = {}  # delivery id -> outbox id, of the batch in hand
        pool = ThreadPoolExecutor(self.cfg.connections, "sender") if self.cfg.connections > 1 else None
        try:
            while True:
                with self.db.begin() as conn:  # one transaction a batch: the last one's outcomes, the next claim
                    record(conn, self.claim, done, owners)
                    batch = [] if self.stop.is_set() else claim_batch(
                        conn, self.claim, self.now, self._clock(), self.cfg.batch)
                    self._prepare(conn, batch)
                if not batch:
                    break
                if self.log is None:  # before anything is handed over
                    self.log = HandoverLog(self.folder, self.claim)
                owners = {d.id: d.outbox_id for d in batch}
                done = self._send(batch, pool)
                sent += sum(o.status == "sent" for o in done)
            finished = True
        finally:
            if pool is not None:
                pool.shutdown()
            self.syncer.shutdown()
            for relay in self.relays:
                relay.close()
            if self.log is not None:  # kept after a fault: the next pass recovers from it
                self.log.close(remove=finished)
        return sent

    def _clock(self) -> datetime:
        """``now`` moved on by the time the pass has taken: a claim's age is what the lease measures."""
        return self.now + timedelta(seconds=time.monotonic() - self.started)

    def _prepare(self, conn: Connection, batch: list[Claimed]) -> None:
        """The batch's mails made ready, each once for as long as batches need it."""
        needed = {d.outbox_id for d in batch}
        self.prepared = {oid: mail for oid, mail in self.prepared.items() if oid in needed}
        wanted = needed - self.prepared.keys()
        if wanted:
            for oid, (raw, personal, created) in raws(conn, wanted).items():
                self.prepared[oid] = Prepared.of(raw, personal, created)

    def _send(self, batch: list[Claimed], pool: ThreadPoolExecutor | None) -> list[Outcome]:
        """Hand a batch over: one lane per connection, a recipient always in the same lane."""
        self.deadline = time.monotonic() + self.cfg.claim_lease / 4  # well inside the claim's lease
        lanes = max(1, min(self.width, len(batch) // PER_LANE))
        if lanes > 1 and not self._first_connected():
            lanes = 1
        if lanes == 1 or pool is None:
            return self._lane(0, batch)
        parts: list[list[Claimed]] = [[] for _ in range(lanes)]
        for d in batch:
            parts[zlib.crc32(d.rcpt.encode()) % lanes].append(d)
        return [o for part in pool.map(self._lane, range(lanes), parts) for o in part]

    def _first_connected(self) -> bool:
        try:
            self.relays[0].connect()
            return True
        except (OSError, smtplib.SMTPException):
            return False  # one lane, whose first delivery meets the outage as its own

    def _lane(self, index: int, items: list[Claimed]) -> list[Outcome]:
        relay = self.relays[index]
        if index:
            try:
                relay.connect()
            except (OSError, smtplib.SMTPException) as exc:  # the relay allows fewer connections
                log.info("the relay took %d connections, not %d: %s", index, index + 1, exc)
                self.width = min(self.width, index)
                return [Outcome(d.id, "queued", released=True) for d in items]
        done: list[Outcome] = []
        for n, d in enumerate(items):
            if self.stop.is_set() or time.monotonic() > self.deadline:
                return done + [Outcome(x.id, "queued", released=True) for x in items[n:]]
            done.append(self._hand_over(relay, d))
        return done

    def _hand_over(self, relay: Relay, d: Claimed) -> Outcome:
        assert self.log is not None
        handover = self.log
        mail = self.prepared[d.outbox_id]
        began = False

        def before_data() -> Callable[[], None]:
            nonlocal began
            began = True
            return self.syncer.submit(handover.sync, handover.mark("D", d.id)).result

        try:
            relay.send(bounces.verp(self.ls, d.rcpt), d.rcpt, personalize(mail, d.rcpt, self.ls),
                       mail.utf8_head, before_data)
        except Permanent as exc:
            outcome = self._finish(d, "failed", str(exc))
        except Doubt as exc:
            if self.cfg.in_doubt == "hold":
                return self._finish(d, "failed", f"in doubt: {exc}; not resent (in_doubt = hold)")
            return self._retry(d, f"in doubt: {exc}; will be resent")
        except Temporary as exc:
            if isinstance(exc, Unreachable):
                self.stop.set()
            outcome = self._retry(d, str(exc))
        except Exception as exc:  # this delivery's own trouble (its bytes, its address): never the whole pass's
            log.exception("delivery %s to %s", d.id, d.rcpt)
            relay.close()  # the SMTP dialogue is in an unknown state
            return self._retry(d, f"{type(exc).__name__}: {exc}")
        else:
            handover.mark("S", d.id)  # durable with the next D, or the batch's commit
            return Outcome(d.id, "sent", sent_at=iso(self.now))
        if began:  # the relay answered the DATA with a refusal: it does not have the message
            handover.mark("R", d.id)
        return outcome

    def _retry(self, d: Claimed, error: str) -> Outcome:
        if d.attempts >= self.cfg.max_attempts:
            return self._finish(d, "failed", f"gave up after {d.attempts} attempts: {error}")
        wait = min(self.cfg.retry_cap, self.cfg.retry_base * 2 ** (d.attempts - 1))
        due = iso(self.now + timedelta(seconds=wait))
        log.info("delivery %s to %s deferred until %s: %s", d.id, d.rcpt, due, error)
        return self._finish(d, "queued", error, due)

    def _finish(self, d: Claimed, status: str, error: str, due: str | None = None) -> Outcome:
        error = headers.text(error, ERROR_MAX)  # one line (and no NUL: PostgreSQL text)
        if status == "failed":
            log.warning("delivery %s to %s failed: %s", d.id, d.rcpt, error)
        return Outcome(d.id, status, error, next_attempt=due)


def run_forever(outlet: Outlet, stop: threading.Event, interval: float = 5.0) -> None:
    """The daemon's sender loop: a pass, then wait ``interval`` seconds or until ``stop`` is set."""
    while not stop.is_set():
        try:
            run_once(outlet)
        except Exception:  # a bad pass must not end the daemon's sender
            log.exception("sender pass failed")
        stop.wait(interval)
