"""Exact amounts: Vote Power as rationals (2-2), mackerel as decimals (3-11), and the tally of a
proposal's Final Votes (Stamina and Strength, 2-2).

The proposals ended together are counted at once (``count``): each vote is read once, for the
tallies and for 2-6's point per FOR or AGAINST vote alike, and only the few distinct Vote Powers are
multiplied out: the end of Voting reads every vote of 1,000 Players on 200 proposals.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Set as AbstractSet
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import compress
from operator import countOf
from typing import NamedTuple


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


class Tally(NamedTuple):
    """A proposal's Vote Power FOR and AGAINST, how many Players' Final Votes are FOR, and its
    Stamina (the sum of the two) and Strength (their difference): ``Tally.of`` makes one."""
    power_for: Fraction
    power_against: Fraction
    players_for: int
    stamina: Fraction
    strength: Fraction

    @classmethod
    def of(cls, power_for: Fraction, power_against: Fraction, players_for: int) -> Tally:
        return cls(power_for, power_against, players_for, power_for + power_against, power_for - power_against)


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

    def common(self, voters: AbstractSet[str]) -> Fraction | None:
        """The one Vote Power of all ``voters`` when each is a Player and every Player has the same,
        else None."""
        return Fraction(self.uniform) if self.uniform is not None and voters <= self.of.keys() else None


def voting(votes: Mapping[str, str], word: str) -> Iterator[str]:
    """The voters whose Final Vote is ``word`` (in C: a vote costs no Python step)."""
    return compress(votes.keys(), map(word.__eq__, votes.values()))


@dataclass(frozen=True)
class Count:
    """Proposals counted together, by key in order (``ballots``: each one's votes): each one's
    tally, and how many of them each voter voted FOR or AGAINST on (2-6)."""
    ballots: Mapping[int, Mapping[str, str]]
    tallies: dict[int, Tally]
    voters: Counter[str]

    def cast_on(self, keys: list[int]) -> Counter[str]:
        """How many of the proposals ``keys`` each voter voted FOR or AGAINST on, voters in the
        order of their first such vote (the keys in order). Fewer than were counted (some failed
        quorum): their votes are read again, as nothing between the count and the scoring changes
        a vote (only mail does)."""
        if keys == list(self.ballots):
            return self.voters
        return _voters(self.ballots[k] for k in keys)[0]


def count(ballots: Mapping[int, Mapping[str, str]], powers: Powers) -> Count:
    """``ballots``: proposal key -> its votes (voter -> FOR, AGAINST or ABSTAIN), in order.

    With one Vote Power for every Player and every FOR or AGAINST voter a Player (Ballotday's
    usual case), a tally is the number of FOR votes and of votes cast; otherwise each vote's Vote
    Power is looked up."""
    voters, cast = _voters(ballots.values())
    q = powers.common(voters.keys())
    tallies = {key: _tally(votes, powers, q, n) for (key, votes), n in zip(ballots.items(), cast)}
    return Count(ballots, tallies, voters)


def _voters(ballots: Iterable[Mapping[str, str]]) -> tuple[Counter[str], list[int]]:
    """How many of ``ballots`` each voter voted FOR or AGAINST on (voters in the order of their first
    such vote), and how many such votes each ballot has.

    Each ballot's voters are listed, counted and let go: 200 lists of 750 voters kept alive until
    scoring were read by the garbage collector's young collections (about 6 ms of its 200,000 votes)."""
    voters: Counter[str] = Counter()
    cast = []
    for votes in ballots:
        listed = [v for v, w in votes.items() if w != "ABSTAIN"]
        cast.append(len(listed))
        voters.update(listed)
    return voters, cast


def tally(votes: Mapping[str, str], powers: Powers) -> Tally:
    """One proposal's tally (Stamina and Strength now, as the Ballot shows them)."""
    return _tally(votes, powers, powers.common(votes.keys()), len(votes) - countOf(votes.values(), "ABSTAIN"))


def _tally(votes: Mapping[str, str], powers: Powers, q: Fraction | None, cast: int) -> Tally:
    """``q``: the one Vote Power of every FOR or AGAINST voter (``Powers.common``), or None. With it,
    the ``cast`` FOR and AGAINST votes and a count of the FOR votes make the tally."""
    if q is None:
        return _factions(votes, _players(votes, powers), powers)
    n_for = countOf(votes.values(), "FOR")
    return _factions(votes, Tally.of(_times(q, n_for), _times(q, cast - n_for), n_for), powers)


def _times(q: Fraction, n: int) -> Fraction:
    """``q * n``, without Fraction's arithmetic when ``q`` is whole (every Vote Power is 1 from
    Ballotday): the end of Voting makes two for each of 200 proposals."""
    return Fraction(q.numerator * n) if q.denominator == 1 else q * n


def _factions(votes: Mapping[str, str], t: Tally, powers: Powers) -> Tally:
    """The Players' tally ``t`` with the few Factions' Vote Power added (a Faction is no Player:
    ``players_for`` counts Players only)."""
    for voter, q in powers.factions.items():
        word = votes.get(voter)
        if word in ("FOR", "AGAINST"):
            t = Tally.of(t.power_for + Fraction(q) * (word == "FOR"),
                         t.power_against + Fraction(q) * (word == "AGAINST"), t.players_for)
    return t


def _players(votes: Mapping[str, str], powers: Powers) -> Tally:
    """The Players' votes, each at its voter's Vote Power (a voter who is no Player has none here)."""
    counts = {word: Counter(map(powers.of.get, voting(votes, word))) for word in ("FOR", "AGAINST")}
    power = {word: sum((Fraction(p) * n for p, n in c.items() if p is not None), Fraction(0))
             for word, c in counts.items()}
    return Tally.of(power["FOR"], power["AGAINST"], sum(n for p, n in counts["FOR"].items() if p is not None))
