"""Exact amounts: Vote Power as rationals (2-2), mackerel as decimals (3-11), and the tally of a
proposal's Final Votes (Stamina and Strength, 2-2)."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction


def text(q: Fraction) -> str:
    """``"0"``, ``"3/2"``: the contract's form of a rational."""
    return str(q)


def half(n: int) -> Fraction:
    """3-6: the Quorum is any number greater than half the Active Players."""
    return Fraction(n, 2)


def mackerel_text(amount: str) -> str:
    """``m19.85``, ``m0``: ``m`` and a plain decimal without trailing zeros."""
    d = Decimal(amount)
    plain = format(d.normalize(), "f") if d else "0"
    return f"m{plain}"


def _power(votes: Mapping[str, str], powers: Mapping[str, Fraction], word: str) -> Fraction:
    return sum((powers.get(v, Fraction(0)) for v, w in votes.items() if w == word), Fraction(0))


def stamina(votes: Mapping[str, str], powers: Mapping[str, Fraction]) -> Fraction:
    """The Vote Power voting FOR plus that voting AGAINST."""
    return _power(votes, powers, "FOR") + _power(votes, powers, "AGAINST")


def strength(votes: Mapping[str, str], powers: Mapping[str, Fraction]) -> Fraction:
    """The Vote Power voting FOR less that voting AGAINST."""
    return _power(votes, powers, "FOR") - _power(votes, powers, "AGAINST")
