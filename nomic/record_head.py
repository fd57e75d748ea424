"""The head of the public record (nomic/public_record.py): a value the site's footer names, kept
apart from the code that computes it (which reads the journal and parses mail)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import storage
from engine.membership import LIST_COMMANDS

WITHHELD = "[withheld]"  # a line the Scribe did not understand, or a sender who made no move: private
LIST_KINDS = frozenset(d.kind for d in LIST_COMMANDS)  # the list's own commands: no move in the game


@dataclass(frozen=True)
class Head:
    """The public record after ``count`` entries, the last of them journal entry ``seq``."""
    hash: str = storage.GENESIS
    count: int = 0
    seq: int = 0
    journal_hash: str = storage.GENESIS
    kind: str = ""
    movers: frozenset[str] = frozenset()  # who has made a move so far: their address is shown (``public_input``)

    def then(self, record: dict[str, Any]) -> "Head":
        """The head after ``record``, the link that follows this head."""
        data = record["input"]
        mover = data["sender"] if moves(data) and data["sender"] != WITHHELD else None
        return Head(record["hash"], self.count + 1, record["seq"], record["journal_hash"], record["kind"],
                    self.movers | {mover} if mover else self.movers)


def moves(data: dict[str, Any] | None) -> bool:
    """Is this input a move in the game: authenticated mail by a person, with a command besides the
    list's own? Its sender shows their address (a player, or one who tried to be)."""
    return (data is not None and data.get("kind") == "mail" and bool(data.get("authenticated"))
            and not data.get("automatic") and any(c.get("kind") not in LIST_KINDS for c in data.get("commands", [])))
