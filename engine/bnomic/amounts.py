"""Exact amounts: Vote Power as rationals (2-2), mackerel as decimals (3-11), and the tally of a
proposal's Final Votes (Stamina and Strength, 2-2).

The proposals ended together are counted at once (``count``): each vote is read once, for the
tallies and for 2-6's point per FOR or AGAINST vote alike, and only the few distinct Vote Powers are
multiplied out: the end of Voting reads every vote of 1,000 Players on 200 proposals.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from itertools import chain, compress
from operator import countOf


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

    @cached_property
    def stamina(self) -> Fraction:
        return self.power_for + self.power_against

    @cached_property
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


@dataclass(frozen=True)
class Count:
    """Proposals counted together, by key in order: each one's tally, its voters FOR or AGAINST,
    and how many of them each voter voted FOR or AGAINST on (2-6)."""
    tallies: dict[int, Tally]
    cast: dict[int, list[str]]
    voters: Counter[str]

    def cast_on(self, keys: list[int]) -> Counter[str]:
        """How many of the proposals ``keys`` each voter voted FOR or AGAINST on, voters in the
        order of their first such vote (the keys in order)."""
        if keys == list(self.cast):
            return self.voters
        return Counter(chain.from_iterable(self.cast[k] for k in keys))


def count(ballots: Mapping[int, Mapping[str, str]], powers: Powers) -> Count:
    """``ballots``: proposal key -> its votes (voter -> FOR, AGAINST or ABSTAIN), in order.

    With one Vote Power for every Player and every FOR or AGAINST voter a Player (Ballotday's
    usual case), a tally is the number of FOR votes and of votes cast; otherwise each vote's Vote
    Power is looked up."""
    cast = {key: [v for v, w in votes.items() if w != "ABSTAIN"] for key, votes in ballots.items()}
    voters = Counter(chain.from_iterable(cast.values()))
    uniform = powers.uniform is not None and voters.keys() <= powers.of.keys()
    tallies = {key: _tally(votes, powers, len(cast[key]) if uniform else None) for key, votes in ballots.items()}
    return Count(tallies, cast, voters)


def tally(votes: Mapping[str, str], powers: Powers) -> Tally:
    """One proposal's tally (Stamina and Strength now, as the Ballot shows them)."""
    uniform = powers.uniform is not None and votes.keys() <= powers.of.keys()
    return _tally(votes, powers, len(votes) - countOf(votes.values(), "ABSTAIN") if uniform else None)


def _tally(votes: Mapping[str, str], powers: Powers, cast: int | None) -> Tally:
    """``cast``: the number of FOR and AGAINST votes when every such voter is a Player and every
    Player has the one Vote Power ``powers.uniform`` (then counting FOR votes is enough), else None."""
    if cast is None or powers.uniform is None:
        return _factions(votes, _players(votes, powers), powers)
    q, n_for = Fraction(powers.uniform), countOf(votes.values(), "FOR")
    return _factions(votes, Tally(q * n_for, q * (cast - n_for), n_for), powers)


def _factions(votes: Mapping[str, str], t: Tally, powers: Powers) -> Tally:
    """The Players' tally ``t`` with the few Factions' Vote Power added (a Faction is no Player:
    ``players_for`` counts Players only)."""
    for voter, q in powers.factions.items():
        word = votes.get(voter)
        if word in ("FOR", "AGAINST"):
            t = Tally(t.power_for + Fraction(q) * (word == "FOR"), t.power_against + Fraction(q) * (word == "AGAINST"),
                      t.players_for)
    return t


def _players(votes: Mapping[str, str], powers: Powers) -> Tally:
    """The Players' votes, each at its voter's Vote Power (a voter who is no Player has none here)."""
    counts = {word: Counter(map(powers.of.get, voting(votes, word))) for word in ("FOR", "AGAINST")}
    power = {word: sum((Fraction(p) * n for p, n in c.items() if p is not None), Fraction(0))
             for word, c in counts.items()}
    return Tally(power["FOR"], power["AGAINST"], sum(n for p, n in counts["FOR"].items() if p is not None))
