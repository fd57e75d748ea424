"""The database of a game: opening it (``database``), the journal, the source of truth
(``journal``), the tables derived from it (``derived``) and small named values (``meta``).

The names other packages use are all here, so ``import storage`` is enough.
"""
from __future__ import annotations

from storage.database import UpgradeNeeded, connect, open_database, upgrade_database
from storage.derived import add_events, cache_inputs, event_rows, wipe_derived
from storage.journal import (
    GENESIS, SKIP, Chain, ChainBroken, Duplicate, Entry, Item, Journal, append_many, entries, entry_hash, iso,
    lock_key, skip_item, skipped,
)
from storage.meta import REFOLD, get_meta, refold_reason, set_meta
from storage.tables import EventRow, JournalEntry, Meta, ParsedInput

__all__ = [
    "GENESIS", "REFOLD", "SKIP", "Chain", "ChainBroken", "Duplicate", "Entry", "EventRow", "Item", "Journal",
    "JournalEntry", "Meta", "ParsedInput", "UpgradeNeeded", "add_events", "append_many", "cache_inputs", "connect",
    "entries", "event_rows", "entry_hash", "get_meta", "iso", "lock_key", "open_database", "refold_reason", "set_meta",
    "skip_item", "skipped", "upgrade_database", "wipe_derived",
]
