"""The Voting Period (2-2, 2-6, 2-7): Ballotday opens the Pending proposals and sets Vote Power;
the end of Voting runs 2-2's seven steps in order; a proposal becoming Historical is scored (2-6).

Order: Proposal Numbers ascending; a proposal without a number after every numbered one, by key.
Stamina and Strength are read with the Vote Powers when Voting ends, and frozen then.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.bnomic import amounts, changes, points
from engine.bnomic.events import Changed, Opened, VotingEnded
from engine.bnomic.state import BNomicState, Proposal
from engine.context import Context
from engine.events import Cause

# 2-2's steps when Voting ends, in order (a test pins this list)
STEPS = ("quorum", "won_or_lost", "dependency_culling", "conflict_culling", "dependency_culling", "pass",
         "historical")


def order(p: Proposal) -> tuple[int, int]:
    return (0, p.number) if p.number is not None else (1, p.key)


def ballotday(state: BNomicState, ctx: Context) -> None:
    """The start of nday 9: Vote Power 1 for every Player (2-7: no Faction yet), every Pending
    proposal Open (2-2)."""
    for player in state.players:
        player.vote_power = "1"
    opened = [p for p in state.proposals if p.status == "pending"]
    for p in opened:
        p.status = "open"
    ctx.emit(Opened(keys=[p.key for p in opened]))


def end(state: BNomicState, ctx: Context) -> None:
    """2-2: when Voting ends; the ``voting_ended`` event lists each proposal's result and why."""
    voting = sorted((p for p in state.proposals if p.status == "open"), key=order)
    powers = state.vote_powers()
    half = amounts.half(state.active_players())
    why: dict[int, str] = {}
    for step in STEPS:
        _STEP[step](state, voting, powers, half, why, ctx)
    results = [_result(p, why.get(p.key, ""), powers) for p in voting]
    state.results = [p.key for p in voting]
    ctx.emit(VotingEnded(nweek=state.clock.nweek, quorum_exceeds=amounts.text(half), results=results))


def _quorum(state: BNomicState, voting: list[Proposal], powers: dict[str, Fraction], half: Fraction,
            why: dict[int, str], ctx: Context) -> None:
    """Stamina not above half the Active Players: back to Pending (Reading 18); the votes stay."""
    for p in voting:
        stamina = amounts.stamina(p.votes, powers)
        if stamina <= half:
            p.status = "pending"
            why[p.key] = f"failed quorum: Stamina {stamina} is not above {half}"


def _won_or_lost(state: BNomicState, voting: list[Proposal], powers: dict[str, Fraction], half: Fraction,
                 why: dict[int, str], ctx: Context) -> None:
    for p in _open(voting):
        strength = amounts.strength(p.votes, powers)
        won = strength > 0
        p.success = "won" if won else "lost"
        p.ever_won = p.ever_won or won
        if not won:
            why[p.key] = f"Strength {strength} is not positive"


def _dependency_culling(state: BNomicState, voting: list[Proposal], powers: dict[str, Fraction],
                        half: Fraction, why: dict[int, str], ctx: Context) -> None:
    """Ascending number, repeated while an Open proposal Depends on a Lost one and is not Lost."""
    changed = True
    while changed:
        changed = False
        for p in _open(voting):
            lost = next((n for n in p.dependencies if (d := state.proposal(n)) is not None
                         and d.success == "lost"), None)
            if p.success != "lost" and lost is not None:
                p.success, changed = "lost", True
                why[p.key] = f"culled: it depends on proposal {lost}, which is Lost"


def _conflict_culling(state: BNomicState, voting: list[Proposal], powers: dict[str, Fraction], half: Fraction,
                      why: dict[int, str], ctx: Context) -> None:
    """Descending Strength, then descending number: each Won at its turn makes Lost every Open
    proposal that Conflicts with it (Reading 22)."""
    turn = sorted(_open(voting), key=lambda p: (amounts.strength(p.votes, powers), order(p)), reverse=True)
    for p in turn:
        if p.success != "won":
            continue
        for q in _open(voting):
            if q is not p and q.success != "lost" and _conflict(p, q):
                q.success = "lost"
                why[q.key] = f"culled: it conflicts with proposal {p.number}, which is Won"


def _conflict(p: Proposal, q: Proposal) -> bool:
    return (q.number is not None and q.number in p.conflicts) or (p.number is not None and p.number in q.conflicts)


def _pass(state: BNomicState, voting: list[Proposal], powers: dict[str, Fraction], half: Fraction,
          why: dict[int, str], ctx: Context) -> None:
    for p in _open(voting):
        if p.success == "won":
            p.passed = True
            why[p.key] = "passed"
            with ctx.because(Cause("proposal", p.key)):
                apply_changes(state, p, ctx)


def _historical(state: BNomicState, voting: list[Proposal], powers: dict[str, Fraction], half: Fraction,
                why: dict[int, str], ctx: Context) -> None:
    for p in _open(voting):
        p.status = "historical"
        with ctx.because(Cause("proposal", p.key)):
            historical(state, p, powers, ctx)


def _open(voting: list[Proposal]) -> list[Proposal]:
    return [p for p in voting if p.status == "open"]


def apply_changes(state: BNomicState, p: Proposal, ctx: Context) -> None:
    """A Passed proposal's change lines, in order, each that can (2-2)."""
    for c in p.changes:
        try:
            result, ok = changes.apply(state, c, f"P{p.number}" if p.number is not None else f"key {p.key}", ctx), True
        except changes.Refused as refused:
            result, ok = f"skipped: {refused}", False
        ctx.emit(Changed(key=p.key, line=c.line, ok=ok, result=result))


def historical(state: BNomicState, p: Proposal, powers: dict[str, Fraction], ctx: Context) -> None:
    """``p`` has become Historical: its tally frozen, and 2-6's points (Reading 23)."""
    p.stamina = amounts.text(amounts.stamina(p.votes, powers))
    p.strength = amounts.text(amounts.strength(p.votes, powers))
    p.nweek = state.clock.nweek
    what = f"2-6: proposal {p.number if p.number is not None else f'(key {p.key})'}"
    for voter, vote in p.votes.items():
        player = state.player(voter)
        if player is not None and vote != "ABSTAIN":
            points.gain(state, player, 1, f"{what}: voted {vote}", ctx)
    author = state.player(p.author)
    if author is None:
        return
    fors = sum(1 for v, w in p.votes.items() if w == "FOR" and state.player(v) is not None)
    gained = fors * (p.passed + p.ever_won)
    if gained:
        points.gain(state, author, gained, f"{what}: {fors} FOR, {'Passed' if p.passed else 'Won'}", ctx)
    if not p.passed and not p.ever_won:
        points.gain(state, author, -3, f"{what}: Failed, never Won", ctx)


def _result(p: Proposal, why: str, powers: dict[str, Fraction]) -> dict[str, Any]:
    by_vote = {w: [v for v, x in p.votes.items() if x == w] for w in ("FOR", "AGAINST", "ABSTAIN")}
    result = "PASSED" if p.passed else "PENDING" if p.status == "pending" else "FAILED"
    return {"key": p.key, "number": p.number, "title": p.title, "author": p.author, "votes": by_vote,
            "stamina": p.stamina or amounts.text(amounts.stamina(p.votes, powers)),
            "strength": p.strength or amounts.text(amounts.strength(p.votes, powers)),
            "result": result, "why": why}


_STEP = {"quorum": _quorum, "won_or_lost": _won_or_lost, "dependency_culling": _dependency_culling,
         "conflict_culling": _conflict_culling, "pass": _pass, "historical": _historical}
