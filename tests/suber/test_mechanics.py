"""Rules that change by proposal (issue 28): a ``Set`` line beside an amendment changes a rule's
parameter from the completion of the vote on; a repealed rule runs nothing (engine/suber/mechanics.py)."""
from __future__ import annotations

import re
import sys
from datetime import timedelta

import pytest

from engine.context import Context
from engine.suber import changes, points, turns
from engine.suber.mechanics import DECLARED
from engine.suber.state import Change
from tests.suber.support import ALICE, BOB, CAROL, START, Game, kinds, refused, vote_all

MAJORITY = "A rule-change is adopted if a simple majority of the votes cast favour it."
ALL_YES = {ALICE: "Yes", BOB: "Yes", CAROL: "Yes"}


def adopt(game: Game, author: str, body: str) -> None:
    """``author`` (on turn) proposes ``body`` and everyone votes for it."""
    number = 301 + len(game.state.proposals)
    assert kinds(game.send(author, "Proposal: Change", body)) == ["proposed"]
    game.send(author, "Call vote", reply_to=number)
    vote_all(game, number, ALL_YES)
    assert game.state.proposals[-1].status == "adopted"


def ctx(game: Game) -> Context:
    return Context(config=game.config, at=game.state.started)


def test_amending_203_to_majority_adopts_a_two_to_one_vote_with_the_dissenters_ten() -> None:
    game = Game()
    adopt(game, ALICE, f"Amend rule 203: {MAJORITY}\nSet adoption = majority")  # (301-291) x 3/3 = 10
    assert game.json()["parameters"]["adoption"] == "majority" and game.json()["unanimity"] is False
    assert kinds(game.send(BOB, "Proposal: Hello", "Enact rule: Players may say hello.")) == ["proposed"]
    game.send(BOB, "Call vote", reply_to=302)
    events = vote_all(game, 302, {BOB: "Yes", CAROL: "Yes", ALICE: "No"})
    assert [(e.data["player"], e.data["delta"], e.data["rule"]) for e in events if e.kind == "score"] == [
        (ALICE, 10, 204), (BOB, 7, 202)]  # round(11 x 2/3) = 7
    assert game.state.proposals[-1].status == "adopted"
    assert game.scores() == {ALICE: 20, BOB: 7, CAROL: 0}


@pytest.mark.parametrize(("body", "why"), [
    ("Amend rule 203: Majority.\nSet adoption = most", "adoption is unanimity or majority (rule 203: the vote "
     "is unanimous among the eligible voters ... a simple majority); expected 'Set adoption = unanimity | majority'"),
    ("Amend rule 206: Lose 5.\nSet defeat_penalty = -5", "defeat_penalty = -5 is out of bounds (rule 206: the "
     "player who proposed it loses 10 points); expected 'Set defeat_penalty = N' (N a whole number at least 0 "
     "and at most 1000000)"),
    ("Amend rule 206: Lose 5.\nSet prize = 5", "there is no parameter 'prize' (known: points_offset, adoption, "
     "dissent_bonus, defeat_penalty, win_score, mutable_rule_limit); expected 'Set NAME = VALUE'"),
    ("Set defeat_penalty = 5", "'Set defeat_penalty = 5' changes rule 206's text ('the player who proposed it "
     "loses 10 points'): the proposal must also amend it ('Amend rule 206: TEXT')"),
])
def test_a_set_line_is_refused_on_arrival_with_the_form_expected(body: str, why: str) -> None:
    game = Game()
    assert refused(game.send(ALICE, "Proposal: Set", body)) == [f"refused, no number given: {why}"]
    assert game.state.proposals == []


def test_every_mechanic_has_a_repeal_test() -> None:
    here = {int(m[1]) for name in dir(sys.modules[__name__]) if (m := re.match(r"test_repealing_rule_(\d+)_", name))}
    assert here == {int(m.rule) for m in DECLARED.mechanics}


def test_repealing_rule_202_gives_no_points_from_that_completion_on() -> None:
    game = Game()
    adopt(game, ALICE, "Repeal rule 202")  # 205: in effect at the completion, before the points
    assert game.scores() == {ALICE: 0, BOB: 0, CAROL: 0}
    assert game.json()["proposals"][0]["points"] == 0
    assert [r["mechanics"] for r in game.json()["rules"] if r["number"] == 202] == [[]]


