"""Rule 212: invoking Judgment; the Judge is the player preceding the one moving."""
from __future__ import annotations

from engine.events import Event
from tests.suber.support import ALICE, BOB, CAROL, DAN, Game, kinds, refused, vote_all


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
    assert refused(game.send(BOB, "Judgment: Yes he may")) == ["you are not the Judge of any open question (rule 212)"]
    events = game.send(ALICE, "Re: Invoke judgment: May Bob propose twice?", "Judgment: No, one per turn (202).")
    assert kinds(events) == ["judgment"]
    judgment = game.state.judgments[0]
    assert (judgment.judge, judgment.answer) == (ALICE, "No, one per turn (202).")
    assert refused(game.send(ALICE, "Judgment 1: Changed my mind")) == [
        "you are not the Judge of any open question numbered 1 (rule 212)"]


def test_on_the_first_turn_the_last_player_judges() -> None:
    game = Game()
    events = game.send(BOB, "Invoke judgment: Is this legal?")
    assert events[0].data["judge"] == CAROL


def test_a_unanimous_vote_of_the_others_overrules_and_the_player_before_judges() -> None:
    game = Game(["Alice Adams <alice@suber.test>", "Bob Brown <bob@suber.test>", "Carol Clark <carol@suber.test>",
                 "Dan Dunn <dan@suber.test>"])
    game.send(CAROL, "Invoke judgment: Q?")  # Alice on turn: Dan judges
    game.send(DAN, "Judgment: Yes.")
    assert refused(game.send(DAN, "Overrule 1")) == ["the Judge does not vote on overruling their own Judgment (rule 212)"]
    game.send(ALICE, "Overrule 1")
    game.send(BOB, "Overrule judgment 1")
    assert refused(game.send(BOB, "Overrule 1")) == ["you have already voted to overrule Judgment 1"]
    events = game.send(CAROL, "Overrule")
    assert kinds(events) == ["overruled"]
    assert _overruled(events) == {"number": 1, "judge": CAROL, "previous": DAN}
    j = game.state.judgments[0]
    assert (j.judge, j.answer, j.overruled) == (CAROL, None, [DAN])
    assert kinds(game.send(CAROL, "Judgment: No.")) == ["judgment"]


def test_the_player_on_turn_is_never_judge_after_an_overrule() -> None:
    game = Game()  # Alice on turn, Carol judges; the player before Carol is Bob
    game.send(BOB, "Invoke judgment: Q?")
    game.send(CAROL, "Judgment: Yes.")
    game.send(ALICE, "Overrule 1")
    events = game.send(BOB, "Overrule 1")
    assert _overruled(events)["judge"] == BOB  # Bob precedes Carol; Alice (on turn) never judges
    game.send(BOB, "Judgment: Maybe.")
    game.send(ALICE, "Overrule 1")
    events = game.send(CAROL, "Overrule 1")
    assert _overruled(events)["judge"] == CAROL  # before Bob is Alice, on turn: skipped


def test_after_judgment_the_next_turn_needs_a_majority_of_the_others_and_overruling_stops() -> None:
    game = Game()
    game.send(ALICE, "Proposal: Hello", "Enact rule: Hello.")
    game.send(BOB, "Invoke judgment: Is Hello clear?")
    game.send(CAROL, "Judgment: Clear enough.")
    game.send(ALICE, "Call vote")
    vote_all(game, 301, {ALICE: "Yes", BOB: "Yes", CAROL: "Yes"})
    assert game.state.turn == BOB
    assert refused(game.send(ALICE, "Overrule 1")) == ["Judgment 1 stands: the next turn has begun (rule 212)"]
    assert refused(game.send(BOB, "Proposal: Go", "Enact rule: Go.")) == [
        f"refused, no number given: Judgment was invoked last turn: {BOB} begins only with the consent of a "
        "majority of the other players (rule 212; 'Consent': 0 of 2 so far)"]
    assert refused(game.send(BOB, "Consent")) == ["only each of the other players consents, once (rule 212)"]
    game.send(ALICE, "Consent")
    assert refused(game.send(BOB, "Proposal: Go", "Enact rule: Go."))  # 1 of 2 is no majority
    assert kinds(game.send(CAROL, "Consent")) == ["consent"]
    assert kinds(game.send(BOB, "Proposal: Go", "Enact rule: Go.")) == ["proposed"]


