"""Rule 305's Call for Action, where game.toml's [suber] call_for_action = true."""
from __future__ import annotations

from datetime import timedelta

from engine import machine
from engine.inputs import ClockStep
from tests.suber.support import ALICE, BOB, CAROL, START, Game, kinds, refused

WEEK, TWO_DAYS = timedelta(weeks=1), timedelta(days=2)


def test_not_played_unless_the_game_says_so() -> None:
    game = Game()
    assert refused(game.send(BOB, "Call for action", at=START + 2 * WEEK)) == [
        "this game does not play rule 305 (a later rule, not in the Initial Set)"]
    assert machine.next_due(game.state, game.config) is None


def test_a_week_idle_a_call_two_days_a_majority_skips_and_costs_10() -> None:
    game = Game(call_for_action=True)
    assert refused(game.send(BOB, "Call for action", at=START + WEEK - timedelta(minutes=1))) == [
        "not before one week has passed since the turn began: from 2026-01-12 00:00 UTC (rule 305)"]
    assert refused(game.send(ALICE, "Call for action", at=START + WEEK)) == [
        "only the other players may issue a Call for Action (rule 305)"]
    called = START + WEEK + timedelta(hours=1)
    assert kinds(game.send(BOB, "Call for action", at=called)) == ["call_for_action"]
    assert machine.next_due(game.state, game.config) == called + TWO_DAYS
    assert refused(game.send(CAROL, "Skip yes", at=called + timedelta(days=1))) == [
        "the vote takes place two days after the Call: from 2026-01-14 01:00 UTC (rule 305)"]
    step = ClockStep(at=called + TWO_DAYS)
    assert kinds(machine.apply(game.state, step, game.config)) == ["skip_vote_open"]
    assert machine.next_due(game.state, game.config) is None
    assert refused(game.send(ALICE, "Skip no", at=called + TWO_DAYS)) == [
        "each of the other players votes once on the skip (rule 305)"]
    game.send(BOB, "Skip yes", at=called + TWO_DAYS)
    events = game.send(CAROL, "Skip yes", at=called + TWO_DAYS)
    assert kinds(events) == ["skipped", "score", "turn"]
    assert (game.state.turn, game.scores()[ALICE], game.state.ledger[0].rule) == (BOB, -10, 305)
    assert game.json()["proposals"] == []  # a skip takes no number


def test_a_proposal_or_a_majority_against_ends_the_call() -> None:
    game = Game(call_for_action=True)
    called = START + WEEK
    game.send(BOB, "Call for action", at=called)
    events = game.send(ALICE, "Proposal: At last", "Enact rule: Hello.", at=called + timedelta(hours=1))
    assert kinds(events) == ["proposed", "call_lapsed"]
    game2 = Game(call_for_action=True)
    game2.send(CAROL, "Call for action", at=called)
    assert kinds(game2.send(BOB, "Skip no", at=called + TWO_DAYS)) == ["call_lapsed"]  # 1 of 2: no majority left
    assert game2.state.turn == ALICE and game2.state.call_for_action is None
