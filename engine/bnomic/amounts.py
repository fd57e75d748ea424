"""Exact amounts: Vote Power as rationals (2-2), mackerel as decimals (3-11), and the tally of a
proposal's Final Votes (Stamina and Strength, 2-2).

A tally reads each vote once, counting (vote, Vote Power as written) pairs, and multiplies out only
the few distinct Vote Powers: the end of Voting reads every vote of 1,000 Players on 200 proposals.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import compress


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


@dataclass(frozen=True)
class Tally:
    """A proposal's Vote Power FOR and AGAINST, and how many Players' Final Votes are FOR."""
    power_for: Fraction
    power_against: Fraction
    players_for: int

    @property
    def stamina(self) -> Fraction:
        return self.power_for + self.power_against

    @property
    def strength(self) -> Fraction:
        return self.power_for - self.power_against


@dataclass(frozen=True)
class Powers:
    """Each Player's Vote Power as written (``of``), and ``uniform``: the one Vote Power every
    Player has when they all have the same (every Player has 1 from Ballotday), else None;
    ``factions``: each Faction's (5-3), by its voter key ``faction:NAME``: no Player's."""
    of: Mapping[str, str]
    uniform: str | None
    factions: Mapping[str, str]

    @classmethod
    def read(cls, of: Mapping[str, str], factions: Mapping[str, str] | None = None) -> Powers:
        same = set(of.values())
        return cls(of, same.pop() if len(same) == 1 else None, factions or {})


def voting(votes: Mapping[str, str], word: str) -> Iterator[str]:
    """The voters whose Final Vote is ``word`` (in C: a vote costs no Python step)."""
    return compress(votes.keys(), map(word.__eq__, votes.values()))


def tally(votes: Mapping[str, str], powers: Powers) -> Tally:
    """``votes``: voter -> FOR, AGAINST or ABSTAIN; the Players' tally, with the few Factions' Vote
    Power added (a Faction is no Player: ``players_for`` counts Players only)."""
    t = _players(votes, powers)
    for voter, q in powers.factions.items():
        word = votes.get(voter)
        if word in ("FOR", "AGAINST"):
            t = Tally(t.power_for + Fraction(q) * (word == "FOR"), t.power_against + Fraction(q) * (word == "AGAINST"),
                      t.players_for)
    return t


def _players(votes: Mapping[str, str], powers: Powers) -> Tally:
    """The Players' votes (a voter who is no Player has no Vote Power here). With a uniform Vote
    Power and every voter a Player, counting the words is enough."""
    if powers.uniform is not None and votes.keys() <= powers.of.keys():
        words, q = Counter(votes.values()), Fraction(powers.uniform)
        return Tally(q * words["FOR"], q * words["AGAINST"], words["FOR"])
    counts = {word: Counter(map(powers.of.get, voting(votes, word))) for word in ("FOR", "AGAINST")}
    power = {word: sum((Fraction(p) * n for p, n in c.items() if p is not None), Fraction(0))
             for word, c in counts.items()}
    return Tally(power["FOR"], power["AGAINST"], sum(n for p, n in counts["FOR"].items() if p is not None))
