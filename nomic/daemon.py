"""``nomic serve``: intake, clock, processing, outbox sender, site and preview, in one process.

Two parts: ``GameService``, one game's threads (writer, processor, sender), and the
listeners (``listen``, ``start_http``, ``wait_for_signal``), which ``nomic host serve``
(nomic/host.py) shares among the ``GameService`` of every game it serves.

Threads, each with one job:

- the event loop (main thread): aiosmtpd SMTP and LMTP servers (mailer.intake);
- ``journal-writer``: group commits of received mail (mailer.intake.JournalWriter);
- ``processor``: the clock and the fold: ``game.tick(now)`` when the engine says
  something is due (looked at every 30 s at most), ``game.process()`` whenever
  mail was journaled (giving way to a busy intake), site rebuilds; the only
  thread that touches the game state;
- ``sender``: mailer.sender.run_forever, when ``[outbox] relay`` is set;
- ``http``: with ``--http``, mailer.http_server: the built site, and the list's links and
  form (mailer.web), which it serves holding the processor's lock (they read the state).

SIGTERM or SIGINT: stop listening, commit what is queued (those senders get
their 250), fold what was journaled (up to ``FINAL_LIMIT`` entries, and for at most
``FINAL_SECONDS``: a long backlog waits for the next start rather than delay the stop), and exit 0.
"""
from __future__ import annotations

import asyncio
import json
import logging
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import engine
from mailer.http_server import Server, make_server
from mailer.intake import IntakeHandler, JournalWriter, Mailbox, Routes, protocol_factory
from nomic import summary, tuning
from nomic.hold import Held, Hold
from nomic.thread_names import name_this_thread
from nomic.site import build as build_website
from nomic.website import SiteMemory
from nomic.website.search import due as index_due, index as index_site, mark as mark_stale
from nomic.wiring import site

if TYPE_CHECKING:
    from nomic.game import Game
    from storage import Entry

log = logging.getLogger("nomic.daemon")
CLOCK_INTERVAL = 30.0  # seconds between looks at the clock when nothing is due sooner
CHUNK = 20  # most entries folded in one go while mail is arriving
MAX_YIELD = 3.0  # longest a round waits for a busy intake
FINAL_LIMIT = 2000  # most entries folded while stopping; the rest wait for the next start
FINAL_SECONDS = 2.0  # longest a stop goes on folding (chunk by chunk): 2,000 entries with mail took 5-8 s
SITE_EVERY = 10.0  # seconds between site rebuilds at most
SITE_PATIENCE = 60.0  # longest a changed site waits for mail to stop arriving
SITE_RECHECK = 0.5  # seconds between looks at a busy intake by a processor whose site waits for it


class DaemonError(Exception):
    """Bad daemon arguments (one line for the operator)."""


