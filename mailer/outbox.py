"""The durable outbox: every outgoing mail is stored here before anything tries to send it.

One ``outbox`` row per composed mail (its bytes, once, and its recipients, or the name of the
``recipient_set`` that holds them: a list's members, stored once for all its mail), one
``delivery`` row per envelope recipient: a chime to 100,000 subscribers is one
message and 100,000 small delivery rows, each with its own retries and status.
The fold writes the outbox row alone; the sender writes its delivery rows when it
first needs them (``expand``, called by ``claim_batch``), as GNU Mailman's outgoing
runner splits a message's recipients at delivery time: a fold writes one row a
mail, whatever the list's size. Until then the row is ``queued`` to every
recipient (``listing`` counts them so).

A delivery moves ``queued -> claimed -> sent | failed`` (or back to ``queued``
with a later ``next_attempt``). A sender claims its deliveries a batch at a
time, and one transaction records a batch's outcomes and claims the next
(``record``, ``claim_batch``). What it hands to the relay in between is
written, delivery by delivery, to its ``HandoverLog``; ``recover`` reads that
log when a sender died, so it knows which claimed deliveries the relay never
got, which it may have got (DATA had begun: "in doubt"), and which it took.
(``sending`` is the in-doubt state of senders before batches: read, never
written.) The outbox row's ``status`` sums its deliveries up: ``queued`` while
any is pending, then ``sent`` if any was delivered, else ``failed``.
"""
from __future__ import annotations

import json
import logging
import os
import socket
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import bindparam, false, func, insert, select as core_select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import defer
from sqlmodel import Session, select

from mailer import headers
from mailer.recipients import Recipients, store
from storage.tables import Delivery, OutboxMessage, RecipientSet

PENDING = ("queued", "claimed", "sending")
HOST = socket.gethostname()
log = logging.getLogger("nomic.sender")

OUTBOX = OutboxMessage.__table__  # type: ignore[attr-defined]
O = OUTBOX.c
DELIVERIES = Delivery.__table__  # type: ignore[attr-defined]
D = DELIVERIES.c

# built once: a 1,000-member list post runs them ten times a pass
_RECORD = (update(DELIVERIES).where(D.id == bindparam("b_id"), D.claim == bindparam("b_claim"))
           .values(status=bindparam("b_status"), claim=None, claimed_at=None,
                   attempts=D.attempts - bindparam("b_undo"),
                   next_attempt=func.coalesce(bindparam("b_next"), D.next_attempt),
                   last_error=func.coalesce(bindparam("b_error"), D.last_error),
                   sent_at=func.coalesce(bindparam("b_sent_at"), D.sent_at)))
# One delivery per recipient of the given outbox rows, in the order of their recipients lists
# (a row's own, or those of the set it names).
_DELIVERIES = {dialect: text(f"""INSERT INTO delivery (outbox_id, rcpt, status, attempts, next_attempt)
    SELECT o.id, j.value, 'queued', 0, '' FROM outbox AS o
    LEFT JOIN recipient_set AS r ON r.digest = o.recipient_set {each}
    WHERE o.id IN :ids ORDER BY o.id, {order}""").bindparams(bindparam("ids", expanding=True))
    for dialect, each, order in (
        ("sqlite", "CROSS JOIN json_each(COALESCE(r.recipients, o.recipients)) AS j", "j.key"),
        ("postgresql", "CROSS JOIN LATERAL json_array_elements_text(CAST(COALESCE(r.recipients, o.recipients) AS json))"
                       " WITH ORDINALITY AS j(value, n)", "j.n"))}
_INSERT = insert(OUTBOX)  # built once (its compiled form is cached on it): every entry runs it
HELD = "outbox.held"  # the key of ``holding``'s rows in ``Session.info``
SETS = RecipientSet.__table__.c  # type: ignore[attr-defined]
_ANY = core_select(D.id).where(D.outbox_id == bindparam("oid"), D.status.in_(bindparam("statuses", expanding=True))).limit(1)


def iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class Composed:
    """A mail already written (one copy of a prepared announcement, mailer/compose.py): its bytes,
    and its Subject and Message-ID as ``queue`` lists them (``headers.read``)."""
    raw: bytes
    subject: str
    message_id: str


Mail = EmailMessage | Composed


