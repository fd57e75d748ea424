"""Counting the Votes on a Votable Matter (rule "Votes"), pure and from the ballots alone.

A Pactmaker's Vote is the last valid icon (FOR or AGAINST) they used on the matter; the author's
is FOR until they use one; Idle Pactmakers and non-Pactmakers have none. A DEFERENTIAL from
someone other than a Seraphim becomes valid, and the same as the Seraphims' Vote, once a
quorum of the Seraphims has the same valid Vote (edition 109: the Potentate's Vote, on
Proposals only). VETO is never a valid Vote: it only marks a Proposal Vetoed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.blognomic.state import Ballot, BlogState, Tally, VotableMatter

VALID = ("FOR", "AGAINST")


def quorum(n: int) -> int:
    """Quorum of a set of ``n`` Pactmakers: half of them, rounded down, plus one."""
    return n // 2 + 1


@dataclass
class Count:
    """The Votes on one matter now: valid FOR and AGAINST (resolved DEFERENTIALs included),
    unresolved DEFERENTIALs, and each voter's icon as the contract shows it."""
    electorate: int
    for_: int = 0
    against: int = 0
    deferential: int = 0
    resolved: int = 0  # DEFERENTIALs counted as ``resolved_to``
    resolved_to: str | None = None
    seraphims: int = 0
    seraphims_for: int = 0
    icons: dict[str, str] = field(default_factory=dict)

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
        return Tally(votes=dict(self.icons), for_=self.for_, against=self.against, deferential=self.deferential,
                     deferred_to=self.resolved_to if self.resolved else None, seraphims=seraphims)


@dataclass
class _Voter:
    """One voter's last valid icon, and the positions of their last DEFERENTIAL and VETO."""
    valid: str | None = None
    valid_at: int = -1
    deferred_at: int = -1
    vetoed_at: int = -1


def count(ballots: list[Ballot], author: str, electorate: list[str], seraphims: list[str],
          deferring: bool = True) -> Count:
    """The Votes of ``electorate`` (the non-idle Pactmakers, in order) on a matter by ``author``.

    ``deferring`` says whether DEFERENTIAL can follow the Seraphims on this matter."""
    return _count(_read(ballots, {}), author, electorate, seraphims, deferring)


def _count(voters: dict[str, _Voter], author: str, electorate: list[str], seraphims: list[str],
           deferring: bool) -> Count:
    result = Count(electorate=len(electorate), seraphims=len(seraphims))
    for s in seraphims:
        vote = _plain_vote(voters.get(s), s == author)
        result.seraphims_for += vote == "FOR"
    result.resolved_to = _seraphims_vote(voters, author, seraphims) if deferring else None
    seraphim_set = set(seraphims)
    for who in electorate:
        _add(result, who, voters.get(who), who == author, who in seraphim_set)
    return result


def count_matter(state: BlogState, matter: VotableMatter) -> Count:
    """The Votes on ``matter`` as the game stands: the ballots are read once, as they come
    (``matter.board``), so a new vote costs one pass over the electorate, not over every ballot."""
    deferring = state.edition != "109" or matter.kind == "proposal"
    board = matter.board()  # ballots are only ever appended
    board.voters = _read(matter.ballots[board.read:], board.voters, board.read)
    board.read = len(matter.ballots)
    return _count(board.voters, matter.author, [p.email for p in state.active()], state.seraphims(), deferring)


def _read(ballots: list[Ballot], voters: dict[str, Any], start: int = 0) -> dict[str, Any]:
    """Fold ``ballots`` (numbered from ``start``) into each voter's last icons."""
    for i, b in enumerate(ballots, start):
        v = voters.setdefault(b.voter, _Voter())
        if b.icon in VALID:
            v.valid, v.valid_at = b.icon, i
        elif b.icon == "DEFERENTIAL":
            v.deferred_at = i
        else:
            v.vetoed_at = i
    return voters


def _plain_vote(v: _Voter | None, is_author: bool) -> str | None:
    """A Vote without DEFERENTIAL: the last valid icon, or the author's implicit FOR."""
    if v is not None and v.valid is not None:
        return v.valid
    return "FOR" if is_author else None


def _seraphims_vote(voters: dict[str, _Voter], author: str, seraphims: list[str]) -> str | None:
    """The valid Vote a quorum of the Seraphims shares, if any."""
    if not seraphims:
        return None
    votes = [_plain_vote(voters.get(s), s == author) for s in seraphims]
    for icon in VALID:
        if votes.count(icon) >= quorum(len(seraphims)):
            return icon
    return None


def _add(result: Count, who: str, v: _Voter | None, is_author: bool, is_seraphim: bool) -> None:
    """Count one voter. A later DEFERENTIAL that follows the Seraphims replaces an earlier valid
    icon; one that does not (yet) leaves the earlier valid icon as the Vote (docs/rulings-blognomic.md)."""
    deferred = v is not None and not is_seraphim and v.deferred_at > v.valid_at
    if deferred and result.resolved_to is not None:
        result.resolved += 1
        _tally(result, who, result.resolved_to, "DEFERENTIAL")
        return
    vote = _plain_vote(v, is_author)
    if vote is not None:
        _tally(result, who, vote, vote)
    elif deferred:
        result.deferential += 1
        result.icons[who] = "DEFERENTIAL"
    elif v is not None and (v.vetoed_at >= 0 or v.deferred_at >= 0):
        result.icons[who] = "VETO" if v.vetoed_at > v.deferred_at else "DEFERENTIAL"


def _tally(result: Count, who: str, vote: str, shown: str) -> None:
    if vote == "FOR":
        result.for_ += 1
    else:
        result.against += 1
    result.icons[who] = shown
