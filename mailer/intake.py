"""SMTP and LMTP intake with aiosmtpd: 250 only once the message is in the journal.

aiosmtpd runs every connection's handler on one event loop, so nothing here
may block it: authentication reads only the headers (dkim mode, which asks
DNS, runs on a pool of its own in turns by sender: mailer.auth_pool), and the durable commit runs in ONE writer thread (``JournalWriter``) that takes every
message waiting and commits them in a single transaction (group commit).
Processing (the engine, answers, the site) happens elsewhere, later, and
never delays a 250.

One listener may serve several games (``nomic host serve``): ``Routes`` gives each
recipient to the game that owns its address, each game has its own ``Mailbox``
(journal writer), a message to two games is journaled once in each, and LMTP
answers each recipient with its own game's status as soon as that game has
committed (in the order of the recipients, as RFC 2033 has it; a game that keeps a
later recipient waiting gets ``[lmtp] slow_game_wait`` seconds, then 451).

Replies: 550 at RCPT for an address no game owns, 452 past the
recipient limit, 552 past the size limit (SIZE), 421 past the connection
limit, 554 for a message that cannot be read at all (``Unreadable``: the
sender's fault), and 451 when the journal cannot be written or reading fails
otherwise (the sending server keeps the mail and retries): never a 5xx for our
own fault.

Each listener has its own connection limit and idle timeout (``door``):
SMTP is the public door, LMTP the trusted MTA's, and idle strangers filling
the first must never shut the MTA out of the second.
"""
from __future__ import annotations

import asyncio
import logging
import queue
import socket
import threading
import time
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP

from mailer.auth_pool import AuthPool
from mailer.envelope import QuickAddress
from mailer.inbox import Addresses
from mailer.message import Unreadable
from storage.settings.common import Listeners, LmtpSection, SmtpSection

if TYPE_CHECKING:
    from mailer.inbox import Inbox
    from mailer.ports import Arrival, Receipt

log = logging.getLogger("nomic.intake")
BATCH = 500  # most messages one group commit takes
LOG_EVERY = 1.0  # seconds: at most one INFO line this often for the entries committed meanwhile


def door(kind: str, listeners: Listeners) -> SmtpSection | LmtpSection:
    """The connection limit and idle timeout of one listener: ``[smtp]``'s or ``[lmtp]``'s."""
    return listeners.lmtp if kind == "lmtp" else listeners.smtp


Waiting = tuple["Arrival", "asyncio.Future[Receipt]"]  # a message and the future its 250 awaits


class JournalWriter:
    """One thread that journals messages, several per transaction when several wait.

    ``submit`` is called on the event loop; each commit settles its messages' futures with ONE
    callback on their loop (not one per message: each is a wake-up of the loop, a write to its
    self-pipe and a turn of the GIL).
    """

    def __init__(self, inbox: "Inbox", on_commit: Callable[[], None] = lambda: None,
                 name: str = "journal-writer"):
        self.inbox = inbox
        self.on_commit = on_commit
        self.last_commit = 0.0  # time.monotonic() of the latest group commit
        self.committing = False  # a batch is in hand (perhaps waiting for the database lock)
        self._queue: queue.Queue[Waiting | None] = queue.Queue()
        self._open = True  # taking mail; False once stop() was called
        self._gate = threading.Lock()  # a message is queued before the stop, or refused
        self._line = CommitLine()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> "JournalWriter":
        self._thread.start()
        return self

    def submit(self, arrival: "Arrival") -> "asyncio.Future[Receipt]":
        """The message's Receipt, once committed; an error if this writer has stopped (its game
        left a host while the message was on its way). Call on the event loop."""
        fut: asyncio.Future[Receipt] = asyncio.get_running_loop().create_future()
        with self._gate:
            if self._open:
                self._queue.put((arrival, fut))
                return fut
        fut.set_exception(RuntimeError("this game's journal writer has stopped"))
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
        with self._gate:
            self._open = False
            self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=self._line.due())
            except queue.Empty:  # nothing came for a while: the line of what was committed
                self._line.write()
                continue
            if item is None:
                self._line.write()
                return
            batch = [item]
            while len(batch) < BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._commit(batch)
                    self._line.write()
                    return
                batch.append(nxt)
            self._commit(batch)

    def _commit(self, batch: list[Waiting]) -> None:
        self.committing = True
        try:
            outcomes = self._journal(batch)
        finally:
            self.committing = False
            self.last_commit = time.monotonic()
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future, Receipt | Exception]]] = {}
        for (_, fut), outcome in zip(batch, outcomes):
            by_loop.setdefault(fut.get_loop(), []).append((fut, outcome))
        for loop, settled in by_loop.items():
            try:
                loop.call_soon_threadsafe(_settle, settled)
            except RuntimeError:  # the loop has closed: no sender is waiting for these replies any more
                log.warning("%d journaled message(s) had no one left to answer", len(settled))

    def _journal(self, batch: list[Waiting]) -> list["Receipt | Exception"]:
        """Each message's Receipt, or why it could not be stored."""
        try:
            receipts: list[Receipt | Exception] = list(self.inbox.receive_many([a for a, _ in batch]))
        except Exception as exc:
            if len(batch) > 1:  # one bad message must not fail the others: one at a time
                return [outcome for one in batch for outcome in self._journal([one])]
            log.error("cannot write the journal (the sender will retry): %s", exc)
            return [exc]
        self.on_commit()
        self._line.add(receipts)
        _log_each(batch, receipts)
        return receipts


