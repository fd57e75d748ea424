"""The runner: journal first, then the engine, then the outputs (events, outbox).

Data flows one way: mail -> journal -> engine -> events -> (outbox, site).
The game's ``inbox`` (mailer.inbox.Inbox) only journals (that is what an SMTP 250 waits for);
``process`` folds every journaled entry not yet processed, in order, exactly once.

No entry can wedge the fold. Mail is parsed before the write transaction
opens (intake is never kept waiting on a parse). Everything an entry costs after
the journal runs inside one fault boundary (``_fold``): its parse, its fold, and
making the rows it stores (its events, its input for the cache of parsed inputs);
an entry that faults in any of them is recorded in the journal as a "skip" entry,
once, and skipped from then on, by every replay too. A fault while composing its
outgoing mail rolls back that mail alone, recorded as a ``mail_fault`` event.
Before the journal, a message that cannot be read at all is refused by intake
(``Inbox.prepare`` raises) or journaled all the same by ``poll`` and ``ingest`` (``Inbox.admit``).
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from datetime import datetime, timedelta
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import delete, func
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

import engine
import storage
from engine.events import Fault, MailFault
from engine.inputs import ClockStep, Message, load_message
from engine.ruleset import ruleset_for
from engine.state import GameState
from mailer import outbox, outgoing
from mailer.grammar import Grammar
from mailer.inbox import Addresses, Inbox
from mailer.inputs import parser_version, to_input
from mailer.ledger import Ledger
from mailer.listconfig import ListSettings, settings
from mailer.mailing import Mailing
from mailer.message import Received
from mailer.ports import Receipt
from nomic import tuning
from nomic.clock import ClockFloor
from storage import Duplicate, Entry, UpgradeNeeded
from storage.config import CONFIG_NAME, Config, check_secrets, parse_time
from storage.tables import Meta, Snapshot

log = logging.getLogger("nomic")
PROCESS_BATCH = 200  # most entries folded in one transaction
BATCH_BYTES = 16 << 20  # and most mail: their bytes and parses stay in memory until it commits
SNAPSHOT_EVERY = 1000  # entries folded between snapshots while a backlog lasts (at least)
SNAPSHOT_BACKLOG_BYTES_PER_ENTRY = 512  # ... and a snapshot of B bytes waits for B / this entries
SNAPSHOT_BYTES_PER_ENTRY = 64 * 1024  # once drained, a snapshot of B bytes waits for B / this entries
Progress = Callable[[int], None]  # told the journal seq reached, now and then
Input = Message | ClockStep
Parsed = Input | Exception | None  # an entry's input, or why it could not be read (None: a skip entry)


class Folded(NamedTuple):
    """One entry folded: the state to carry on with, its events (none made by a replay) and input
    (None if it faulted or was a skip entry), and what the processor stores for it: its event rows
    and its input as JSON."""
    state: GameState[Any]
    events: list[engine.Event]
    inp: Input | None
    rows: list[dict]
    cached: str | None


class Game:
    def __init__(self, game_dir: Path, db: Engine | None = None):
        """The game in ``game_dir``. Opening it changes nothing: a game an older release wrote (its
        schema behind, or a refold asked for) raises ``UpgradeNeeded`` naming ``nomic upgrade``.
        ``db``: its database, opened and being brought up to date by the caller (nomic.upgrade)."""
        self.config = Config.load(game_dir)
        check_secrets(game_dir / CONFIG_NAME, self.config.data)
        self.engine_config = self.config.engine()
        try:
            self.db = db or storage.open_database(self.config.database_url)
            if db is None and storage.refold_reason(self.db):
                raise UpgradeNeeded("its journal must be folded again (a migration asked for it)")
        except UpgradeNeeded as exc:
            raise UpgradeNeeded(f"{game_dir}: {exc}; run `nomic upgrade --game {game_dir}` first") from None
        self.journal = storage.Journal(self.db)
        self.clock = ClockFloor(self.db)  # no entry is stamped earlier than the last clock step
        cfg, settings = self.engine_config, self.config.settings
        self.inbox = Inbox(self.journal, settings.auth, self.config.section("offices"), (cfg.address, cfg.list_address),
                           Addresses.of(cfg.address, cfg.list_address, settings.smtp.bounce_prefix), self.clock.stamp)
        self._state: GameState[Any] | None = None
        self._seq = 0  # journal seq that self._state reflects
        self._skips: dict[int, str] = {}  # entries recorded as faulting (storage.skipped), with self._state
        self._snapshot_size = 0  # the size of the last snapshot this process stored
        self.ruleset = ruleset_for(self.engine_config.ruleset)
        self.grammar = Grammar(self.ruleset.commands)
        self.parser = parser_version(self.engine_config.address, self.engine_config.list_address, self.ruleset)

    # -- the clock --------------------------------------------------------

    def tick(self, at: datetime) -> Receipt | None:
        """Journal a clock step if anything is due by ``at``; None if nothing is.
        A time before the last clock step's is that step's time (the clock never runs backward)."""
        at = self.clock.stamp(at)
        state = self.state()
        due = engine.next_due(state, self.engine_config)
        if due is None or due > at:
            return None
        key = f"clock:{storage.iso(at)}"
        result = self.journal.append([("clock", at, key, None, {})])[0]
        if isinstance(result, Duplicate):
            return Receipt("duplicate", result.seq, key)
        self.clock.stepped(at)
        return Receipt("new", result, key)

    # -- folding ----------------------------------------------------------

    @cached_property
    def list_settings(self) -> ListSettings:
        """The list's settings and the game's template renderer, made once (compiled templates are kept)."""
        return settings(self.config.settings, self.engine_config)

    def state(self) -> GameState[Any]:
        """The current state: the latest snapshot plus every processed entry after it."""
        if self._state is None:
            with Session(self.db, expire_on_commit=False) as s:
                self._seq = int(storage.get_meta(s, "processed_seq", "0"))
                self._skips = storage.skipped(s.connection())
                self._state = self._load(s, self._seq, self._skips, use_snapshot=True)
        return self._state

    def new_state(self) -> GameState[Any]:
        return engine.new_game(self.engine_config, self.config.rules_text())

    def _load(self, s: Session, upto: int, skips: dict[int, str], use_snapshot: bool, reparse: bool = False,
              progress: Progress | None = None, chain: storage.Chain | None = None) -> GameState[Any]:
        """The state after journal entries 1..upto (the cached parsed inputs unless ``reparse``)."""
        snap = None
        if use_snapshot:
            snap = s.exec(select(Snapshot).where(Snapshot.seq <= upto)
                          .order_by(Snapshot.seq.desc())).first()  # type: ignore[attr-defined]
        state = self.ruleset.state_model.model_validate_json(snap.state) if snap else self.new_state()
        parser = "" if reparse else self.parser
        for entry in storage.entries(s.connection(), after=snap.seq if snap else 0, upto=upto, parser=parser):
            if chain is not None:
                chain.check(entry)
            state = self._fold(s, state, entry, self._parse(entry), skips, use_snapshot).state
            if progress and entry.seq % 1000 == 0:
                progress(entry.seq)
        return state

    def _parse(self, entry: Entry, received: Received | None = None) -> Parsed:
        """The engine input of a journal entry: from the cache of parsed inputs, else read from
        ``received`` (its bytes, parsed once for its whole fold, outgoing mail included; made here
        if none is given); the exception if it cannot be read (the fold records it as the entry's fault)."""
        if entry.kind == storage.SKIP:
            return None
        try:
            if entry.parsed is not None:
                return load_message(entry.parsed, self.ruleset.message_model)
            return to_input(entry, received or Received(entry.raw or b""), self.engine_config.address,
                            self.engine_config.list_address, self.grammar)
        except Exception as exc:
            return exc

    def _fold(self, s: Session, state: GameState[Any], entry: Entry, inp: Parsed, skips: dict[int, str],
              use_snapshot: bool, record: bool = False) -> Folded:
        """Apply one entry, inside its fault boundary; with ``record`` (the processor), also make
        its events and the rows it stores there, so that content no database takes faults here and
        nowhere later (without, a replay's, no events are made).

        An entry in ``skips`` is not tried. An entry that faults (its parse, ``inp``, is the
        exception) is added to ``skips`` (and, with ``record``, journaled as a skip entry) and the
        state is rebuilt without it: once, since the rebuild and every later replay skip it
        without trying it again.
        """
        if entry.kind == storage.SKIP:
            return Folded(state, [], None, [], None)
        if entry.seq in skips:
            return _faulted(state, entry.seq, skips[entry.seq])
        try:
            if isinstance(inp, Exception):
                raise inp
            assert inp is not None
            if not record:  # a replay keeps only the state: its events are never made
                engine.fold(state, inp, engine.Context(config=self.engine_config, at=inp.at), self.ruleset)
                return Folded(state, [], inp, [], None)
            events = engine.apply(state, inp, self.engine_config, self.ruleset)
            cached = inp.model_dump_json() if entry.parsed is None and isinstance(inp, Message) else None
            return Folded(state, events, inp, storage.event_rows(entry.seq, events), cached)
        except Exception as exc:
            log.exception("journal entry %s could not be applied; skipped from now on", entry.seq)
            skips[entry.seq] = repr(exc)[:1000]
            if record:
                skip = storage.skip_item(entry.seq, parse_time(entry.at), skips[entry.seq])
                storage.append_many(s.connection(), [skip])
            state = self._load(s, entry.seq - 1, skips, use_snapshot)
            return _faulted(state, entry.seq, skips[entry.seq])

    def process(self, send: bool = True, upto: int | None = None,
                limit: int | None = None) -> list[tuple[Entry, list[engine.Event]]]:
        """Fold every journaled entry not yet processed (at most ``limit``); store events and mail.

        Entries are folded in transactions of up to ``PROCESS_BATCH``: the
        events, outgoing mail and ``processed_seq`` of a batch commit together
        (one fsync, not one per entry), so a crash never sends a mail twice.
        A batch runs without cyclic garbage collection (``tuning.no_collection``: a full
        collection walks the whole game state, ~10% of a fold with mail); between
        batches it runs as usual.
        """
        done: list[tuple[Entry, list[engine.Event]]] = []
        while limit is None or len(done) < limit:
            size = PROCESS_BATCH if limit is None else min(PROCESS_BATCH, limit - len(done))
            with tuning.no_collection():
                batch, cut = self._process_batch(send, upto, size)
            done += batch
            if not cut and len(batch) < size and not any(e.kind == Fault.KIND for _, events in batch for e in events):
                break  # (a fault journals a skip entry after the batch: it is folded too, now)
        return done

    def _process_batch(self, send: bool, upto: int | None,
                       size: int) -> tuple[list[tuple[Entry, list[engine.Event]]], bool]:
        """Fold a batch (and say whether ``BATCH_BYTES`` cut it short of ``size``), its entries'
        mail queued without a savepoint each; if an entry's mail faults, nothing of the batch is
        stored and it is folded again from the stored state, each entry's mail in a savepoint of
        its own (the faulting one's rolled back alone)."""
        try:
            return self._fold_batch(send, upto, size, careful=False)
        except _MailFaulted:
            return self._fold_batch(send, upto, size, careful=True)

    def _fold_batch(self, send: bool, upto: int | None, size: int,
                    careful: bool) -> tuple[list[tuple[Entry, list[engine.Event]]], bool]:
        state = self.state()
        batch, cut = self._read_batch(upto, size)
        done: list[tuple[Entry, list[engine.Event]]] = []
        if not batch:
            return done, cut
        try:
            with Session(self.db, expire_on_commit=False) as s:
                if self._processed_elsewhere(s):  # reload from the database next time
                    self._state = None
                    return done, False
                stored: list[dict] = []  # the batch's event rows, and its parsed inputs:
                inputs: list[tuple[int, str]] = []  # each written in one statement at the end
                ledger = Ledger(s)
                messages = [inp for _, _, inp in batch if isinstance(inp, Message) and inp.sender]
                if send and messages:  # the answers the batch's senders had in the hour before it
                    ledger.read_answers([m.sender for m in messages],
                                        storage.iso(min(m.at for m in messages) - timedelta(hours=1)))
                with self._holding(s, ledger, send and not careful):  # a batch's rows: one statement
                    for entry, received, parsed in batch:
                        folded = self._fold(s, state, entry, parsed, self._skips, use_snapshot=True, record=True)
                        state = self._state = folded.state
                        stored += folded.rows
                        if folded.cached is not None:
                            inputs.append((entry.seq, folded.cached))
                        if send and folded.inp is not None:
                            stored += storage.event_rows(entry.seq, self._enqueue(
                                s, ledger, entry, received, folded.inp, folded.events, careful))
                        self._seq = entry.seq
                        done.append((entry, folded.events))
                ledger.write()
                storage.add_events(s.connection(), stored)
                storage.cache_inputs(s.connection(), self.parser, inputs)
                if done:
                    storage.set_meta(s, "processed_seq", str(self._seq))
                    self._maybe_snapshot(s, drained=(len(done) < size and not cut) or self._at_end(s, upto))
                s.commit()
        except Exception:  # nothing of the batch was stored: the state in memory is ahead; reload it
            self._state = None
            raise
        return done, cut

    def _read_batch(self, upto: int | None, size: int) -> tuple[list[tuple[Entry, Received, Parsed]], bool]:
        """The next entries to fold with their bytes and inputs, parsed before the write transaction
        opens (a parse must never keep intake waiting for the journal's lock); their outgoing mail
        reads the same parse, so each is kept until the batch commits: past ``BATCH_BYTES`` of mail
        the batch ends (``True``: cut), whatever its length."""
        with self.db.connect() as conn:
            entries = list(storage.entries(conn, after=self._seq, upto=upto, limit=size, parser=self.parser))
        batch: list[tuple[Entry, Received, Parsed]] = []
        held = 0
        for entry in entries:
            if batch and held + len(entry.raw or b"") > BATCH_BYTES:
                return batch, True
            held += len(entry.raw or b"")
            received = Received(entry.raw or b"")
            batch.append((entry, received, self._parse(entry, received)))
        return batch, False

    def _enqueue(self, s: Session, ledger: Ledger, entry: Entry, received: Received, inp: Input,
                 events: list[engine.Event], careful: bool) -> list[engine.Event]:
        """Queue the entry's outgoing mail: its outbox rows are held with the batch's and written
        with them in one statement when the batch ends, or, ``careful``, written together once the
        entry's mail is composed, in its savepoint. A fault raises ``_MailFaulted``, unless
        ``careful``: then that mail alone is rolled back, the fault is returned as a ``mail_fault``
        event to store, and the fold goes on."""
        mailing = Mailing(self.list_settings, self.engine_config, self.state(),
                          self.config.settings.answers.per_sender_per_hour, ledger)
        try:
            with s.begin_nested() if careful else nullcontext(), self._holding(s, ledger, careful):
                outgoing.enqueue(s, mailing, entry, received, inp, events)
        except Exception as exc:
            ledger.entry_done(stored=False)
            if not careful:
                raise _MailFaulted(entry.seq) from exc
            log.exception("journal entry %s: its outgoing mail could not be composed; none queued", entry.seq)
            return [engine.Event.of(MailFault(seq=entry.seq, error=repr(exc)[:1000]))]
        ledger.entry_done(stored=True)
        return []

    @staticmethod
    def _holding(s: Session, ledger: Ledger, on: bool) -> AbstractContextManager[None]:
        """``outbox.holding`` (the outbox rows queued within, written when it ends) if ``on``."""
        return outbox.holding(s, ledger.sets) if on else nullcontext()

    def _processed_elsewhere(self, s: Session) -> bool:
        """Has another process (serve, poll, ingest) folded past our state?

        Read inside the entry's write transaction (SQLite: BEGIN IMMEDIATE;
        PostgreSQL: FOR UPDATE), so two processes never fold the same entry.
        """
        row = s.exec(select(Meta).where(Meta.key == "processed_seq").with_for_update()).first()
        if int(row.value if row else 0) == self._seq:
            return False
        self._skips = storage.skipped(s.connection())  # the other process may have recorded faults
        return True

    def _at_end(self, s: Session, upto: int | None) -> bool:
        """Has the fold reached ``upto``, or else the journal's head? (A backlog that ends with a
        full batch is drained all the same: its last state is stored as after any other.)"""
        end = upto if upto is not None else s.exec(select(func.max(storage.JournalEntry.seq))).one() or 0
        return self._seq >= end

    def _maybe_snapshot(self, s: Session, drained: bool) -> None:
        """Store the state once enough entries have been folded since the last snapshot that
        writing it costs each of them about the same whatever the size of the game.

        While a backlog lasts: ``SNAPSHOT_EVERY`` entries, or one per
        ``SNAPSHOT_BACKLOG_BYTES_PER_ENTRY`` bytes of the last snapshot if that is more (a first
        fold of a long journal used to rewrite its whole, growing state every 1,000 entries: its
        cost per entry grew with the game). The floor makes a small state's snapshots cost each
        entry less than B / this would, so the smaller this is, the flatter the fold's cost per entry
        from a small game to a large one: at 2 KB a 10,000-entry fold wrote 0.97 KB of state an entry
        and a 200,000-entry one 2.24 KB, at about 10 ns a byte (docs/performance.md). Once the
        backlog is drained: one entry per ``SNAPSHOT_BYTES_PER_ENTRY`` bytes, at most
        ``SNAPSHOT_EVERY`` (a large state, a long game or one a flood of matters made large, is not
        rewritten on every mail; a fold that reaches the journal's head is drained, even if its last
        batch was full). A restart folds again the entries since the last snapshot, from their
        cached parsed inputs (a replay's pace): after a drain at most 1,000; in the middle of a
        backlog up to B / 512 (60,000 for the 30 MB state of a 200,000-entry game, ~2.5 s at
        24,000 entries/s)."""
        last = s.exec(select(func.max(Snapshot.seq))).one() or 0
        size = self._snapshot_size
        if drained:
            wait = min(SNAPSHOT_EVERY, size // SNAPSHOT_BYTES_PER_ENTRY)
        else:
            wait = max(SNAPSHOT_EVERY, size // SNAPSHOT_BACKLOG_BYTES_PER_ENTRY)
        if self._seq - last < max(1, wait):
            return
        state = self.state().model_dump_json()
        self._snapshot_size = len(state)
        s.merge(Snapshot(seq=self._seq, state=state))
        s.execute(delete(Snapshot).where(Snapshot.seq < self._seq))  # type: ignore[arg-type]

    # -- replay -----------------------------------------------------------

    def replay(self, reparse: bool = False, chain: storage.Chain | None = None,
               progress: Progress | None = None) -> GameState[Any]:
        """Fold the processed journal from the very start, ignoring snapshots.

        From the cached parsed inputs where there are some, unless ``reparse``;
        ``chain`` checks the hash chain of every entry on the way. Without full garbage
        collections (``tuning.young_collections``): each walks the growing state and whatever
        else the process holds, while a replay leaves next to no cycles to collect.
        """
        with tuning.young_collections(), Session(self.db, expire_on_commit=False) as s:
            processed = int(storage.get_meta(s, "processed_seq", "0"))
            state = self._load(s, processed, storage.skipped(s.connection()), use_snapshot=False,
                               reparse=reparse, progress=progress, chain=chain)
            if chain is not None:  # the entries journaled but not yet processed are in the chain too
                for entry in storage.entries(s.connection(), after=processed):
                    chain.check(entry)
            return state

    def verify(self, reparse: bool = False, progress: Progress | None = None) -> tuple[bool, str]:
        """Check the hash chain, that a fresh fold equals the stored state, in one pass, and that
        every journaled entry has been processed (a game stuck short of the journal's head
        replays to its stored state all the same)."""
        chain = storage.Chain()
        try:
            replayed = self.replay(reparse, chain, progress).model_dump_json()  # (its objects let go)
        except storage.ChainBroken as exc:
            return False, str(exc)
        with Session(self.db) as s:
            processed = int(storage.get_meta(s, "processed_seq", "0"))
        head = self.journal_length()
        if processed < head:
            return False, (f"processing is stuck: the game has processed only up to journal entry {processed} "
                           f"of {head}; entries {processed + 1}-{head} were never played "
                           "(see docs/operating.md, 'When things go wrong')")
        if not self._is_stored(replayed, processed):
            fresh, stored = json.loads(replayed), json.loads(self.state().model_dump_json())
            diff = sorted(k for k in fresh if fresh[k] != stored.get(k))
            return False, f"replayed state differs from the stored state in: {', '.join(diff)}"
        how = "parsing every message again" if reparse else "from the parsed inputs"
        return True, f"{chain.count} journal entries, head {chain.head}; replayed state matches the stored state ({how})"

    def _is_stored(self, replayed: str, processed: int) -> bool:
        """Is the state ``replayed`` wrote (as JSON) the stored state? The same text as the snapshot
        of entry ``processed`` if there is one (a large state is not read back for this), else as
        the state read back; failing that, the same values (a dict filled in another order writes
        other text)."""
        with Session(self.db) as s:
            snap = s.get(Snapshot, processed)
        if snap is not None and snap.state == replayed:
            return True
        del snap
        stored = self.state().model_dump_json()
        return replayed == stored or json.loads(replayed) == json.loads(stored)

    def rebuild(self, progress: Progress | None = None) -> None:
        """Refold the whole journal into fresh state and events; no mail is sent again."""
        with Session(self.db, expire_on_commit=False) as s:
            processed = int(storage.get_meta(s, "processed_seq", "0"))
            storage.wipe_derived(s)
            storage.set_meta(s, "processed_seq", "0")
            s.commit()
        self._state, self._seq = self.new_state(), 0
        with self.db.connect() as conn:
            self._skips = storage.skipped(conn)
        while self.process(send=False, upto=processed, limit=PROCESS_BATCH * 5):
            if progress:
                progress(self._seq)

    def journal_length(self) -> int:
        """The seq of the newest journal entry."""
        with Session(self.db) as s:
            return s.exec(select(func.max(storage.JournalEntry.seq))).one() or 0


class _MailFaulted(Exception):
    """An entry's mail faulted in a batch folded without savepoints: the batch is folded again."""


def _faulted(state: GameState[Any], seq: int, error: str) -> Folded:
    """An entry recorded as faulting: its one ``fault`` event, and the row that stores it."""
    events = [engine.Event.of(Fault(seq=seq, error=error))]
    return Folded(state, events, None, storage.event_rows(seq, events), None)