def host_port(value: str, what: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit() or int(port) > 65535:
        raise DaemonError(f"--{what} wants HOST:PORT, not {value!r}")
    return host.strip("[]"), int(port)


class Turns:
    """Intake comes first, for one game's processor or for every processor of a host.

    While mail is arriving (``busy``), the processors sharing one ``Turns`` fold one at
    a time, in the order they asked, and a turn that did some work holds the next one
    back up to ``MAX_YIELD`` seconds (until mail stops arriving): a host of a hundred
    games leaves its intake as much of the GIL and the disk as one game does. A turn
    that found nothing to do holds no one back. When no mail is arriving, ``QUIET``
    processors fold at once, in turn. Few at a time matters: each fold holds its
    game's database lock, and folds sharing the GIL would each hold it longer, the
    game's own 250s waiting behind it when mail comes again.
    """
    POLL = 0.02  # seconds between looks at ``busy`` by the first in line
    QUIET = 2  # folds at once while no mail is arriving (the GIL runs one; a second overlaps its disk)

    def __init__(self, busy: Callable[[], bool]):
        self.busy = busy
        self.cond = threading.Condition()
        self.line: deque[object] = deque()
        self.held = 0  # turns being taken
        self.next = 0.0  # time.monotonic() before which a busy intake gets no fold

    @contextmanager
    def turn(self, stopping: threading.Event) -> Iterator[list[bool]]:
        """``with turns.turn(stopping) as worked:`` fold, then ``worked.append(True)`` if it did."""
        me = object()
        with self.cond:
            self.line.append(me)
            while not stopping.is_set() and not self._mine(me):
                self.cond.wait(self.POLL if self.line[0] is me else 1.0)
            self.line.remove(me)
            self.held += 1
            self.cond.notify_all()
        worked: list[bool] = []
        try:
            yield worked
        finally:
            with self.cond:
                self.held -= 1
                if worked:
                    self.next = time.monotonic() + MAX_YIELD
                self.cond.notify_all()

    def _mine(self, me: object) -> bool:
        if self.line[0] is not me:
            return False
        if not self.busy():
            return self.held < self.QUIET
        return not self.held and time.monotonic() >= self.next



class Indexer:
    """The Pagefind runs of one game's site, in a thread beside the fold (an index of a large site
    takes seconds, and the fold must not wait on it), one at a time: a run asked for while one
    runs is done once after it, so the index always catches up with the last pages written."""

    def __init__(self, site: Path, name: str):
        self.site, self.name = site, name
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._again = False

    def request(self) -> None:
        with self._lock:
            if self._thread is not None:
                self._again = True
                return
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()

    def _run(self) -> None:
        name_this_thread(self.name)
        while True:
            try:
                index_site(self.site)
            except Exception:  # a failed or killed run (search.index's timeout): the next rebuild asks again
                log.exception("search index failed")
            with self._lock:
                if not self._again:
                    self._thread = None
                    return
                self._again = False

class Processor(threading.Thread):
    """The clock and the fold; the only thread that touches the game state.

    Intake comes first (``Turns``): while mail is arriving, a round waits its turn,
    then folds at most ``CHUNK`` entries, so the GIL and the database lock go back
    to the 250s soon. The site is rebuilt when nothing more waits, at most every
    ``SITE_EVERY`` seconds, and once mail stops arriving (or after ``SITE_PATIENCE``
    seconds of mail): a rebuild and its search index take far longer than a chunk (0.36 s
    of CPU, and Pagefind on the other core), and in a host the game whose few entries
    are folded would rebuild in the middle of every other game's mail.
    """

    def __init__(self, game: "Game", lock: threading.Lock, turns: Turns, name: str = "processor",
                 final_limit: int = FINAL_LIMIT, final_seconds: float = FINAL_SECONDS):
        super().__init__(name=name, daemon=True)
        self.game = game
        self.lock = lock
        self.turns = turns
        self.final_limit = final_limit  # most entries folded while stopping
        self.final_seconds = final_seconds  # and for how long at most
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.site_dirty = False
        self.site_built = 0.0
        self.dirty_since = 0.0  # time.monotonic() when the site last became out of date
        self.site_memory = SiteMemory()  # what each rebuild remembers of the last
        self.indexer = Indexer(game.config.dir / "site", f"indexer-{name}")

    def stop(self) -> None:
        self.stopping.set()
        self.wake.set()
        self.join()

    def run(self) -> None:
        name_this_thread(self.name)
        final = False
        while True:
            final = final or self.stopping.is_set()  # after stop(): one last, larger round
            try:
                more = self.round(final)
            except Exception:  # e.g. the database is down: try again on the next round
                log.exception("processing round failed; retrying")
                more = False
            if final and not more:
                return
            if not more:
                self.wake.wait(self._wait())
                self.wake.clear()

    def round(self, final: bool = False) -> bool:
        """Tick, fold a chunk, maybe rebuild the site, in this processor's turn; True when more entries wait."""
        if final:  # stopping: intake has ended
            return self._round(final)[0]
        with self.turns.turn(self.stopping) as worked:
            more, did = self._round(final)
            if did:
                worked.append(True)
        return more

    def _round(self, final: bool) -> tuple[bool, bool]:
        """(more entries wait, anything was done). Stopping (``final``), the site is built only when no
        entry is left to fold: a backlog left for the next start is built then."""
        with self.lock:
            self.game.tick(datetime.now(timezone.utc))
            done = self.game.process(limit=CHUNK)
        more = len(done) == CHUNK
        if final and more:
            done, more = self._fold_more(done)
        for entry, events in done:
            for event in (e for e in events if e.kind == "unauthenticated"):
                detail = json.loads(entry.meta).get("auth", {}).get("detail")
                log.warning("journal entry %s (<%s> from %s) not authenticated: %s; no answer", entry.seq,
                            event.data.get("message_id"), event.data.get("sender"), detail)
        if done:
            log.info("processed journal entries %s to %s", done[0][0].seq, done[-1][0].seq)
            if not self.site_dirty:
                self.site_dirty, self.dirty_since = True, time.monotonic()
        build = self.site_dirty and not more and (final or self._site_ready())
        if build:
            self.build_site()
        return more and not final, build or bool(done)

    def _fold_more(self, done: list[tuple[Entry, list[engine.Event]]]) -> tuple[
            list[tuple[Entry, list[engine.Event]]], bool]:
        """Stopping, after a first chunk ``done``: more chunks until none wait, ``final_limit`` entries are
        folded or ``final_seconds`` have passed (the rest wait for the next start); and whether entries may
        be left. Each chunk commits on its own: what a stop folded stays folded however the process ends."""
        deadline = time.monotonic() + self.final_seconds
        while len(done) < self.final_limit and time.monotonic() < deadline:
            asked = min(CHUNK, self.final_limit - len(done))
            with self.lock:
                chunk = self.game.process(limit=asked)
            done = done + chunk
            if len(chunk) < asked:
                return done, False
        return done, True

    def _site_due(self) -> float:
        return self.site_built + SITE_EVERY - time.monotonic()

    def _site_waits(self) -> bool:
        """Is a due rebuild held back by mail arriving (for no longer than ``SITE_PATIENCE``)?"""
        return self.turns.busy() and time.monotonic() - self.dirty_since < SITE_PATIENCE

    def _site_ready(self) -> bool:
        return self._site_due() <= 0 and not self._site_waits()

    def build_site(self) -> None:
        self.site_dirty = False
        self.site_built = time.monotonic()
        site = self.game.config.dir / "site"
        try:
            with self.lock, tuning.no_collection():
                summary.publish(self.game.config.dir, self.game.state(),  # for a host's list of games
                                summary.last_mail(self.game.db))
                report = build_website(self.game, site, memory=self.site_memory)
            mark_stale(site, report.shards)
            if index_due(site):
                self.indexer.request()  # Pagefind, as nomic build does, beside the fold: mail is folded meanwhile
        except Exception:
            log.exception("site build failed")

    def _wait(self) -> float:
        """Seconds until the clock, the site or the periodic look is due."""
        waits = [CLOCK_INTERVAL]
        if self.site_dirty:
            waits.append(max(self._site_due(), SITE_RECHECK if self._site_waits() else 0.0))
        try:
            due = engine.next_due(self.game.state(), self.game.engine_config)
        except Exception:
            due = None
        if due is not None:
            waits.append((due - datetime.now(timezone.utc)).total_seconds())
        return max(0.0, min(waits))


class GameService:
    """One game's share of a daemon: its journal writer, its processor and its outbox sender.

    ``label`` names its threads (``processor-SLUG`` in a host); ``turns`` is shared by every
    game of a host (by default its own, giving way to its own writer), and a host shares
    ``FINAL_LIMIT`` among its games (``final_limit``). Start it before
    taking its mail; ``stop`` commits what is queued, folds it, and ends the threads.
    """

    def __init__(self, game: "Game", label: str = "", turns: Turns | None = None, final_limit: int = FINAL_LIMIT):
        self.game = game
        self.label = label
        self.lock = threading.Lock()
        self.writer = JournalWriter(game.inbox, name=self._name("journal-writer"))
        self.processor = Processor(game, self.lock, turns or Turns(self.writer.busy), self._name("processor"),
                                   final_limit)
        self.writer.on_commit = self.processor.wake.set
        self.mailbox = Mailbox(game.inbox, self.writer)
        self._stop_sender = threading.Event()
        self._sender: threading.Thread | None = None
        self.hold = Hold(game.config.dir)  # while it runs: no second daemon; nomic tick refuses a future --at

    def _name(self, job: str) -> str:
        return f"{job}-{self.label}" if self.label else job

    def start(self) -> "GameService":
        self.hold.acquire()
        self.writer.start()
        self.processor.start()
        self._sender = self._start_sender()
        return self

    def stop(self) -> None:
        self.writer.stop()
        self.processor.stop()
        self._stop_sender.set()
        if self._sender is not None:
            self._sender.join()
        self.hold.release()

    def _start_sender(self) -> threading.Thread | None:
        if not self.game.config.settings.outbox.relay:
            log.warning("%s: no [outbox] relay in game.toml: outgoing mail stays in the outbox",
                        self.game.config.dir)
            return None
        from nomic.game import Game
        from mailer.sender import run_forever
        from nomic.wiring import outlet
        own = Game(self.game.config.dir)  # its own connection pool and state cache
        name = self._name("sender")
        thread = threading.Thread(target=_named, args=(name, run_forever, outlet(own), self._stop_sender), name=name,
                                  daemon=True)
        thread.start()
        return thread


def _named(name: str, target: Callable[..., object], *args: object) -> None:
    """``target(*args)`` in a thread the kernel calls ``name`` (nomic.thread_names)."""
    name_this_thread(name)
    target(*args)


async def listen(handler: IntakeHandler, smtp: str | None, lmtp: str | None) -> list[asyncio.Server]:
    """The SMTP and LMTP listeners asked for, speaking to ``handler``."""
    loop = asyncio.get_running_loop()
    servers = []
    for kind, spec in (("smtp", smtp), ("lmtp", lmtp)):
        if spec:
            host, port = host_port(spec, kind)
            server = await loop.create_server(protocol_factory(kind, handler), host, port)
            servers.append(server)
            bound = server.sockets[0].getsockname()
            log.info("listening for %s on %s:%d", kind.upper(), bound[0], bound[1])
    return servers


async def close(servers: list[asyncio.Server]) -> None:
    for server in servers:
        server.close()
    await asyncio.gather(*(s.wait_closed() for s in servers))


def start_http(httpd: Server) -> Server:
    threading.Thread(target=httpd.serve_forever, name="http", daemon=True).start()
    log.info("serving the site on http://%s:%d/", *httpd.server_address[:2])
    return httpd


def stop_http(httpd: Server | None) -> None:
    if httpd is not None:
        httpd.shutdown()
        httpd.server_close()


def stop_signal() -> asyncio.Event:
    """An event that SIGTERM or SIGINT sets from now on. Made before the listeners open: once mail can
    arrive, either signal is a clean stop whenever it comes (before, a SIGTERM between listening and
    ``ready`` ended the process at once: no 250 for the mail queued, no fold, exit status -15)."""
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopped.set)
    return stopped


