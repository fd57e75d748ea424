"""`nomic replay --verify` catches one byte changed in any stored column of any journal entry, and
the journal's hash of an entry is the one every stored game was chained with."""
from __future__ import annotations

from sqlalchemy import select, update

import storage
from nomic.cli import app
from nomic.game import Game

ALICE = "alice@wonder.land"
COLUMNS = ("kind", "at", "key", "raw", "meta", "prev_hash", "hash")


def _one_byte_off(value: str | bytes) -> str | bytes:
    """``value`` with its middle byte (character) changed to another."""
    i = len(value) // 2
    if isinstance(value, bytes):
        return value[:i] + bytes([value[i] ^ 1]) + value[i + 1:]
    return value[:i] + chr(ord(value[i]) ^ 1) + value[i + 1:]


def test_one_byte_changed_in_any_column_of_an_entry_breaks_the_chain_there(play):
    for title in ("One", "Two", "Three"):
        play.propose(ALICE, title)
    journal = storage.JournalEntry.__table__  # type: ignore[attr-defined]
    db = Game(play.dir).db
    for column in COLUMNS:
        with db.begin() as conn:
            stored = conn.execute(select(journal.c[column]).where(journal.c.seq == 2)).scalar_one()
            conn.execute(update(journal).where(journal.c.seq == 2).values({column: _one_byte_off(stored)}))
        result = play.runner.invoke(app, ["replay", "--verify", "--game", str(play.dir)])
        with db.begin() as conn:
            conn.execute(update(journal).where(journal.c.seq == 2).values({column: stored}))
        assert (result.exit_code, result.output.strip()) == (1, "journal hash chain broken at entry 2"), column
    play.verify()  # each restored


def test_the_hash_of_an_entry_is_the_one_games_were_chained_with():
    """Pinned values (from the part-by-part hashing the journal used before 2026-11-26): a change
    to how a link is hashed would break the chain of every stored game."""
    mail = storage.entry_hash(storage.GENESIS, "mail", "2026-01-05T01:00:00Z", "<a@x>",
                              b"From: a\r\n\r\nbody \xc3\xa9\r\n", '{"source":"lmtp","w":"\u00e9"}')
    skip = storage.entry_hash("ab" * 32, "skip", "2026-01-05T01:00:00Z", "skip:3", None, "{}")
    assert mail == "e87704de639dcef91f8ac0f869f65e4ae888fb4bd70b7236c0fef964a2b26e80"
    assert skip == "937a244dba1666c93c9211c0116b453905c6ad1434310f435f9aeaad3ff317b8"