def test_repealing_rule_203_keeps_unanimity_after_the_second_circuit() -> None:
    game = Game()
    adopt(game, ALICE, "Repeal rule 203")
    for _ in range(6):
        turns.pass_turn(game.state, game.state.started, ctx(game))
    assert (game.state.circuit, game.json()["parameters"]["adoption"]) == (3, "unanimity")


def test_repealing_rule_204_gives_a_dissenter_nothing() -> None:
    game = Game()
    adopt(game, ALICE, f"Amend rule 203: {MAJORITY}\nSet adoption = majority\nRepeal rule 204")
    game.send(BOB, "Proposal: Hello", "Enact rule: Players may say hello.")
    game.send(BOB, "Call vote", reply_to=302)
    events = vote_all(game, 302, {BOB: "Yes", CAROL: "Yes", ALICE: "No"})
    assert [(e.data["player"], e.data["delta"], e.data["rule"]) for e in events if e.kind == "score"] == [
        (BOB, 7, 202)]
    assert game.scores() == {ALICE: 10, BOB: 7, CAROL: 0}


def test_repealing_rule_206_costs_a_defeated_proposer_nothing_and_cites_no_206() -> None:
    game = Game()
    adopt(game, ALICE, "Repeal rule 206")
    game.send(BOB, "Proposal: Hello", "Enact rule: Players may say hello.")
    game.send(BOB, "Call vote", reply_to=302)
    events = vote_all(game, 302, {BOB: "Yes", CAROL: "No", ALICE: "Yes"})
    assert [(e.data["player"], e.data["delta"], e.data["rule"]) for e in events if e.kind == "score"] == [
        (BOB, 7, 202)]
    assert game.state.proposals[-1].status == "defeated"
    assert game.scores() == {ALICE: 10, BOB: 7, CAROL: 0}
    assert all(entry.rule != 206 for entry in game.state.ledger)


def test_repealing_rule_208_ends_no_game_at_200() -> None:
    game, control = Game(), Game()
    adopt(game, ALICE, "Repeal rule 208")
    for g in (game, control):
        points.award(g.state, BOB, 250, "test", ctx(g), rule=202)
    assert (control.state.winner, game.state.winner) == (BOB, None)


def test_repealing_rule_209_lifts_the_limit_on_mutable_rules() -> None:
    game, control = Game(), Game()
    adopt(game, ALICE, "Repeal rule 209")  # 12 mutable rules left; 14 more make 26
    fourteen = [Change(kind="enact", text=f"Rule {i}.") for i in range(14)]
    with pytest.raises(changes.Refused, match=r"it would make 27 mutable rules; at most 25 \(rule 209\)"):
        changes.check(control.state, fourteen)
    changes.check(game.state, fourteen)


def test_the_answer_and_the_announcement_preview_what_adoption_would_do() -> None:
    game = Game()
    events = game.send(ALICE, "Proposal: Majority", f"Amend rule 203: {MAJORITY}\nSet adoption = majority\n"
                       "Repeal rule 206")
    assert [e.data["result"] for e in events if e.kind == "outcome"] == ["\n".join([
        "proposal 301: amend rule 203, set adoption = majority, repeal rule 206; in debate until you send 'Call vote' "
        "(rule 111); unanimity adopts it; if adopted:",
        "    --- rule 203",
        "    +++ rule 301 (formerly 203)",
        "    @@ -1 +1 @@",
        "    -A rule-change is adopted if and only if the vote is unanimous among the eligible voters. If this rule "
        "is not amended by the end of the second complete circuit of turns, it automatically changes to require "
        "only a simple majority.",
        f"    +{MAJORITY}",
        "    --- rule 206",
        "    +++ rule 206 (repealed)",
        "    @@ -1 +0,0 @@",
        "    -When a proposed rule-change is defeated, the player who proposed it loses 10 points.",
        "    Mechanics: switches off the change to a simple majority at the end of the second circuit "
        "(rule 301 (formerly 203)); switches off the loss of points for a defeated proposal (rule 206)",
        "    Parameters: adoption: unanimity -> majority",
        "    To apply by hand: nothing"])]
    proposed = next(e.data for e in events if e.kind == "proposed")
    assert proposed["preview"][-2:] == ["    Parameters: adoption: unanimity -> majority", "    To apply by hand: nothing"]
    assert game.json()["rules"][5]["text"] != MAJORITY  # a preview changes nothing
    assert game.json()["parameters"]["adoption"] == "unanimity"


