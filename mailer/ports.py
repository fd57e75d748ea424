"""The values a message carries on its way into the journal (mailer.inbox).

The mailer sits below the application (docs/architecture.md) and never takes the game: it is
given values (its ``Inbox``, a ``Mailing`` per folded entry, the sender's ``Outlet``, the web
``Forms``; nomic/wiring.py makes them of a game).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


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