async def wait_for_signal(stopped: asyncio.Event | None = None) -> None:
    """Until SIGTERM or SIGINT (``stopped``: since ``stop_signal`` made it; else from now)."""
    if stopped is None:
        stopped = stop_signal()
    log.info("ready")
    await stopped.wait()
    log.info("stopping")


async def _serve(game: "Game", smtp: str | None, lmtp: str | None, http: str | None) -> None:
    loop = asyncio.get_running_loop()
    service = GameService(game)
    try:
        service.hold.acquire()  # before listening: a second daemon leaves the first one's ports alone
    except Held as exc:
        raise DaemonError(str(exc)) from None
    stopped = stop_signal()
    servers = await listen(IntakeHandler(Routes([service.mailbox]), game.config.settings), smtp, lmtp)
    httpd = None
    if http:
        httpd = start_http(make_server(host_port(http, "http"), site(game, service.lock, service.processor.wake.set)))
    service.start()
    tuning.settle_heap()
    await wait_for_signal(stopped)
    await close(servers)
    await loop.run_in_executor(None, service.stop)
    stop_http(httpd)
    log.info("stopped")


def check_addresses(smtp: str | None, lmtp: str | None, http: str | None) -> None:
    """Bad arguments fail before anything starts."""
    for spec, what in ((smtp, "smtp"), (lmtp, "lmtp"), (http, "http")):
        if spec:
            host_port(spec, what)


