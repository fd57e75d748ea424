"""The Voting Period (2-2, 2-6, 2-7): Ballotday opens the Pending proposals and sets Vote Power;
the end of Voting runs 2-2's seven steps in order; a proposal becoming Historical is scored (2-6).

Order: Proposal Numbers ascending; a proposal without a number after every numbered one, by key.
Stamina and Strength are read once, with the Vote Powers when Voting ends, and frozen then.
Scoring goes proposal by proposal in that order, each loss floored at 0 as it is made (Reading
24); the ledger gets one entry per Player for his votes of the Voting, then each Author's.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.bnomic import amounts, changes, mechanics, points
from engine.bnomic.events import Changed, Opened, VotingEnded
from engine.bnomic.state import BNomicState, Proposal
from engine.context import Context
from engine.events import Cause

# 2-2's steps when Voting ends, in order (a test pins this list)
STEPS = ("quorum", "won_or_lost", "dependency_culling", "conflict_culling", "dependency_culling", "pass",
         "historical")


@dataclass
class Ending:
    """One end of Voting: the proposals it decides, their tallies, the Quorum, and why each ended so."""
    voting: list[Proposal]
    count: amounts.Count
    half: Fraction
    why: dict[int, str] = field(default_factory=dict)

    def open(self) -> list[Proposal]:
        return [p for p in self.voting if p.status == "open"]


def order(p: Proposal) -> tuple[int, int]:
    return (0, p.number) if p.number is not None else (1, p.key)


def ballotday(state: BNomicState, ctx: Context) -> None:
    """The start of nday 9: Vote Power 0 for each Player who Gave his Allegiance this nweek, 1 for
    every other (2-7); every Pending proposal Open (2-2)."""
    if mechanics.on(state, "2-7"):
        for player in state.players:
            player.vote_power = "0" if player.allegiance_nweek == state.clock.nweek else "1"
    opened = [p for p in state.proposals if p.status == "pending"]
    for p in opened:
        p.status = "open"
    ctx.emit(Opened(keys=[p.key for p in opened]))


def end(state: BNomicState, ctx: Context) -> None:
    """2-2: when Voting ends; the ``voting_ended`` event lists each proposal's result and why."""
    voting = sorted((p for p in state.proposals if p.status == "open"), key=order)
    powers = state.vote_powers()
    e = Ending(voting, amounts.count({p.key: p.votes for p in voting}, powers), amounts.half(state.active_players()))
    for step in STEPS:
        _STEP[step](state, e, ctx)
    state.results = [p.key for p in voting]
    ctx.emit(VotingEnded(nweek=state.clock.nweek, quorum_exceeds=amounts.text(e.half),
                         results=[_result(p, e) for p in voting]))


def _quorum(state: BNomicState, e: Ending, ctx: Context) -> None:
    """Stamina not above half the Active Players: back to Pending (Reading 18); the votes stay."""
    for p in e.voting:
        stamina = e.count.tallies[p.key].stamina
        if stamina <= e.half:
            p.status = "pending"
            e.why[p.key] = f"failed quorum: Stamina {stamina} is not above {e.half}"


def _won_or_lost(state: BNomicState, e: Ending, ctx: Context) -> None:
    for p in e.open():
        strength = e.count.tallies[p.key].strength
        won = strength > 0
        p.success = "won" if won else "lost"
        p.ever_won = p.ever_won or won
        if not won:
            e.why[p.key] = f"Strength {strength} is not positive"


def _dependency_culling(state: BNomicState, e: Ending, ctx: Context) -> None:
    """Ascending number, repeated while an Open proposal Depends on a Lost one and is not Lost."""
    by_number = {p.number: p for p in state.proposals if p.number is not None}
    changed = True
    while changed:
        changed = False
        for p in e.open():
            lost = next((n for n in p.dependencies if by_number[n].success == "lost"), None)
            if p.success != "lost" and lost is not None:
                p.success, changed = "lost", True
                e.why[p.key] = f"culled: it depends on proposal {lost}, which is Lost"


def _conflict_culling(state: BNomicState, e: Ending, ctx: Context) -> None:
    """Descending Strength, then descending number: each Won at its turn makes Lost every Open
    proposal that Conflicts with it (Reading 22)."""
    still = e.open()
    by_number = {p.number: p for p in still if p.number is not None}
    listed_by: dict[int, list[Proposal]] = {}  # number -> the proposals that list it as a Conflict
    for q in still:
        for n in dict.fromkeys(q.conflicts):
            listed_by.setdefault(n, []).append(q)
    for p in sorted(still, key=lambda p: (e.count.tallies[p.key].strength, order(p)), reverse=True):
        if p.success != "won":
            continue
        mutual = listed_by.get(p.number, []) if p.number is not None else []
        for q in [*(by_number[n] for n in p.conflicts if n in by_number), *mutual]:
            if q is not p and q.success != "lost":
                q.success = "lost"
                e.why[q.key] = f"culled: it conflicts with proposal {p.number}, which is Won"