def test_a_long_amendment_is_previewed_in_at_most_forty_lines_of_diff() -> None:
    game = Game()
    body = "Amend rule 210: " + "\n".join(f"Line {i}." for i in range(500))
    result = next(e.data["result"] for e in game.send(ALICE, "Proposal: Long", body) if e.kind == "outcome")
    assert "    (465 more lines of diff not shown)" in result.splitlines()
    assert len(result.splitlines()) == 1 + 40 + 1 + 3  # the answer line, the diff, the cut, the three summaries


def test_repealing_rule_201_keeps_the_turn_with_the_player_on_turn() -> None:
    game, control = Game(), Game()
    adopt(game, ALICE, "Repeal rule 201")
    adopt(control, ALICE, "Enact rule: Players may say hello.")
    assert (control.state.turn, game.state.turn) == (BOB, ALICE)
    assert [r["mechanics"] for r in game.json()["rules"] if r["number"] == 201] == [[]]


def test_repealing_rule_205_lets_a_completion_bring_its_points_before_its_changes() -> None:
    game, control = Game(), Game()
    adopt(game, ALICE, "Repeal rule 205")
    adopt(control, ALICE, "Enact rule: Players may say hello.")
    for g in (game, control):
        adopt(g, BOB, "Repeal rule 202")  # (302 - 291) x 3/3 = 11, unless 202 is gone first
    assert (control.scores()[BOB], game.scores()[BOB]) == (0, 11)


def test_repealing_rule_207_lets_a_player_change_their_vote() -> None:
    game, control = Game(), Game()
    adopt(game, ALICE, "Repeal rule 207")
    adopt(control, ALICE, "Enact rule: Players may say hello.")
    for g in (game, control):
        g.send(BOB, "Proposal: Bye", "Enact rule: Players may say goodbye.")
        g.send(BOB, "Call vote", reply_to=302)
        vote_all(g, 302, {BOB: "Yes", CAROL: "No"})
    assert refused(vote_all(control, 302, {CAROL: "Yes"})) == [
        "you have voted no on proposal 302; each player has exactly one vote (rule 207)"]
    assert refused(vote_all(game, 302, {CAROL: "Yes"})) == []
    for g in (game, control):
        vote_all(g, 302, {ALICE: "Yes"})
    assert [g.state.proposals[-1].status for g in (control, game)] == ["defeated", "adopted"]


def test_repealing_rule_212_refuses_judgment() -> None:
    game = Game()
    adopt(game, ALICE, "Repeal rule 212")
    assert refused(game.send(CAROL, "Invoke judgment: May Bob propose twice?")) == [
        "rule 212 is repealed: nothing runs it; nothing done"]
    assert game.state.judgments == []


def test_repealing_rule_213_lets_no_judgment_end_the_game() -> None:
    game = Game()
    adopt(game, ALICE, "Repeal rule 213")
    game.send(CAROL, "Invoke judgment: Can play go on?")  # Bob on turn: Alice judges
    events = game.send(ALICE, "Judgment: Rule 213: no rule lets anyone move")
    assert [e.data["result"] for e in events if e.kind == "outcome"] == [
        "Judgment 1 given and published",
        "rule 213 is repealed: Judgment 1 is recorded and published, and the game goes on"]
    assert game.state.winner is None


def test_repealing_rule_305_refuses_the_call_for_action() -> None:
    game = Game(call_for_action=True)
    assert [r["mechanics"] for r in game.json()["rules"] if r["number"] == 305] == [["the Call for Action"]]
    adopt(game, ALICE, "Repeal rule 305")
    assert refused(game.send(CAROL, "Call for action", at=START + timedelta(days=8))) == [
        "rule 305 is repealed: nothing runs it; nothing done"]
    assert game.state.call_for_action is None


@pytest.mark.parametrize("line", ["Amend rule banana", "Repeal rule 206 please", "Set defeat penalty = 5"])
def test_a_malformed_change_line_is_refused_with_the_forms_not_read_as_prose(line: str) -> None:
    game = Game()
    assert refused(game.send(ALICE, "Proposal: Fix", f"Some prose first.\n{line}\nRepeal rule 206")) == [
        f"refused, no number given: '{line}' is not a change line; expected 'Enact rule: TEXT', 'Amend rule N: "
        "TEXT', 'Repeal rule N', 'Transmute rule N' or 'Set NAME = VALUE' (rule 103)"]
    assert game.state.proposals == []