class CommitLine:
    """The INFO line of what the writer journaled: the entries committed since the last line, written
    ``LOG_EVERY`` seconds after the first of them at the latest (at once when the writer stops). A
    line a commit cost 15 us of the writer's CPU, a line a message with one client sending (a line
    a message had once cost a tenth of the event loop's time under load)."""

    def __init__(self) -> None:
        self.first = self.last = self.count = 0
        self.since = 0.0  # time.monotonic() of the first entry not yet in a line

    def add(self, receipts: list["Receipt | Exception"]) -> None:
        new = [r.seq for r in receipts if not isinstance(r, Exception) and r.status == "new"]
        if not new:
            return
        if not self.count:
            self.first, self.since = new[0], time.monotonic()
        self.last, self.count = new[-1], self.count + len(new)
        if time.monotonic() - self.since >= LOG_EVERY:
            self.write()

    def due(self) -> float | None:
        """Seconds until the line is due (None: nothing to write)."""
        return max(0.0, self.since + LOG_EVERY - time.monotonic()) if self.count else None

    def write(self) -> None:
        if self.count == 1:
            log.info("journal entry %d committed", self.first)
        elif self.count:
            log.info("journal entries %d to %d committed (%d new)", self.first, self.last, self.count)
        self.count = 0


def _log_each(batch: list[Waiting], receipts: list["Receipt | Exception"]) -> None:
    """Each message's key and envelope sender, at DEBUG."""
    if log.isEnabledFor(logging.DEBUG):
        for (arrival, _), r in zip(batch, receipts):
            if not isinstance(r, Exception):
                log.debug("journal entry %s (%s): %s from <%s>", r.seq, r.status, r.key, arrival.meta.get("mail_from"))


def _settle(settled: list[tuple[asyncio.Future, "Receipt | Exception"]]) -> None:
    """On the event loop: each future its outcome (unless its sender has gone and it was cancelled)."""
    for fut, outcome in settled:
        if fut.done():
            continue
        if isinstance(outcome, Exception):
            fut.set_exception(outcome)
        else:
            fut.set_result(outcome)


class Mailbox:
    """One game's side of intake: its inbox (the addresses it owns, how it authenticates) and the
    writer of its journal."""

    def __init__(self, inbox: "Inbox", writer: JournalWriter):
        self.inbox = inbox
        self.writer = writer
        self.addresses = inbox.addresses
        self.slow_auth = inbox.auth.mode == "dkim"

    async def journal(self, raw: bytes, at: datetime, source: str, mail_from: str, rcpt_tos: list[str],
                      auth_pool: AuthPool) -> str:
        """Journal the message for this game's recipients ``rcpt_tos``; the reply for them."""
        args = (at, source, mail_from, rcpt_tos)
        try:
            if self.slow_auth:  # DNS look-ups: off the event loop, in the sender's turn
                arrival = await auth_pool.run(raw, self.inbox.prepare, *args)
            else:  # the headers only: well under a millisecond, cheaper than a thread hop
                arrival = self.inbox.prepare(raw, *args)
            receipt = await self.writer.submit(arrival)
        except Unreadable as exc:
            log.warning("message from <%s> to %s cannot be read (%s); answered 554", mail_from, rcpt_tos[0], exc)
            return f"554 5.6.0 The message cannot be read: {exc}"
        except Exception:
            log.exception("message from <%s> to %s not journaled; answered 451", mail_from, rcpt_tos[0])
            return UNSTORED
        if receipt.status == "duplicate":
            return f"250 2.0.0 Already received (journal entry {receipt.seq})"
        return f"250 2.0.0 Journaled as entry {receipt.seq}"


