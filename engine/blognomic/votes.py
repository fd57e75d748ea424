"""Counting the Votes on a Votable Matter (rule "Votes"), pure and from the ballots alone.

A Pactmaker's Vote is the last valid icon (FOR or AGAINST) they used on the matter; the author's
is FOR until they use one; Idle Pactmakers and non-Pactmakers have none. A DEFERENTIAL from
someone other than a Seraphim becomes valid, and the same as the Seraphims' Vote, once a
quorum of the Seraphims has the same valid Vote (edition 109: the Potentate's Vote, on
Proposals only). VETO is never a valid Vote: it only marks a Proposal Vetoed.

Each matter keeps a running count (``Board``): every voter of the electorate falls in one
category (deferring or not, and their plain Vote) and the board counts the categories and keeps
each voter's icon, so a new ballot moves one voter from one category to another and the tally
follows in constant time. The board is redone from the ballots when the electorate changes
(``BlogState.electorate``), and after a load (it is derived, not state).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.blognomic.state import Ballot, BlogState, Electorate, Tally, VotableMatter, private

VALID = ("FOR", "AGAINST")
Category = tuple[bool, str | None]  # (a DEFERENTIAL that may follow the Seraphims, the plain Vote)


def quorum(n: int) -> int:
    """Quorum of a set of ``n`` Pactmakers: half of them, rounded down, plus one."""
    return n // 2 + 1


@dataclass
class _Voter:
    """One voter's last valid icon, and the positions of their last DEFERENTIAL and VETO."""
    valid: str | None = None
    valid_at: int = -1
    deferred_at: int = -1
    vetoed_at: int = -1

    def read(self, icon: str, i: int) -> None:
        if icon in VALID:
            self.valid, self.valid_at = icon, i
        elif icon == "DEFERENTIAL":
            self.deferred_at = i
        else:
            self.vetoed_at = i


NOBODY = Electorate((), ())  # what a new board is sorted for: nothing yet


@dataclass
class Board:
    """A matter's ballots read so far, and its electorate sorted into categories (``_category``).

    ``counts`` covers the members of ``electorate`` only; ``seraphim_votes`` the plain Votes of
    its Seraphims, whose quorum's Vote DEFERENTIAL follows (``resolved_to``) where ``deferring``;
    ``icons`` each member's icon as the contract shows it; ``fallbacks`` the deferring members
    with an earlier valid Vote, whose icon turns when the Seraphims gain or lose their quorum."""
    author: str
    deferring: bool
    electorate: Electorate = NOBODY
    read: int = 0
    voters: dict[str, _Voter] = field(default_factory=dict)
    counts: Counter[Category] = field(default_factory=Counter)
    seraphim_votes: Counter[str | None] = field(default_factory=Counter)
    resolved_to: str | None = None
    icons: dict[str, str] = field(default_factory=dict)
    fallbacks: set[str] = field(default_factory=set)

    def sync(self, ballots: list[Ballot], electorate: Electorate) -> None:
        """Read the ballots cast since the last call, for ``electorate``: each moves one voter to
        their new category; a different electorate is sorted afresh (one pass over it)."""
        if electorate is self.electorate:
            for i in range(self.read, len(ballots)):
                self._cast(ballots[i], i)
            self.read = len(ballots)
            return
        self._read(ballots)
        self.electorate, self.counts, self.seraphim_votes, self.fallbacks = electorate, Counter(), Counter(), set()
        for who in electorate.members:
            self._tally(who, 1)
        self.resolved_to = self._seraphims_vote()
        shown = ((who, self._shown(who)) for who in electorate.members)
        self.icons = {who: icon for who, icon in shown if icon is not None}

    def _read(self, ballots: list[Ballot]) -> None:
        for i in range(self.read, len(ballots)):
            self.voters.setdefault(ballots[i].voter, _Voter()).read(ballots[i].icon, i)
        self.read = len(ballots)

    def _cast(self, b: Ballot, i: int) -> None:
        """One new ballot: its voter's category, the Seraphims' Vote, and the icons that follow."""
        if b.voter not in self.electorate.present:
            self.voters.setdefault(b.voter, _Voter()).read(b.icon, i)
            return
        self._tally(b.voter, -1)
        self.voters.setdefault(b.voter, _Voter()).read(b.icon, i)
        self._tally(b.voter, 1)
        was, self.resolved_to = self.resolved_to, self._seraphims_vote()
        turned = self.fallbacks if (was is None) != (self.resolved_to is None) else ()
        for who in (b.voter, *turned):
            icon = self._shown(who)
            if icon is not None:  # always: each of them has a ballot
                self.icons[who] = icon

    def _tally(self, who: str, delta: int) -> None:
        v, is_author = self.voters.get(who), who == self.author
        is_seraphim = who in self.electorate.seraphim_set
        category = _category(v, is_author, is_seraphim)
        self.counts[category] += delta
        if is_seraphim:
            self.seraphim_votes[_plain_vote(v, is_author)] += delta
        if category[0] and category[1] is not None:
            (self.fallbacks.add if delta > 0 else self.fallbacks.discard)(who)

    def _seraphims_vote(self) -> str | None:
        """The valid Vote a quorum of the Seraphims shares, where DEFERENTIAL may follow it."""
        seraphims = len(self.electorate.seraphims)
        if not (self.deferring and seraphims):
            return None
        return next((icon for icon in VALID if self.seraphim_votes[icon] >= quorum(seraphims)), None)

    def _shown(self, who: str) -> str | None:
        """``who``'s icon as the contract shows it, or None (not voting)."""
        v = self.voters.get(who)
        deferred, vote = _category(v, who == self.author, who in self.electorate.seraphim_set)
        if deferred and self.resolved_to is not None:
            return "DEFERENTIAL"
        if vote is not None:
            return vote
        if deferred:
            return "DEFERENTIAL"
        if v is not None and (v.vetoed_at >= 0 or v.deferred_at >= 0):
            return "VETO" if v.vetoed_at > v.deferred_at else "DEFERENTIAL"
        return None

    def count(self) -> Count:
        """The Votes now, in constant time."""
        e, c, to = self.electorate, self.counts, self.resolved_to
        result = Count(electorate=len(e.members), resolved_to=to, seraphims=len(e.seraphims),
                       seraphims_for=self.seraphim_votes["FOR"], icons=self.icons, order=e.members)
        if to is None:
            result.for_ = c[False, "FOR"] + c[True, "FOR"]
            result.against = c[False, "AGAINST"] + c[True, "AGAINST"]
            result.deferential = c[True, None]
            return result
        result.resolved = c[True, "FOR"] + c[True, "AGAINST"] + c[True, None]
        result.for_ = c[False, "FOR"] + (result.resolved if to == "FOR" else 0)
        result.against = c[False, "AGAINST"] + (result.resolved if to == "AGAINST" else 0)
        return result


