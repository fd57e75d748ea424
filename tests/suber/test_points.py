"""Rules 202, 204, 206 and 208: the points formula, its rounding, and victory."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from engine.suber import points
from tests.suber.support import ALICE, BOB, CAROL, DAN, Game, kinds, refused, vote_all

FOUR = ["Alice Adams <alice@suber.test>", "Bob Brown <bob@suber.test>", "Carol Clark <carol@suber.test>",
        "Dan Dunn <dan@suber.test>"]


def half_up(x: Fraction) -> int:
    """The nearest integer, a half rounded up."""
    whole = x.numerator // x.denominator
    return whole + (1 if x - whole >= Fraction(1, 2) else 0)


@given(number=st.integers(301, 5000), cast=st.integers(1, 60), data=st.data())
def test_formula_is_rule_202_rounded_half_up(number: int, cast: int, data: st.DataObject) -> None:
    favourable = data.draw(st.integers(0, cast))
    got = points.formula(number, favourable, cast)
    assert got == half_up(Fraction((number - 291) * favourable, cast))
    assert 0 <= got <= number - 291  # "a number between 0 and 10 for the first player, ..."
    if favourable == cast:
        assert got == number - 291


def test_a_half_rounds_up() -> None:
    assert points.formula(301, 1, 4) == 3  # 2.5
    assert points.formula(303, 1, 8) == 2  # 1.5
    assert round(2.5) == 2  # Python rounds halves to even: not what rule 202 says


def test_the_proposers_own_vote_counts_among_the_favourable() -> None:
    """Ruling: the proposer votes like everyone else and their vote is in the fraction.
    Four players, only the proposer in favour: (301 - 291) x 1/4 = 2.5 -> 3, less 10 for the defeat."""
    game = Game(FOUR)
    game.send(ALICE, "Proposal: Lonely", "Enact rule: Alice is right.")
    game.send(ALICE, "Re: Proposal: Lonely", "Call vote", reply_to=301)
    vote_all(game, 301, {ALICE: "Yes", BOB: "No", CAROL: "No", DAN: "No"})
    assert game.json()["proposals"][0]["points"] == 3
    assert game.scores() == {ALICE: -7, BOB: 0, CAROL: 0, DAN: 0}
    assert [(e.player, e.delta, e.rule) for e in game.state.ledger] == [(ALICE, -10, 206), (ALICE, 3, 202)]


def test_reaching_200_points_wins_and_ends_the_game() -> None:
    game = Game()
    game.state.players[0].score = 195  # Alice, as if after a long game
    game.send(ALICE, "Proposal: Win", "Enact rule: Alice wins.")
    game.send(ALICE, "Re: Proposal: Win", "Call vote", reply_to=301)
    events = vote_all(game, 301, {ALICE: "Yes", BOB: "Yes", CAROL: "Yes"})
    assert kinds(events)[-3:] == ["rules_changed", "score", "winner"]  # no turn passes
    view = game.json()
    assert (view["winner"], view["turn"], view["players"][0]["score"]) == (ALICE, ALICE, 205)
    assert refused(game.send(BOB, "Proposal: More", "Enact rule: More.")) == [
        f"the game has ended: {ALICE} won (rules 208 and 213); nothing done"]
    assert len(game.state.proposals) == 1


def test_no_points_for_voting_against_while_unanimity_applies() -> None:
    """Rule 204 only once rule-changes can be adopted without unanimity; under unanimity a No defeats."""
    game = Game()
    game.send(ALICE, "Proposal: Hello", "Enact rule: Hello.")
    game.send(ALICE, "Call vote 301")
    vote_all(game, 301, {ALICE: "Yes", BOB: "Yes", CAROL: "No"})
    assert game.json()["proposals"][0]["status"] == "defeated"
    assert game.scores() == {ALICE: -10 + 7, BOB: 0, CAROL: 0}
