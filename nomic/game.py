"""The runner: journal first, then the engine, then the outputs (events, outbox).

Data flows one way: mail -> journal -> engine -> events -> (outbox, site).
``receive`` only journals (that is what an SMTP 250 waits for); ``process``
folds every journaled entry not yet processed, in order, exactly once.
"""
from __future__ import annotations

import json
import logging
from itertools import islice
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

import engine
from engine.inputs import ClockStep, Message
from engine.state import GameState
from mailer import outgoing
from mailer.auth import Verdict, authenticate
from mailer.message import message_key, parse_head
from nomic import storage
from nomic.config import CONFIG_NAME, Config, ConfigError, default_text
from nomic.inputs import to_input
from nomic.storage import Duplicate, EventRow, JournalEntry, Meta, Snapshot

log = logging.getLogger("nomic")


@dataclass
class Arrival:
    """A parsed, authenticated message on its way into the journal."""
    key: str
    raw: bytes
    at: datetime
    meta: dict


@dataclass
class Receipt:
    """What became of one received message."""
    status: str  # "new" | "duplicate"
    seq: int
    key: str


class Game:
    def __init__(self, game_dir: Path):
        self.config = Config.load(game_dir)
        self.engine_config = self.config.engine()
        self.db = storage.connect(self.config.database_url)
        self._state: GameState | None = None
        self._seq = 0  # journal seq that self._state reflects

    @staticmethod
    def create(game_dir: Path, config_file: Path | None = None) -> "Game":
        if (game_dir / CONFIG_NAME).exists():
            raise ConfigError(f"{game_dir} already holds a game; not overwriting it")
        text = config_file.read_text() if config_file else default_text()
        game_dir.mkdir(parents=True, exist_ok=True)
        (game_dir / CONFIG_NAME).write_text(text)
        try:
            game = Game(game_dir)
            game.engine_config  # validates times and offices
        except Exception:
            (game_dir / CONFIG_NAME).unlink()
            raise
        return game

    # -- intake -----------------------------------------------------------

    def receive(self, raw: bytes, at: datetime, source: str = "cli",
                mail_from: str | None = None, rcpt_to: list[str] | None = None,
                extra: dict | None = None) -> Receipt:
        """Journal one message durably. Returns once it is committed."""
        return self.receive_many([self.prepare(raw, at, source, mail_from, rcpt_to, extra)])[0]

    def prepare(self, raw: bytes, at: datetime, source: str = "cli", mail_from: str | None = None,
                rcpt_to: list[str] | None = None, extra: dict | None = None) -> Arrival:
        """Parse and authenticate one message (no database): the journal entry to be.

        ``extra`` adds to the journal meta (e.g. the IMAP UIDVALIDITY and UID).
        """
        try:
            verdict = authenticate(raw, parse_head(raw), self.config.section("auth"),
                                   self.config.section("offices"))
        except Exception as exc:  # journal it anyway (nothing is lost); it changes nothing
            log.exception("a message could not be read; journaled as not authenticated")
            verdict = Verdict(False, "unreadable", f"{type(exc).__name__}: {exc}")
        meta = {"source": source, "mail_from": mail_from, "rcpt_to": rcpt_to,
                "auth": {"authenticated": verdict.authenticated, "method": verdict.method,
                         "detail": verdict.detail}, **(extra or {})}
        return Arrival(message_key(raw), raw, at, meta)

    def receive_many(self, arrivals: list[Arrival]) -> list[Receipt]:
        """Journal several prepared messages in ONE transaction (group commit).

        Duplicates (already journaled, or twice in the batch) are reported, not
        stored. Raises if the database cannot be written; then nothing is stored.
        """
        items = [("mail", a.at, a.key, a.raw, a.meta) for a in arrivals]
        with Session(self.db, expire_on_commit=False) as s:
            try:
                results = storage.append_many(s, items)
                s.commit()
            except IntegrityError:  # a racing writer journaled one of them first: look again
                s.rollback()
                results = storage.append_many(s, items)
                s.commit()
        return [Receipt("duplicate", r.seq, a.key) if isinstance(r, Duplicate) else Receipt("new", r, a.key)
                for a, r in zip(arrivals, results)]

    def tick(self, at: datetime) -> Receipt | None:
        """Journal a clock step if anything is due by ``at``; None if nothing is."""
        state = self.state()
        due = engine.next_due(state, self.engine_config)
        if due is None or due > at:
            return None
        key = f"clock:{storage.iso(at)}"
        with Session(self.db, expire_on_commit=False) as s:
            try:
                entry = storage.append(s, "clock", at, key, None, {})
            except Duplicate as dup:
                return Receipt("duplicate", dup.seq, key)
            s.commit()
            return Receipt("new", entry.seq or 0, key)

    # -- folding ----------------------------------------------------------

    def state(self) -> GameState:
        """The current state: the latest snapshot plus every processed entry after it."""
        if self._state is None:
            with Session(self.db, expire_on_commit=False) as s:
                self._seq = int(storage.get_meta(s, "processed_seq", "0"))
                self._state = self._load(s, self._seq, use_snapshot=True)
        return self._state

    def new_state(self) -> GameState:
        return engine.new_game(self.engine_config, self.config.rules_text())

    def _load(self, s: Session, upto: int, use_snapshot: bool) -> GameState:
        """The state after journal entries 1..upto."""
        snap = None
        if use_snapshot:
            snap = s.exec(select(Snapshot).where(Snapshot.seq <= upto)
                          .order_by(Snapshot.seq.desc())).first()  # type: ignore[union-attr]
        state = GameState.model_validate_json(snap.state) if snap else self.new_state()
        for entry in storage.entries(s, after=snap.seq if snap else 0, upto=upto):
            state, _, _ = self._fold(s, state, entry, use_snapshot)
        return state

    def _input(self, entry: JournalEntry) -> Message | ClockStep:
        return to_input(entry, self.engine_config.address, self.engine_config.list_address)

    def _fold(self, s: Session, state: GameState, entry: JournalEntry, use_snapshot: bool
              ) -> tuple[GameState, list[engine.Event], Message | ClockStep | None]:
        """Apply one entry; returns the state to carry on with, the entry's events and its input.

        An engine fault must not wedge the game: the entry is skipped and the
        state rebuilt without it. A replay meets the same fault and does the same.
        """
        inp = None
        try:
            inp = self._input(entry)  # parsed once: the outgoing mail reads it too
            return state, engine.apply(state, inp, self.engine_config), inp
        except Exception as exc:
            log.exception("journal entry %s could not be applied; skipped", entry.seq)
            state = self._load(s, (entry.seq or 1) - 1, use_snapshot)
            return state, [engine.Event(kind="fault", data={"seq": entry.seq, "error": repr(exc)})], inp

    def process(self, send: bool = True, upto: int | None = None,
                limit: int | None = None) -> list[tuple[JournalEntry, list[engine.Event]]]:
        """Fold every journaled entry not yet processed (at most ``limit``); store events and mail."""
        state = self.state()
        done: list[tuple[JournalEntry, list[engine.Event]]] = []
        stale = False
        with Session(self.db, expire_on_commit=False) as s:
            for entry in list(islice(storage.entries(s, after=self._seq, upto=upto), limit)):
                if self._processed_elsewhere(s):
                    stale = True
                    break
                state, events, inp = self._fold(s, state, entry, use_snapshot=True)
                self._state = state
                for ev in events:
                    s.add(EventRow(seq=entry.seq or 0, kind=ev.kind,
                                   data=json.dumps(ev.data, default=str)))
                if send and inp is not None:
                    outgoing.enqueue(s, self, entry, inp, events)
                self._seq = entry.seq or self._seq
                storage.set_meta(s, "processed_seq", str(self._seq))
                s.commit()
                done.append((entry, events))
            if done:
                self._snapshot(s)
        if stale:  # reload from the database next time
            self._state = None
        return done

    def _processed_elsewhere(self, s: Session) -> bool:
        """Has another process (serve, poll, ingest) folded past our state?

        Read inside the entry's write transaction (SQLite: BEGIN IMMEDIATE;
        PostgreSQL: FOR UPDATE), so two processes never fold the same entry.
        """
        row = s.exec(select(Meta).where(Meta.key == "processed_seq").with_for_update()).first()
        return int(row.value if row else 0) != self._seq

    def _snapshot(self, s: Session) -> None:
        s.merge(Snapshot(seq=self._seq, state=self.state().model_dump_json()))
        for old in s.exec(select(Snapshot).where(Snapshot.seq < self._seq)).all():
            s.delete(old)
        s.commit()

    # -- replay -----------------------------------------------------------

    def replay(self) -> GameState:
        """Fold the processed journal from the very start, ignoring snapshots."""
        with Session(self.db, expire_on_commit=False) as s:
            processed = int(storage.get_meta(s, "processed_seq", "0"))
            return self._load(s, processed, use_snapshot=False)

    def verify(self) -> tuple[bool, str]:
        """Check the hash chain, then that a fresh fold equals the stored state."""
        with Session(self.db, expire_on_commit=False) as s:
            ok, msg = storage.verify_chain(s)
        if not ok:
            return False, msg
        fresh = self.replay().model_dump(mode="json")
        stored = self.state().model_dump(mode="json")
        if fresh != stored:
            diff = sorted(k for k in fresh if fresh[k] != stored.get(k))
            return False, f"replayed state differs from the stored state in: {', '.join(diff)}"
        return True, msg + "; replayed state matches the stored state"

    def rebuild(self) -> None:
        """Refold the whole journal into fresh state and events; no mail is sent again."""
        with Session(self.db, expire_on_commit=False) as s:
            processed = int(storage.get_meta(s, "processed_seq", "0"))
            storage.wipe_derived(s)
            storage.set_meta(s, "processed_seq", "0")
            s.commit()
        self._state, self._seq = self.new_state(), 0
        self.process(send=False, upto=processed)