def queue(session: Session, seq: int, kind: str, msg: Mail, recipients: Sequence[str],
          mail_from: str, created: datetime, personal: bool = False) -> None:
    """Store one mail for its recipients, in the caller's transaction: at once, or within
    ``holding`` when it ends, with the other mail of its journal entry. ``Recipients`` (a list's
    members) are stored once, as a set the row names; any other recipients in the row."""
    shared = recipients if isinstance(recipients, Recipients) and recipients.addresses else None
    to = shared.addresses if shared else list(dict.fromkeys(r.lower() for r in recipients if r))
    if not isinstance(msg, Composed):
        msg = Composed(headers.as_bytes(msg), headers.read(msg, "Subject"), headers.read(msg, "Message-ID"))
    row = {"seq": seq, "kind": kind, "recipients": "[]" if shared else json.dumps(to),
           "recipient_set": shared.digest if shared else None, "mail_from": mail_from,
           "subject": msg.subject, "message_id": msg.message_id,
           "raw": msg.raw, "status": "queued" if to else "sent", "attempts": 0,
           "next_attempt": None, "last_error": None, "created": iso(created), "personal": personal,
           "expanded": not to}
    held = session.info.get(HELD)
    if held is None:
        store(session.connection(), [shared] if shared else [])
        write(session.connection(), [row])
        return
    held.rows.append(row)
    if shared and shared.digest not in held.stored:
        held.sets[shared.digest] = shared


@dataclass
class _Held:
    """What ``holding`` keeps: the rows, the sets they name not yet stored, and the sets stored."""
    stored: set[str]
    rows: list[dict] = field(default_factory=list)
    sets: dict[str, Recipients] = field(default_factory=dict)


@contextmanager
def holding(session: Session, stored: set[str] | None = None) -> Iterator[None]:
    """Within: ``queue`` keeps each mail's row, and they are written when the block ends without
    an exception (one journal entry's mail: one statement however much it mails, and one for the
    recipient sets it names that are new); a block that raises writes none of them. The rows are
    kept in ``session.info``: the session's own, so each processor's session holds its own entry's
    mail. ``stored``: the digests of the sets stored in this transaction, kept by the caller from
    one block to the next and added to here (the processor's batch: ``Ledger.sets``, forgotten
    when an entry's mail is rolled back)."""
    held = _Held(set() if stored is None else stored)
    session.info[HELD] = held
    try:
        yield
        _write(session, held)
    finally:
        del session.info[HELD]


def write_held(session: Session) -> None:
    """Write the rows ``holding`` keeps now (the digest reads the outbox in the middle of an entry)."""
    held = session.info.get(HELD)
    if held:
        _write(session, held)


def _write(session: Session, held: _Held) -> None:
    store(session.connection(), list(held.sets.values()))
    write(session.connection(), held.rows)
    held.stored.update(held.sets)
    held.rows, held.sets = [], {}


def write(conn: Connection, rows: list[dict]) -> None:
    """Store outbox rows in one statement (their deliveries are the sender's: ``expand``)."""
    if rows:
        conn.execute(_INSERT, rows)


def expand(conn: Connection, limit: int) -> int:
    """Write the deliveries of up to ``limit`` outbox rows not yet expanded, oldest first, in the
    caller's transaction; returns how many rows this call expanded.

    Each row is expanded exactly once, however many senders run: a row is expanded only by the
    transaction whose UPDATE marked it (SQLite runs one writer at a time; on PostgreSQL a second
    UPDATE waits for the first's commit and then finds the row marked). Marks and deliveries
    commit together with the claim that follows, or not at all.
    """
    todo = [r[0] for r in conn.execute(core_select(O.id).where(O.expanded == false()).order_by(O.id).limit(limit))]
    return expand_rows(conn, todo) if todo else 0


def expand_rows(conn: Connection, ids: list[int]) -> int:
    """Mark the outbox rows ``ids`` that are not yet marked, and write the deliveries of those alone
    (a row another sender marked since ``ids`` were read is left to it)."""
    won = sorted(r[0] for r in conn.execute(update(OUTBOX).where(O.id.in_(ids), O.expanded == false())
                                            .values(expanded=True).returning(O.id)))
    if won:  # one statement, made by the database from each row's recipients: no Python per recipient
        conn.execute(_DELIVERIES[conn.dialect.name], {"ids": won})
    return len(won)


@dataclass(frozen=True)
class Claimed:
    """One delivery a sender holds: ``attempts`` counts this one."""
    id: int
    outbox_id: int
    rcpt: str
    attempts: int


@dataclass(frozen=True)
class Outcome:
    """What became of a claimed delivery: ``sent``, ``failed``, or ``queued`` again.

    ``released``: never tried (the batch ran out of time, or the pass ended), so
    the claim's attempt is given back.
    """
    id: int
    status: str
    error: str | None = None
    next_attempt: str | None = None
    sent_at: str | None = None
    released: bool = False


