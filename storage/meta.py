"""The meta table: small named values of a game's database (the journal's head is the journal's own)."""
from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlmodel import Session

from storage.tables import Meta

# meta key: a migration left derived rows that only folding the journal again can complete
# (migrations/versions/0005: events without their cause); ``derived.wipe_derived`` clears it
REFOLD = "refold"


def get_meta(session: Session, key: str, default: str = "") -> str:
    row = session.get(Meta, key)
    return row.value if row else default


def set_meta(session: Session, key: str, value: str) -> None:
    row = session.get(Meta, key)
    if row is None:
        session.add(Meta(key=key, value=value))
    else:
        row.value = value
        session.add(row)


def refold_reason(db: Engine) -> str:
    """Why a migration asked for the journal to be folded again ("" if none did)."""
    with Session(db) as s:
        return get_meta(s, REFOLD)
