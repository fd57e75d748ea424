"""Rule 212: invoking Judgment; the Judge is the player preceding the one moving."""
from __future__ import annotations

from tests.suber.support import ALICE, BOB, CAROL, Game, kinds, refused, vote_all


def test_the_judge_is_the_player_before_the_one_on_turn() -> None:
    game = Game()
    game.send(ALICE, "Proposal: Hello", "Enact rule: Hello.")
    game.send(ALICE, "Call vote")
    vote_all(game, 301, {ALICE: "Yes", BOB: "Yes", CAROL: "Yes"})
    assert game.state.turn == BOB
    events = game.send(CAROL, "Invoke judgment: May Bob propose twice?", "He asked.")
    assert kinds(events) == ["judgment_invoked"]
    assert events[0].data == {"number": 1, "question": "May Bob propose twice?", "by": CAROL, "judge": ALICE,
                              "mover": BOB}
    assert refused(game.send(BOB, "Judgment: Yes he may")) == ["you are not the Judge of any open question"]
    events = game.send(ALICE, "Re: Invoke judgment: May Bob propose twice?", "Judgment: No, one per turn (202).")
    assert kinds(events) == ["judgment"]
    judgment = game.state.judgments[0]
    assert (judgment.judge, judgment.answer) == (ALICE, "No, one per turn (202).")
    assert refused(game.send(ALICE, "Judgment 1: Changed my mind")) == [
        "you are not the Judge of any open question numbered 1"]


def test_on_the_first_turn_the_last_player_judges() -> None:
    game = Game()
    events = game.send(BOB, "Invoke judgment: Is this legal?")
    assert events[0].data["judge"] == CAROL