def _overruled(events: list[Event]) -> dict:
    return next(e.data for e in events if e.kind == "overruled")


def test_a_judgment_that_rule_213_applies_makes_the_player_on_turn_the_winner() -> None:
    """docs/rulings-suber.md, rule 213: the Judge finds that play cannot continue; the player on turn,
    the first unable to complete a turn, wins at once, and the game ends."""
    game = Game()
    game.send(ALICE, "Proposal: Hello", "Enact rule: Hello.")
    game.send(ALICE, "Call vote")
    vote_all(game, 301, {ALICE: "Yes", BOB: "Yes", CAROL: "Yes"})
    game.send(CAROL, "Invoke judgment: Can Bob move at all?")  # Bob on turn: Alice judges
    events = game.send(ALICE, "Judgment: Rule 213: no legal proposal is left to Bob (rules 114 and 209).")
    assert kinds(events) == ["judgment", "winner"]
    assert [e.data for e in events if e.kind == "winner"] == [{"player": BOB, "score": game.scores()[BOB],
                                                               "rule": 213}]
    assert game.json()["winner"] == BOB
    assert refused(game.send(BOB, "Proposal: More", "Enact rule: More.")) == [
        f"the game has ended: {BOB} won (rules 208 and 213); nothing done"]


def test_any_other_judgment_leaves_the_game_going() -> None:
    game = Game()
    game.send(BOB, "Invoke judgment: Is rule 213 in force?")
    assert kinds(game.send(CAROL, "Judgment: Yes, rule 213 is in force.")) == ["judgment"]
    assert game.json()["winner"] is None


def test_by_default_a_judge_may_end_the_game_on_turn_one() -> None:
    """The literal reading of rule 213 (rule_213_from_circuit = 1): nothing waits for a first circuit."""
    game = Game()
    game.send(BOB, "Invoke judgment: Can Alice move?")  # Alice on turn 1: Carol, the last, judges
    assert kinds(game.send(CAROL, "Judgment: Rule 213: Alice cannot move.")) == ["judgment", "winner"]
    assert game.json()["winner"] == ALICE


def test_a_game_may_let_a_rule_213_finding_end_it_only_from_a_later_circuit() -> None:
    game = Game(rule_213_from_circuit=2)
    game.send(BOB, "Invoke judgment: Can Alice move?")
    events = game.send(CAROL, "Judgment: Rule 213: Alice cannot move.")
    assert kinds(events) == ["judgment"] and game.json()["winner"] is None
    assert [e.data["result"] for e in events if e.kind == "outcome"] == [
        "Judgment 1 given and published",
        "rule 213: this game lets a Judgment end it only from circuit 2 (now 1); Judgment 1 is recorded and "
        "published, and the game goes on"]
    for number, proposer in ((301, ALICE), (302, BOB), (303, CAROL)):  # circuit 1 ends: Alice on turn again
        game.send(proposer, "Proposal: Turn", "Enact rule: A turn.")
        game.send(proposer, f"Call vote {number}")
        vote_all(game, number, {ALICE: "Yes", BOB: "Yes", CAROL: "Yes"})
        if number == 301:  # Judgment was invoked on turn 1: Bob begins with the others' consent (212)
            game.send(ALICE, "Consent")
            game.send(CAROL, "Consent")
    assert (game.json()["circuit"], game.json()["turn"]) == (2, ALICE)
    game.send(BOB, "Invoke judgment: Can Alice move now?")
    assert kinds(game.send(CAROL, "Judgment: Rule 213: Alice still cannot move.")) == ["judgment", "winner"]
    assert game.json()["winner"] == ALICE
