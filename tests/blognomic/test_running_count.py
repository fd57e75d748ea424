"""The running count (engine/blognomic/votes.Board) against a count from scratch.

Each matter's count is moved by each new ballot and redone only when the electorate changes, so
a random game of votes, idling, leaving, joining and changes of the Seraphims must leave every
pending matter's tally exactly as a count from its ballots alone, with the electorate read
afresh off the players and the dynasty (not off the state's derived electorate).
"""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.blognomic import dynasty
from engine.blognomic.state import BlogState, VotableMatter
from engine.blognomic.votes import Count, count, count_matter
from engine.context import Context
from tests.blognomic.support import ADMIN, ALICE, BOB, CAROL, DAVE, ERIN, Game, at, email, new_game

FRANK, GINA = email("frank"), email("gina")
PEOPLE = [ADMIN, ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GINA]
NAMES = {who: who.split("@")[0].capitalize() for who in PEOPLE}
SERAPHIMS = (ALICE, BOB, CAROL)  # dynasty 1's, Pactmakers from the start

who = st.sampled_from(PEOPLE)
voter = st.sampled_from([DAVE, BOB, ERIN, CAROL, ALICE, FRANK, ADMIN, GINA])  # Hypothesis favours the first
vote = st.tuples(st.just("vote"), voter, st.sampled_from(["DEFERENTIAL", "FOR", "AGAINST", "VETO"]), st.integers(1, 4))
change = st.one_of(
    st.tuples(st.sampled_from(["Idle", "Unidle", "Leave", "Join", "Step down"]), who),
    st.tuples(st.just("admin"), st.sampled_from(["Idle", "Unidle"]), who),
    st.tuples(st.just("pass"), who, who),
    st.tuples(st.just("dynasty"), who, st.lists(who, max_size=3, unique=True)),
)
steps = st.lists(st.tuples(st.integers(1, 50), st.integers(0, 9).flatmap(lambda k: vote if k < 7 else change)), min_size=10, max_size=60)


def game_of(edition: str) -> Game:
    """Four matters, each kind, by Alice, Bob, Carol and Dave; nothing resolves by itself."""
    game = new_game((ADMIN, DAVE, ERIN), edition=edition, seraphims=SERAPHIMS, auto=False)
    game.mail(ALICE, "Proposal: One")
    game.mail(BOB, "Proposal: Two")
    game.mail(CAROL, "Call for Judgement: Three")
    game.mail(DAVE, "Declaration of Victory: Four")
    return game


def act(game: Game, hours: int, step: tuple[Any, ...]) -> None:
    kind = step[0]
    if kind == "vote":
        game.mail(step[1], "v", f"{step[2]} {step[3]}", hours=hours)
    elif kind == "admin":
        game.mail(ADMIN, "x", f"{step[1]} {NAMES[step[2]]}", hours=hours)
    elif kind == "pass":
        game.mail(step[1], "x", f"Pass victory to {NAMES[step[2]]}", hours=hours)
    elif kind == "dynasty":  # as an enacted DoV of step[1] with co-Victors step[2] begins one
        dov = VotableMatter(number=99, kind="dov", author=step[1], title="Won", opened_at=at(hours),
                            co_victors=[c for c in step[2] if c != step[1]])
        dynasty.begin(game.state, dov, at(hours), Context(config=game.config, at=at(hours)))
    else:
        game.mail(step[1], kind, hours=hours)


def afresh(state: BlogState, m: VotableMatter) -> Count:
    electorate = [p.email for p in state.players if not p.idle]
    seraphims = [s for s in state.dynasty.seraphims if s in electorate]
    return count(m.ballots, m.author, electorate, seraphims, state.edition != "109" or m.kind == "proposal")


def seen(c: Count) -> tuple[Any, ...]:
    """Everything a Count says, the icons in the electorate's order (as a frozen tally keeps them)."""
    return (c.electorate, c.for_, c.against, c.deferential, c.resolved, c.resolved_to, c.seraphims,
            c.seraphims_for, list(c.frozen([]).votes.items()))


@pytest.mark.slow  # 200 hypothesis games
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["149", "109"]), steps)
def test_the_running_count_is_always_the_count_from_scratch(edition, plan):
    game = game_of(edition)
    hours = 0
    for gap, step in plan:
        hours += gap
        act(game, hours, step)
        for m in game.state.pending():
            assert seen(count_matter(game.state, m)) == seen(afresh(game.state, m)), (m.number, step)
        assert game.state.quorum() == len([p for p in game.state.players if not p.idle]) // 2 + 1
    reloaded = BlogState.model_validate_json(game.state.model_dump_json())
    assert reloaded.public_json() == game.state.public_json()


def test_a_change_of_seraphims_moves_the_deferential_votes_at_once():
    """The Seraphims' quorum changes with who heads the dynasty, not only with their ballots."""
    game = game_of("149")
    game.mail(DAVE, "v", "DEFERENTIAL 1", hours=1)
    game.mail(ERIN, "v", "DEFERENTIAL 1", hours=1)
    game.mail(BOB, "v", "AGAINST 1", hours=1)
    game.mail(CAROL, "v", "AGAINST 1", hours=1)
    m = game.state.matters[0]
    assert seen(count_matter(game.state, m)) == (6, 1, 4, 0, 2, "AGAINST", 3, 1, [
        (ALICE, "FOR"), (BOB, "AGAINST"), (CAROL, "AGAINST"), (DAVE, "DEFERENTIAL"), (ERIN, "DEFERENTIAL")])
    act(game, 2, ("dynasty", ALICE, []))  # Alice alone heads dynasty 2: her implicit FOR is their quorum
    assert seen(count_matter(game.state, m)) == (6, 3, 2, 0, 2, "FOR", 1, 1, [
        (ALICE, "FOR"), (BOB, "AGAINST"), (CAROL, "AGAINST"), (DAVE, "DEFERENTIAL"), (ERIN, "DEFERENTIAL")])
    game.mail(ALICE, "Idle", hours=3)  # no Seraphim counts: the DEFERENTIALs follow no one
    assert seen(count_matter(game.state, m)) == (5, 0, 2, 2, 0, None, 0, 0, [
        (BOB, "AGAINST"), (CAROL, "AGAINST"), (DAVE, "DEFERENTIAL"), (ERIN, "DEFERENTIAL")])


def test_a_deferential_after_a_vote_follows_the_seraphims_once_they_have_their_quorum():
    """docs/rulings-blognomic.md, "FOR then DEFERENTIAL", on the running count: Bob's FOR gives
    the Seraphims their quorum (with Alice's implicit FOR), and Dave's DEFERENTIAL turns with it."""
    game = game_of("149")
    game.mail(DAVE, "v", "AGAINST 1", hours=1)
    game.mail(DAVE, "v", "DEFERENTIAL 1", hours=2)
    m = game.state.matters[0]
    assert seen(count_matter(game.state, m)) == (6, 1, 1, 0, 0, None, 3, 1, [(ALICE, "FOR"), (DAVE, "AGAINST")])
    game.mail(BOB, "v", "FOR 1", hours=3)
    assert seen(count_matter(game.state, m)) == (6, 3, 0, 0, 1, "FOR", 3, 2, [
        (ALICE, "FOR"), (BOB, "FOR"), (DAVE, "DEFERENTIAL")])
    game.mail(BOB, "v", "AGAINST 1", hours=4)  # the quorum is gone: Dave's AGAINST is his Vote again
    assert seen(count_matter(game.state, m)) == (6, 1, 2, 0, 0, None, 3, 1, [
        (ALICE, "FOR"), (BOB, "AGAINST"), (DAVE, "AGAINST")])
