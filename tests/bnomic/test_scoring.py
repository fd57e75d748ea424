"""The end of Voting's count (engine/bnomic/amounts.count) and 2-6's scoring, against the rules
read vote by vote: on any Players, Vote Powers, Factions and votes, each proposal's Stamina and
Strength are the sums of its FOR and AGAINST voters' Vote Powers, each Player gains 1 point per
FOR or AGAINST vote on the proposals that ended, in the order of his first such vote, and each
``score`` event is the one ``Score`` model the ledger entry mirrors."""
from __future__ import annotations

from datetime import timedelta
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import machine
from engine.bnomic import voting
from engine.bnomic.events import Score
from engine.bnomic.state import BNomicState, BPlayer, Faction, Proposal
from engine.context import Context
from engine.events import Cause, Event
from tests.bnomic.support import RULES_TEXT, START, config

POWERS = ["1", "0", "2", "3/2", "1/3"]
WORDS = ["FOR", "AGAINST", "ABSTAIN"]
VOTED = "2-6: voted FOR or AGAINST on "


@st.composite
def games(draw: st.DrawFn) -> BNomicState:
    """Up to 8 Players (Active or not, one Vote Power for all or each his own), up to 2 Factions,
    up to 8 Open proposals voted on by Players, Factions and a voter who is no Player."""
    state = machine.new_game(config([]), RULES_TEXT)
    assert isinstance(state, BNomicState)
    n = draw(st.integers(1, 8))
    common = draw(st.one_of(st.none(), st.sampled_from(POWERS)))
    state.players = [BPlayer(email=f"p{i}@b.test", name=f"P{i}", active=draw(st.booleans()),
                             vote_power=common or draw(st.sampled_from(POWERS)), score=draw(st.integers(0, 3)))
                     for i in range(n)]
    state.factions = [Faction(name=f"F{i}", agent="p0@b.test", parties=["p0@b.test"], agreement="x",
                              vote_power=draw(st.sampled_from(POWERS))) for i in range(draw(st.integers(0, 2)))]
    voters = [p.email for p in state.players] + [f.voter for f in state.factions] + ["gone@b.test"]
    for key in range(1, draw(st.integers(1, 8)) + 1):
        ballot = draw(st.lists(st.tuples(st.sampled_from(voters), st.sampled_from(WORDS)), max_size=12))
        state.proposals.append(Proposal(key=key, number=key, author=draw(st.sampled_from(voters)), title="T",
                                        body="Prose.", status="open", votes=dict(ballot)))  # type: ignore[arg-type]
    state.highest_number = len(state.proposals)
    return state


def power(state: BNomicState, voter: str) -> Fraction:
    """A voter's Vote Power: a Player's, a Faction's (5-3), none for anyone else."""
    powers = state.vote_powers()
    written = powers.of.get(voter, powers.factions.get(voter))
    return Fraction(written) if written is not None else Fraction(0)


def tallied(state: BNomicState, p: Proposal) -> tuple[str, str]:
    """Stamina and Strength, vote by vote."""
    for_, against = (sum((power(state, v) for v, w in p.votes.items() if w == word), Fraction(0))
                     for word in ("FOR", "AGAINST"))
    return str(for_ + against), str(for_ - against)


def voted(state: BNomicState, ended: list[Proposal]) -> list[tuple[str, int]]:
    """Each Player's FOR and AGAINST votes on ``ended``, in the order of his first one."""
    players, cast = {p.email for p in state.players}, dict[str, int]()
    for p in ended:
        for v, w in p.votes.items():
            if w != "ABSTAIN" and v in players:
                cast[v] = cast.get(v, 0) + 1
    return list(cast.items())


def mirrored(state: BNomicState, first: int, cause: Cause | None) -> list[Event]:
    """The ``score`` events the ledger's entries from ``first`` on make through ``Score``."""
    return [Event.of(Score(player=e.player, delta=e.delta, score=e.score, cause=e.cause), cause)
            for e in state.ledger[first:]]


@settings(max_examples=300, deadline=None)
@given(games(), st.booleans())
def test_the_count_and_the_points_are_the_rules_read_vote_by_vote(state: BNomicState, caused: bool) -> None:
    before = {p.key: dict(p.votes) for p in state.proposals}
    tallies = {p.key: tallied(state, p) for p in state.proposals}
    cause = Cause("midnight", 12) if caused else None
    ctx = Context(config=config([]), at=START + timedelta(days=12), cause=cause)
    voting.end(state, ctx)
    [ended_event] = [e for e in ctx.events if e.kind == "voting_ended"]
    results: list[dict[str, Any]] = ended_event.data["results"]
    assert {r["key"]: (r["stamina"], r["strength"]) for r in results} == tallies
    ended = [p for p in state.proposals if p.status == "historical"]
    assert [(p.stamina, p.strength) for p in ended] == [tallies[p.key] for p in ended]
    assert [(e.player, e.delta) for e in state.ledger if e.cause.startswith(VOTED)] == voted(state, ended)
    assert [e for e in ctx.events if e.kind == "score"] == mirrored(state, 0, cause)
    assert {p.key: p.votes for p in state.proposals} == before


def test_a_player_voting_on_some_proposals_that_end_and_one_that_fails_quorum():
    """Only the proposals that end are scored; the voters come in the order of their first FOR or
    AGAINST vote on them (the Abstention on proposal 1 does not place Carol first); a penalty
    takes what the Author had at his proposal's turn."""
    state = machine.new_game(config([]), RULES_TEXT)
    assert isinstance(state, BNomicState)
    state.players = [BPlayer(email=f"{n}@b.test", name=n, active=True, vote_power="1")
                     for n in ("alice", "bob", "carol")]
    state.proposals = [
        Proposal(key=1, number=1, author="alice@b.test", title="T", body="B", status="open",
                 votes={"carol@b.test": "ABSTAIN", "bob@b.test": "FOR", "alice@b.test": "AGAINST"}),
        Proposal(key=2, number=2, author="alice@b.test", title="T", body="B", status="open",
                 votes={"carol@b.test": "FOR"}),  # Stamina 1, not above 3/2: back to Pending
        Proposal(key=3, number=3, author="bob@b.test", title="T", body="B", status="open",
                 votes={"carol@b.test": "AGAINST", "bob@b.test": "AGAINST", "alice@b.test": "FOR"})]
    state.highest_number = 3
    ctx = Context(config=config([]), at=START + timedelta(days=12))
    voting.end(state, ctx)
    assert [p.status for p in state.proposals] == ["historical", "pending", "historical"]
    assert [(e.player, e.delta, e.score, e.cause) for e in state.ledger] == [
        ("bob@b.test", 2, 2, "2-6: voted FOR or AGAINST on 2 proposals"),
        ("alice@b.test", 2, 2, "2-6: voted FOR or AGAINST on 2 proposals"),
        ("carol@b.test", 1, 1, "2-6: voted FOR or AGAINST on 1 proposal"),
        ("alice@b.test", -1, 1, "2-6: proposal 1: Failed, never Won"),  # 1 point when it was scored
        ("bob@b.test", -2, 0, "2-6: proposal 3: Failed, never Won")]
    assert [e for e in ctx.events if e.kind == "score"] == mirrored(state, 0, None)
