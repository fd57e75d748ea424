"""A game's clock never runs backward, and a new game starts at the next midnight.

The journal stamps every entry with a time: a message's time of receipt, a clock step's time.
The engine reads every deadline from those stamps, so a message stamped earlier than the last
clock step would act in the game's past: a BlogNomic proposal that a ``nomic tick --at`` had
already carried twelve hours on would open, and close, in the past. ``ClockFloor`` keeps the
time of the last clock step and lifts every later stamp to it.

Another process adds a clock step only at a time it has reached (``nomic tick`` without a future
``--at``, since a future one is refused while a daemon holds the game: nomic/hold.py), so the
floor a process read when it started, raised by its own clock steps, stays true.
"""
from __future__ import annotations

import re
import tomllib
from datetime import datetime, time, timedelta, timezone

from sqlalchemy import Engine, text

from storage import iso
from storage.config import parse_time

_GAME_TABLE = re.compile(r"^\[game\][ \t]*$", re.M)
_START_LINE = re.compile(r'^(start[ \t]*=[ \t]*)("[^"\n]*"|[^ \t\n#]+)', re.M)
_NEXT_TABLE = re.compile(r"^\[", re.M)
# the newest clock step's time: seq's index read backward, to the first clock step (a few rows)
_LAST_CLOCK_STEP = text("SELECT at FROM journal WHERE kind = 'clock' ORDER BY seq DESC LIMIT 1")


class ClockFloor:
    """The time of the game's last clock step (read from the journal once, then kept)."""

    def __init__(self, db: Engine):
        self.db = db
        self._at: datetime | None = None
        self._read = False

    def get(self) -> datetime | None:
        if not self._read:
            with self.db.connect() as conn:
                row = conn.execute(_LAST_CLOCK_STEP).scalar()
            self._at = parse_time(row) if row else None
            self._read = True
        return self._at

    def stamp(self, at: datetime) -> datetime:
        """``at``, or the last clock step's time if that is later."""
        floor = self.get()
        return floor if floor is not None and floor > at else at

    def stepped(self, at: datetime) -> None:
        """A clock step at ``at`` was journaled."""
        floor = self.get()
        self._at = at if floor is None or at > floor else floor


def next_midnight(now: datetime) -> datetime:
    """The next 00:00 UTC after ``now`` (``now`` itself when it is one)."""
    now = now.astimezone(timezone.utc)
    midnight = datetime.combine(now.date(), time(), timezone.utc)
    return midnight if midnight == now else midnight + timedelta(days=1)


def with_start(text: str, start: datetime | None, now: datetime, own: bool) -> str:
    """A game.toml's text as ``nomic init`` writes it: ``[game] start`` is ``start`` if given, else
    the file's own if it is the operator's file (``own``: ``--config``) and has one, else the next
    00:00 UTC after ``now`` (the bundled defaults' start is only a placeholder)."""
    if start is None:
        if own and _has_start(text):
            return text
        start = next_midnight(now)
    value = f'"{iso(start)}"'
    table = _GAME_TABLE.search(text)
    if table is None:
        return f"[game]\nstart = {value}\n\n{text}"
    end = _NEXT_TABLE.search(text, table.end())
    stop = end.start() if end else len(text)
    body = text[table.end():stop]
    if _START_LINE.search(body):
        body = _START_LINE.sub(lambda m: m[1] + value, body, count=1)
    else:
        body = f"\nstart = {value}{body}"
    return text[:table.end()] + body + text[stop:]


def _has_start(text: str) -> bool:
    """Does this game.toml set ``[game] start``? (Unreadable: leave it to ``Config.load`` to say why.)"""
    try:
        game = tomllib.loads(text).get("game", {})
    except tomllib.TOMLDecodeError:
        return True
    return not isinstance(game, dict) or "start" in game
