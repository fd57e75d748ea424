"""Counting Nomic's one event."""
from __future__ import annotations

from engine.events import EventModel


class Counted(EventModel):
    """Someone counted: ``by`` whom, and the count after it."""
    KIND = "counted"
    by: str
    count: int


EVENTS: tuple[type[EventModel], ...] = (Counted,)
