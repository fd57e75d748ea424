"""The head of the public record (nomic/public_record.py): a value the site's footer names, kept
apart from the code that computes it (which reads the journal and parses mail)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import storage


@dataclass(frozen=True)
class Head:
    """The public record after ``count`` entries, the last of them journal entry ``seq``."""
    hash: str = storage.GENESIS
    count: int = 0
    seq: int = 0
    journal_hash: str = storage.GENESIS
    kind: str = ""

    def then(self, record: dict[str, Any]) -> "Head":
        """The head after ``record``, the link that follows this head."""
        return Head(record["hash"], self.count + 1, record["seq"], record["journal_hash"], record["kind"])
