"""The tables derived from the journal: events and the parsed inputs cached for replays
(snapshots are written by nomic.game). A full replay wipes them and folds again."""
from __future__ import annotations

import json

from sqlalchemy import delete, insert, text
from sqlalchemy.engine import Connection
from sqlmodel import Session

from engine.events import Event
from storage.meta import REFOLD
from storage.tables import EventRow, ParsedInput

EVENTS = EventRow.__table__  # type: ignore[attr-defined]
PARSED = ParsedInput.__table__  # type: ignore[attr-defined]


def event_rows(seq: int, events: list[Event]) -> list[dict[str, object]]:
    """The rows that store one journal entry's events (made inside the entry's fault boundary)."""
    return [{"seq": seq, "kind": e.kind, "data": json.dumps(e.data, default=str),
             "cause_what": e.cause.what if e.cause else None, "cause_number": e.cause.number if e.cause else None}
            for e in events]


def add_events(conn: Connection, rows: list[dict[str, object]]) -> None:
    """Store events (``event_rows``) in one statement."""
    if rows:
        conn.execute(insert(EVENTS), rows)


def cache_inputs(conn: Connection, parser: str, inputs: list[tuple[int, str]]) -> None:
    """Keep the engine inputs parsed out of entries, (seq, JSON) each, replacing any from other code."""
    if inputs:
        conn.execute(delete(PARSED).where(PARSED.c.seq.in_([seq for seq, _ in inputs])))
        conn.execute(insert(PARSED), [{"seq": seq, "parser": parser, "input": data} for seq, data in inputs])


def wipe_derived(session: Session) -> None:
    """Drop everything derived from the journal (for a full replay), and any call for one."""
    session.exec(text("DELETE FROM meta WHERE key = :key").bindparams(key=REFOLD))  # type: ignore[call-overload]
    session.exec(text("DELETE FROM snapshot"))  # type: ignore[call-overload]
    session.exec(text("DELETE FROM event"))  # type: ignore[call-overload]
    session.exec(text("DELETE FROM parsed_input"))  # type: ignore[call-overload]