UNSTORED = "451 4.3.0 The message could not be stored; please try again later"


class Routes:
    """Which mailbox owns an address: a dictionary look-up, however many games a host serves.

    ``held``: the addresses of games that cannot be served now (``nomic host serve`` leaves out a
    game whose game.toml is wrong); their mail gets 451, so the sender's server keeps it and retries.
    """

    def __init__(self, mailboxes: list[Mailbox], held: list[Addresses] | None = None):
        self.held = held or []
        self.exact: dict[str, Mailbox] = {}
        self.bounces: dict[tuple[str, str], Mailbox] = {}
        for box in mailboxes:
            a = box.addresses
            self.exact.setdefault(a.address, box)
            self.exact.setdefault(a.list_address, box)
            if a.bounce_prefix:
                self.bounces.setdefault((a.domain, a.bounce_prefix), box)

    def find(self, address: str) -> Mailbox | None:
        addr = address.lower()
        box = self.exact.get(addr)
        if box is None:
            local, _, domain = addr.rpartition("@")
            box = self.bounces.get((domain, local.partition("+")[0]))
        return box if box is not None and box.addresses.owns(addr) else None

    def holds(self, address: str) -> bool:
        return any(a.owns(address) for a in self.held)


class Traffic:
    """Is mail arriving? A message between DATA and its reply, or a reply in the last 50 ms.

    Counted on the event loop; read from any thread (``nomic host serve``'s processors
    give way to it, as one game's processor gives way to its ``JournalWriter.busy``).
    """

    def __init__(self) -> None:
        self.in_hand = 0
        self.last = 0.0

    def busy(self) -> bool:
        return self.in_hand > 0 or time.monotonic() - self.last < 0.05