def claim_batch(conn: Connection, claim: str, now: datetime, claimed_at: datetime, size: int) -> list[Claimed]:
    """Take up to ``size`` due deliveries, oldest first, by compare-and-set: only one sender gets each.
    Too few due: outbox rows not yet expanded are expanded first (a row has a recipient at least)."""
    due = _due(conn, now, size)
    if len(due) < size and expand(conn, size - len(due)):
        due = _due(conn, now, size)
    if not due:
        return []
    conn.execute(update(DELIVERIES).where(D.id.in_(due), D.status == "queued")
                 .values(status="claimed", claim=claim, claimed_at=iso(claimed_at), attempts=D.attempts + 1))
    rows = conn.execute(core_select(D.id, D.outbox_id, D.rcpt, D.attempts).where(
        D.id.in_(due), D.claim == claim, D.status == "claimed").order_by(D.id))
    return [Claimed(*r) for r in rows]


def _due(conn: Connection, now: datetime, size: int) -> list[int]:
    return [r[0] for r in conn.execute(core_select(D.id).where(
        D.status == "queued", (D.next_attempt == "") | (D.next_attempt <= iso(now))).order_by(D.id).limit(size))]


def raws(conn: Connection, ids: set[int]) -> dict[int, tuple[bytes, bool, str]]:
    """``raw``, ``personal`` and ``created`` of outbox rows."""
    rows = conn.execute(core_select(OUTBOX.c.id, OUTBOX.c.raw, OUTBOX.c.personal, OUTBOX.c.created)
                        .where(OUTBOX.c.id.in_(ids)))
    return {r[0]: (bytes(r[1]), bool(r[2]), r[3]) for r in rows}


def record(conn: Connection, claim: str, outcomes: list[Outcome], outbox_ids: dict[int, int]) -> None:
    """Write a batch's outcomes (only where ``claim`` still holds the delivery) and settle their mails.

    ``outbox_ids``: delivery id -> outbox id.
    """
    if not outcomes:
        return
    conn.execute(_RECORD, [{"b_id": o.id, "b_claim": claim, "b_status": o.status, "b_undo": int(o.released),
                            "b_next": o.next_attempt, "b_error": o.error, "b_sent_at": o.sent_at}
                           for o in outcomes])
    errors: dict[int, str | None] = {}
    for o in outcomes:
        oid = outbox_ids[o.id]
        errors[oid] = o.error or errors.get(oid)
    for oid, error in errors.items():
        settle(conn, oid, error)


def settle(conn: Connection, outbox_id: int, error: str | None = None) -> None:
    """Bring an outbox row's summary status up to date with its deliveries (indexed: cheap)."""
    def has(statuses: tuple[str, ...]) -> bool:
        return conn.execute(_ANY, {"oid": outbox_id, "statuses": list(statuses)}).first() is not None
    status = "queued" if has(PENDING) else "sent" if has(("sent",)) else "failed"
    conn.execute(update(OUTBOX).where(OUTBOX.c.id == outbox_id)
                 .values(status=status, last_error=func.coalesce(error, OUTBOX.c.last_error)))


class HandoverLog:
    """What one sender pass handed to the relay: ``D <id>`` before DATA (made durable first),
    ``S <id>`` after the relay's 250, ``R <id>`` after a refusal of the DATA.

    The mark before DATA is what the state ``sending`` was, without a database
    commit: one ``fdatasync`` of a small file, shared by the connections that
    wait at the same moment, and run while the relay answers the DATA command. The log lives beside the game (``GAME/outbox-handover/<claim>.log``),
    is made before the pass hands anything over, and is removed once its outcomes
    are committed: a claim of this host without a log handed nothing over.
    """

    def __init__(self, folder: Path, claim: str):
        folder.mkdir(exist_ok=True)
        self.path = folder / f"{claim}.log"
        self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.fsync(self.fd)
        _sync_folder(folder)  # the log's name must survive a power cut too
        self._write = threading.Lock()
        self._sync = threading.Lock()
        self._written = self._synced = 0

    def mark(self, kind: str, delivery_id: int) -> int:
        """Write a mark (not yet durable); its number, for ``sync``."""
        with self._write:
            os.write(self.fd, f"{kind} {delivery_id}\n".encode())
            self._written += 1
            return self._written

    def sync(self, upto: int) -> None:
        """Make every mark up to number ``upto`` durable: one fdatasync covers every mark
        written before it, so connections that wait at the same moment share it."""
        with self._sync:
            if self._synced < upto:
                written = self._written
                os.fdatasync(self.fd)
                self._synced = written

    def close(self, remove: bool) -> None:
        os.close(self.fd)
        if remove:
            self.path.unlink(missing_ok=True)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_log(folder: Path, claim: str) -> dict[int, str] | None:
    """The last mark of each delivery in a claim's handover log; None if there is none."""
    try:
        text = (folder / f"{claim}.log").read_text()
    except FileNotFoundError:
        return None
    marks: dict[int, str] = {}
    for line in text.splitlines():
        kind, _, did = line.partition(" ")
        if did.isdigit():  # a line cut by the crash is no mark
            marks[int(did)] = kind
    return marks


