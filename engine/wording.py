"""Numbers in answers, in the singular or the plural as the count asks ("1 Proposal", "2 Proposals")."""
from __future__ import annotations


def counted(n: int, noun: str, plural: str = "") -> str:
    """``n`` and the noun that fits it: the plural is ``noun + "s"`` unless given."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