@dataclass
class Count:
    """The Votes on one matter now: valid FOR and AGAINST (resolved DEFERENTIALs included),
    unresolved DEFERENTIALs, and each voter's icon as the contract shows it (``icons``: the
    board's own, in no set order, read at once before the matter's next ballot; ``frozen``
    puts them in the electorate's ``order``)."""
    electorate: int
    for_: int = 0
    against: int = 0
    deferential: int = 0
    resolved: int = 0  # DEFERENTIALs counted as ``resolved_to``
    resolved_to: str | None = None
    seraphims: int = 0
    seraphims_for: int = 0
    icons: dict[str, str] = field(default_factory=dict)
    order: tuple[str, ...] = ()

    @property
    def quorum(self) -> int:
        return quorum(self.electorate)

    @property
    def valid(self) -> int:
        return self.for_ + self.against

    @property
    def not_against(self) -> int:
        """Pactmakers who are not voting AGAINST (rule "Votes": Unpopular)."""
        return self.electorate - self.against

    @property
    def seraphim_quorum(self) -> bool:
        """Whether a quorum of the Seraphims has Voted FOR (a DoV's 12-hour condition)."""
        return self.seraphims > 0 and self.seraphims_for >= quorum(self.seraphims)

    def frozen(self, seraphims: list[str]) -> Tally:
        votes = {who: self.icons[who] for who in self.order if who in self.icons}
        return Tally(votes=votes, for_=self.for_, against=self.against, deferential=self.deferential,
                     deferred_to=self.resolved_to if self.resolved else None, seraphims=seraphims)


def count(ballots: list[Ballot], author: str, electorate: list[str], seraphims: list[str],
          deferring: bool = True) -> Count:
    """The Votes of ``electorate`` (the non-idle Pactmakers, in order) on a matter by ``author``,
    counted from scratch; ``seraphims`` count only as members of ``electorate``.

    ``deferring`` says whether DEFERENTIAL can follow the Seraphims on this matter."""
    present = set(electorate)
    board = Board(author, deferring)
    board.sync(ballots, Electorate(tuple(electorate), tuple(s for s in seraphims if s in present)))
    return board.count()


def count_matter(state: BlogState, matter: VotableMatter) -> Count:
    """The Votes on ``matter`` as the game stands, off its running board: a new ballot costs a
    constant, a change of the electorate one pass over it (ballots are only ever appended)."""
    box = private(matter)
    board: Board | None = box["_board"]
    if board is None:
        board = box["_board"] = Board(matter.author, state.edition != "109" or matter.kind == "proposal")
    board.sync(matter.ballots, state.electorate())
    return board.count()


def _plain_vote(v: _Voter | None, is_author: bool) -> str | None:
    """A Vote without DEFERENTIAL: the last valid icon, or the author's implicit FOR."""
    if v is not None and v.valid is not None:
        return v.valid
    return "FOR" if is_author else None


def _category(v: _Voter | None, is_author: bool, is_seraphim: bool) -> Category:
    """A later DEFERENTIAL that follows the Seraphims replaces an earlier valid icon; one that
    does not (yet) leaves the earlier valid icon as the Vote (docs/rulings-blognomic.md). A
    Seraphim's DEFERENTIAL defers to no one."""
    deferred = v is not None and not is_seraphim and v.deferred_at > v.valid_at
    return deferred, _plain_vote(v, is_author)