LOG_FORMAT = "%(asctime)s nomic: %(levelname)s: %(message)s"  # a daemon's log lines say when (UTC)


def quiet_logging(fmt: str = LOG_FORMAT) -> None:
    """The daemon's log: nomic's INFO, each line with its UTC time (``fmt``), not aiosmtpd's per-command
    chatter; and quick thread switches."""
    formatter = logging.Formatter(fmt, "%Y-%m-%dT%H:%M:%SZ")
    formatter.converter = time.gmtime
    for handler in logging.getLogger().handlers:
        handler.setFormatter(formatter)
    logging.getLogger("nomic").setLevel(logging.INFO)
    tuning.quick_switches()
    logging.getLogger("mail.log").setLevel(logging.WARNING)


def upgrade_logged(game_dir: Path, name: str | None = None) -> None:
    """``nomic upgrade``, as a daemon runs it before serving a game: each step done, in the log
    (``name``: the game's, under ``nomic host serve``; else its directory)."""
    from nomic.upgrade import upgrade
    for line in upgrade(game_dir, serving=True):
        log.info("%s: upgraded: %s", name or game_dir, line)


def run(game: "Game", smtp: str | None = None, lmtp: str | None = None,
        http: str | None = None) -> None:
    """``nomic serve``: run until SIGTERM or SIGINT."""
    quiet_logging()
    check_addresses(smtp, lmtp, http)
    asyncio.run(_serve(game, smtp, lmtp, http))

