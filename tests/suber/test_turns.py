"""Rule 201: turn order by surname, joining, the turn and the circuit (203)."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.context import Context
from engine.suber import turns
from engine.suber.state import SuberPlayer
from tests.suber.support import ALICE, BOB, CAROL, DAN, Game, kinds, refused, vote_all

_word = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=8)


@given(st.lists(st.tuples(_word, _word), min_size=1, max_size=8, unique=True))
def test_players_sit_in_alphabetical_order_by_surname(names: list[tuple[str, str]]) -> None:
    entries = [f"{first} {last} <p{i}@suber.test>" for i, (first, last) in enumerate(names)]
    game = Game(entries)
    surnames = [p.name.split()[-1].casefold() for p in game.state.players]
    assert surnames == sorted(surnames)
    assert sorted(p.email for p in game.state.players) == sorted(f"p{i}@suber.test" for i in range(len(names)))
    assert game.state.turn == game.state.players[0].email


@given(st.integers(1, 7), st.integers(0, 30))
def test_the_turn_goes_round_and_each_wrap_completes_a_circuit(size: int, passes: int) -> None:
    game = Game([f"P{i} S{i:02d} <p{i}@suber.test>" for i in range(size)])
    for _ in range(passes):
        turns.pass_turn(game.state, game.state.started, _ctx(game))
    assert game.state.turn == f"p{passes % size}@suber.test"
    assert game.state.circuit == 1 + passes // size
    assert game.state.unanimity == (game.state.circuit <= 2)


def _ctx(game: Game) -> Context:
    return Context(config=game.config, at=game.state.started)


def test_players_given_as_one_string_are_one_player() -> None:
    """game.toml's ``players = "Alice Adams <alice@suber.test>"`` (no list) seats Alice, not 30 letters."""
    assert [(p.email, p.name) for p in Game("Alice Adams <alice@suber.test>").state.players] == [  # type: ignore[arg-type]
        (ALICE, "Alice Adams")]


def test_same_surname_falls_back_to_the_whole_name() -> None:
    players = [SuberPlayer(email="z@x", name="Bea Smith"), SuberPlayer(email="a@x", name="Abe Smith")]
    assert [p.name for p in sorted(players, key=turns.order_key)] == ["Abe Smith", "Bea Smith"]


def test_join_before_the_first_proposal_takes_a_seat_by_surname() -> None:
    game = Game(["Carol Clark <carol@suber.test>", "Bob Brown <bob@suber.test>"])
    assert game.state.turn == BOB
    assert kinds(game.send(ALICE, "Join", name="Alice Adams")) == ["joined", "subscription"]  # on the list too
    assert kinds(game.send(DAN, "Join", name="Dan Dunn")) == ["joined", "subscription"]
    assert [p["email"] for p in game.json()["players"]] == [ALICE, BOB, CAROL, DAN]
    assert game.state.turn == ALICE  # nobody has moved: the first in turn order is on turn
    game.send(ALICE, "Proposal: Hello", "Enact rule: Hello.")
    assert refused(game.send("eve@suber.test", "Join", name="Eve Early")) == [
        "players join only before the first proposal; the game is under way"]


def test_a_non_player_may_not_vote_or_invoke_judgment() -> None:
    game = Game()
    game.send(ALICE, "Proposal: Hello", "Enact rule: Hello.")
    assert refused(game.send(DAN, "Vote yes 301")) == [
        "only players may do that: send 'Join' before the first proposal to play; nothing done"]


def test_the_turn_stays_until_the_vote_completes() -> None:
    game = Game()
    game.send(ALICE, "Proposal: Hello", "Enact rule: Hello.")
    assert refused(game.send(ALICE, "Proposal: Again", "Enact rule: Hello again.")) == [
        "refused, no number given: this turn's proposal is 301, still in debate: one per turn (rule 202)"]
    game.send(ALICE, "Call vote")
    vote_all(game, 301, {ALICE: "Yes", BOB: "Yes"})
    assert game.state.turn == ALICE
    vote_all(game, 301, {CAROL: "Yes"})
    assert game.state.turn == BOB


def test_votes_before_the_call_complete_the_vote_when_it_is_called() -> None:
    game = Game()
    game.send(ALICE, "Proposal: Hello", "Enact rule: Hello.")
    vote_all(game, 301, {ALICE: "Yes", BOB: "Yes", CAROL: "Yes"})
    assert game.json()["proposals"][0]["status"] == "debate"
    assert refused(game.send(BOB, "Call vote 301")) == [f"only the proposer, {ALICE}, ends debate (rule 111)"]
    assert kinds(game.send(ALICE, "Re: Proposal: Hello", "Call vote", reply_to=301))[:2] == [
        "vote_called", "completed"]
    assert game.state.turn == BOB


def test_rule_203_amended_before_the_end_of_the_second_circuit_keeps_its_own_requirement() -> None:
    """Ruling: the automatic change is rule 203's own; amended (renumbered) or repealed, it no longer happens."""
    game = Game()
    game.send(ALICE, "Proposal: Keep", "Amend rule 203: A rule-change is adopted if and only if the vote is "
              "unanimous among the eligible voters.")
    game.send(ALICE, "Call vote")
    vote_all(game, 301, {ALICE: "Yes", BOB: "Yes", CAROL: "Yes"})
    for _ in range(6):
        turns.pass_turn(game.state, game.state.started, _ctx(game))
    assert (game.state.circuit, game.state.unanimity) == (3, True)