class IntakeHandler:
    """The aiosmtpd handler for both SMTP and LMTP: each recipient goes to the game that owns it.

    ``routes`` may be replaced while serving (``nomic host serve`` on SIGHUP): a recipient
    is looked up again at DATA, and one whose game has gone since RCPT gets 451.
    """

    def __init__(self, routes: Routes, listeners: Listeners, traffic: Traffic | None = None):
        self.routes = routes
        self.listeners = listeners  # [smtp]: what both listeners accept; [lmtp]: LMTP's door, slow_game_wait
        self.limits = listeners.smtp
        self.traffic = traffic or Traffic()
        self.auth_pool = AuthPool()  # every game's: one sender's turns are counted across them

    async def handle_RCPT(self, server: SMTP, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if self.routes.find(address) is None:
            if self.routes.holds(address):
                return f"451 4.3.0 <{address}>: this game is not served just now; please try again later"
            return f"550 5.1.1 <{address}>: no such mailbox here"
        if len(envelope.rcpt_tos) >= self.limits.max_recipients:
            return "452 4.5.3 Too many recipients"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Any, envelope: Any) -> str:
        """Journal one copy per game, all at once; LMTP answers each recipient with its game's
        status. SMTP has one reply: 451 if any game failed (the retry is a duplicate for the others)."""
        self.traffic.in_hand += 1
        try:
            return await self._journal(server, envelope)
        finally:
            self.traffic.in_hand -= 1
            self.traffic.last = time.monotonic()

    async def _journal(self, server: SMTP, envelope: Any) -> str:
        raw: bytes = envelope.original_content or b""
        at = datetime.now(timezone.utc)
        source = "lmtp" if isinstance(server, LMTP) else "smtp"
        mail_from = envelope.mail_from if envelope.mail_from not in (None, "<>") else ""
        owners = [self.routes.find(r) for r in envelope.rcpt_tos]
        games: dict[Mailbox, list[str]] = {}
        for rcpt, box in zip(envelope.rcpt_tos, owners):
            if box is not None:
                games.setdefault(box, []).append(rcpt)
        if len(games) == 1:  # nearly all mail: one game's reply, awaited here (no task, no wait on several)
            [(only, rcpts)] = games.items()
            reply = await only.journal(raw, at, source, mail_from, rcpts, self.auth_pool)
            return await _reply(server, [reply if box is not None else UNSTORED for box in owners])
        jobs = {box: asyncio.ensure_future(box.journal(raw, at, source, mail_from, rcpts, self.auth_pool))
                for box, rcpts in games.items()}
        if isinstance(server, LMTP):  # LMTP: one reply per accepted recipient
            return await self._answer_in_turn(server, owners, jobs)
        status = dict(zip(jobs, await asyncio.gather(*jobs.values())))
        return await _reply(server, [status[box] if box is not None else UNSTORED for box in owners])

    async def _answer_in_turn(self, server: SMTP, owners: list[Mailbox | None],
                              jobs: Mapping[Mailbox, "asyncio.Future[str]"]) -> str:
        """Each recipient's reply as soon as its game has committed, in the order of the recipients
        (RFC 2033 4.2): all but the last pushed here, the last returned for aiosmtpd to send.

        A game still committing when a later recipient's game has its reply is given
        ``[lmtp] slow_game_wait`` seconds more, then its recipients get 451: the MTA retries
        them alone (what the game journals meanwhile is a duplicate then).
        """
        grace = self.listeners.lmtp.slow_game_wait
        given_up: set[Mailbox] = set()
        replies: list[str] = []
        for i, box in enumerate(owners):
            if replies:
                await server.push(replies[-1])
            if box is None or box in given_up:
                replies.append(UNSTORED)
                continue
            later = [jobs[b] for b in owners[i + 1:] if b is not None and b is not box]
            reply = await _in_time(jobs[box], later, grace)
            if reply is None:
                log.warning("%s had not journaled a message after the other games; 451 to its recipients",
                            box.addresses.address)
                given_up.add(box)
            replies.append(reply or UNSTORED)
        return replies[-1] if replies else UNSTORED


async def _reply(server: SMTP, replies: list[str]) -> str:
    """The reply to DATA, each recipient's known: LMTP's one per recipient (all but the last pushed
    here, the last returned for aiosmtpd to send); SMTP's one, the first failure if any failed."""
    if not replies:
        return UNSTORED
    if isinstance(server, LMTP):
        for reply in replies[:-1]:
            await server.push(reply)
        return replies[-1]
    return next((r for r in replies if not r.startswith("2")), replies[0])


async def _in_time(job: "asyncio.Future[str]", later: list["asyncio.Future[str]"], grace: float) -> str | None:
    """``job``'s reply; None if it keeps one of the ``later`` replies waiting more than ``grace`` seconds."""
    while not job.done():
        waiting = [other for other in later if not other.done()]
        if len(waiting) < len(later):  # a later reply is ready: this one has grace seconds more
            await asyncio.wait([job], timeout=grace)
            return job.result() if job.done() else None
        await asyncio.wait([job, *waiting], return_when=asyncio.FIRST_COMPLETED)
    return job.result()


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


class LimitedSMTP(QuickAddress, _ConnectionLimit, SMTP):
    kind = "SMTP"


class LimitedLMTP(QuickAddress, _ConnectionLimit, LMTP):
    kind = "LMTP"


def protocol_factory(kind: str, handler: IntakeHandler) -> Callable[[], SMTP]:
    """A factory for ``loop.create_server``: SMTP or LMTP speaking to ``handler``, with its own door."""
    limits = handler.limits
    own = door(kind, handler.listeners)
    counter = [0]  # this listener's connections
    cls = LimitedLMTP if kind == "lmtp" else LimitedSMTP
    hostname = limits.hostname or socket.getfqdn()  # once: getfqdn may ask DNS

    def make() -> SMTP:
        proto = cls(handler, data_size_limit=limits.max_message_size, timeout=own.timeout,
                    hostname=hostname, enable_SMTPUTF8=True, loop=asyncio.get_running_loop())
        proto.counter, proto.limit = counter, own.max_connections
        return proto
    return make