def _pass(state: BNomicState, e: Ending, ctx: Context) -> None:
    for p in e.open():
        if p.success == "won":
            p.passed = True
            e.why[p.key] = "passed"
            with ctx.because(Cause("proposal", p.key)):
                apply_changes(state, p, ctx)


def _historical(state: BNomicState, e: Ending, ctx: Context) -> None:
    ending = e.open()
    for p in ending:
        p.status = "historical"
    score(state, ending, e.count, ctx)


def apply_changes(state: BNomicState, p: Proposal, ctx: Context) -> None:
    """A Passed proposal's change lines, in order, each that can (2-2)."""
    by = f"P{p.number}" if p.number is not None else f"key {p.key}"
    for c in p.changes:
        try:
            result, ok = changes.apply(state, c, by, ctx), True
        except changes.Refused as refused:
            result, ok = f"skipped: {refused}", False
        ctx.emit(Changed(key=p.key, line=c.line, ok=ok, result=result))


def score(state: BNomicState, ended: list[Proposal], count: amounts.Count, ctx: Context) -> None:
    """``ended`` have become Historical, in this order, counted in ``count``: their tallies frozen,
    and 2-6's points (Reading 23): +1 to each Player voting FOR or AGAINST; the Author +1 per Player
    voting FOR if it Passed, +1 more if it was ever Won; -3 (the parameter fail_penalty) if it Failed
    and was never Won; nothing with 2-6 repealed.

    Gains never meet the floor, so the voters' are only counted; an Author's score at his proposal's
    turn is his score before, his votes on it and the ones before it, and his Author's points so far."""
    players = {p.email: p for p in state.players}
    authored: Counter[str] = Counter()
    authors: list[tuple[str, int, str]] = []
    scoring, penalty = mechanics.on(state, "2-6"), mechanics.value(state, "fail_penalty")
    for i, p in enumerate(ended):
        t = count.tallies[p.key]
        p.stamina, p.strength, p.nweek = amounts.text(t.stamina), amounts.text(t.strength), state.clock.nweek
        if not scoring:
            continue
        if p.author not in players:
            continue
        what = f"2-6: proposal {p.number if p.number is not None else f'(key {p.key})'}"
        gained = t.players_for * (p.passed + p.ever_won)
        if gained:
            authors.append((p.author, gained, f"{what}: {t.players_for} FOR, {'Passed' if p.passed else 'Won'}"))
            authored[p.author] += gained
        if not p.passed and not p.ever_won and penalty:
            now = players[p.author].score + _cast(p.author, ended[:i + 1]) + authored[p.author]
            if now:
                authors.append((p.author, -min(penalty, now), f"{what}: Failed, never Won"))
                authored[p.author] -= min(penalty, now)
    for voter, n in (count.cast_on([p.key for p in ended]) if scoring else {}).items():
        if voter in players:
            points.gain(state, players[voter], n, f"2-6: voted FOR or AGAINST on {n} proposal{'s' * (n != 1)}", ctx)
    for author, delta, cause in authors:
        points.gain(state, players[author], delta, cause, ctx)


def _cast(voter: str, proposals: list[Proposal]) -> int:
    """On how many of ``proposals`` ``voter``'s Final Vote is FOR or AGAINST."""
    return sum(p.votes.get(voter, "ABSTAIN") != "ABSTAIN" for p in proposals)


def _result(p: Proposal, e: Ending) -> dict[str, Any]:
    """A proposal's line of the results (the votes are the proposal's, in the state)."""
    t = e.count.tallies[p.key]
    result = "PASSED" if p.passed else "PENDING" if p.status == "pending" else "FAILED"
    return {"key": p.key, "number": p.number, "title": p.title, "author": p.author,
            "stamina": amounts.text(t.stamina), "strength": amounts.text(t.strength), "result": result,
            "why": e.why.get(p.key, "")}


_STEP = {"quorum": _quorum, "won_or_lost": _won_or_lost, "dependency_culling": _dependency_culling,
         "conflict_culling": _conflict_culling, "pass": _pass, "historical": _historical}