def alive(claim: str | None, mine: str) -> bool:
    """Could the sender holding ``claim`` still be at work? (``mine``: this pass's own claim)"""
    host, _, rest = (claim or "").partition(":")
    pid = rest.partition(":")[0]
    if host != HOST or not pid.isdigit():
        return True  # another machine's sender: only the lease can tell
    if int(pid) == os.getpid():
        return claim == mine  # passes in one process run one after another
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


HELD = "in doubt: the sender died during DATA; not resent (in_doubt = hold)"
RESENT = "in doubt: the sender died during DATA; resent (in_doubt = resend)"


def recover(conn: Connection, folder: Path, lease: int, in_doubt: str, now: datetime, mine: str) -> list[str]:
    """Settle the deliveries of senders that died (gone from this host, or older than ``lease``
    seconds) from their handover logs; returns the dead claims whose logs may go once this commits."""
    cutoff = iso(now - timedelta(seconds=lease))
    rows = [r for r in conn.execute(core_select(D.id, D.outbox_id, D.rcpt, D.status, D.claim, D.claimed_at)
                                    .where(D.status.in_(("claimed", "sending"))))
            if not alive(r.claim, mine) or (r.claimed_at or "") < cutoff]
    logs = {claim: read_log(folder, claim) for claim in {r.claim for r in rows}}
    outcomes = [_verdict(r, logs[r.claim], in_doubt, r.claimed_at or iso(now)) for r in rows]
    by_claim: dict[str, list[Outcome]] = {}
    for r, o in zip(rows, outcomes):
        by_claim.setdefault(r.claim, []).append(o)
    for claim, done in by_claim.items():
        record(conn, claim, done, {r.id: r.outbox_id for r in rows})
    return [c for c in logs if c and c.startswith(HOST + ":") and not alive(c, mine)]


def _verdict(row, marks: dict[int, str] | None, in_doubt: str, claimed_at: str) -> Outcome:
    mark = (marks or {}).get(row.id)
    foreign = marks is None and not (row.claim or "").startswith(HOST + ":")  # its log is on its own host
    if mark == "S":
        return Outcome(row.id, "sent", sent_at=claimed_at)
    if row.status == "sending" or mark == "D" or (foreign and mark is None):
        if in_doubt == "hold":
            log.warning("delivery %s to %s is in doubt and held", row.id, row.rcpt)
            return Outcome(row.id, "failed", HELD)
        log.warning("delivery %s to %s is in doubt and will be resent", row.id, row.rcpt)
        return Outcome(row.id, "queued", RESENT)
    return Outcome(row.id, "queued")  # the relay never got it: no loss, no double


def listing(session: Session) -> list[dict]:
    """``nomic outbox --json``: every outgoing mail, oldest first."""
    rows = session.exec(select(OutboxMessage).options(defer(OutboxMessage.raw))  # type: ignore[arg-type]
                        .order_by(OutboxMessage.id)).all()  # type: ignore[arg-type]
    sets = dict(session.exec(select(RecipientSet.digest, RecipientSet.recipients)  # type: ignore[call-overload]
                             .where(SETS.digest.in_({r.recipient_set for r in rows if r.recipient_set}))).all())
    tally: dict[int, dict[str, int]] = {}
    for oid, status, n in session.exec(select(Delivery.outbox_id, Delivery.status, func.count())
                                       .group_by(Delivery.outbox_id, Delivery.status)).all():  # type: ignore[arg-type]
        tally.setdefault(oid, {})[status] = n
    return [_listed(r, json.loads(sets[r.recipient_set] if r.recipient_set else r.recipients), tally.get(r.id or 0, {}))
            for r in rows]


def _listed(r: OutboxMessage, to: list[str], tally: dict[str, int]) -> dict:
    """A row not yet expanded is queued to every recipient, as its deliveries will be."""
    return {"id": r.id, "to": to, "from": r.mail_from, "subject": r.subject, "kind": r.kind, "status": r.status,
            "message_id": r.message_id, "seq": r.seq, "attempts": r.attempts, "created": r.created,
            "last_error": r.last_error, "deliveries": tally if r.expanded or not to else {"queued": len(to)}}
