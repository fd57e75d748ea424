"""Rule-changes: the change lines (103), numbering (108), transmutation (102, 109), at least one
mutable rule (114) and at most 25 (209). A refused proposal takes no number and the turn stays."""
from __future__ import annotations

import pytest

from engine.suber.state import SuberRule
from tests.suber.support import ALICE, BOB, CAROL, Game, refused, vote_all

ALL_YES = {ALICE: "Yes", BOB: "Yes", CAROL: "Yes"}


def adopt(game: Game, body: str, votes: dict[str, str] = ALL_YES) -> int:
    """The player on turn proposes ``body``; everyone votes; returns the number."""
    author = game.state.turn
    assert author is not None
    number = 301 + len(game.state.proposals)
    assert not refused(game.send(author, "Proposal: Change", body))
    game.send(author, f"Call vote {number}")
    vote_all(game, number, votes)
    return number


@pytest.mark.parametrize(("body", "why"), [
    ("Some prose and no change.", "it has no change line ('Enact rule: TEXT', 'Amend rule N: TEXT', "
     "'Repeal rule N', 'Transmute rule N' or 'Set NAME = VALUE'); rule 202: a turn proposes one rule-change"),
    ("Amend rule 999: New.", "there is no rule 999 in effect"),
    ("Repeal rule 101", "rule 101 is immutable: only a transmutation, stated explicitly, may change it first "
     "(rules 103 and 109)"),
    ("Enact rule:", "'Enact rule' has no text: a rule-change is written down before it is voted on (rule 106)"),
    ("Repeal rule 210\nbecause I say so", "'because I say so' follows 'Repeal rule 210', which takes no text "
     "(rule 103)"),
    ("Amend rule 210: One.\nAmend rule 211: Two.", "it would give its number to two rules (rule 108); a proposal "
     "may enact, amend or transmute one rule (and repeal others)"),
])
def test_a_refused_proposal_takes_no_number_and_the_turn_stays(body: str, why: str) -> None:
    game = Game()
    assert refused(game.send(ALICE, "Proposal: Bad", body)) == [f"refused, no number given: {why}"]
    assert game.json()["proposals"] == [] and game.state.turn == ALICE
    game.send(ALICE, "Proposal: Good", "Enact rule: Fine.")
    assert game.json()["proposals"][0]["number"] == 301


def test_there_must_always_be_a_mutable_rule() -> None:
    game = Game()
    body = "\n".join(f"Repeal rule {n}" for n in range(201, 214))
    assert refused(game.send(ALICE, "Proposal: Nothing", body)) == [
        "refused, no number given: there must always be at least one mutable rule (rule 114)"]


def test_at_most_25_mutable_rules() -> None:
    game = Game()
    game.state.rules += [SuberRule(number=250 + i, title="x", text="x", mutable=True) for i in range(12)]
    assert refused(game.send(ALICE, "Proposal: One more", "Enact rule: Too many.")) == [
        "refused, no number given: it would make 26 mutable rules; at most 25 (rule 209)"]
    assert not refused(game.send(ALICE, "Proposal: Swap", "Repeal rule 250\nEnact rule: Just right."))


def test_an_amended_rule_takes_the_proposals_number_with_its_history() -> None:
    game = Game()
    adopt(game, "Enact rule: Hello.")
    adopt(game, "Amend rule 301: Hello\nand goodbye.")
    assert game.state.rule(301) is None
    rule = game.state.rule(302)
    assert rule is not None
    assert (rule.text, rule.formerly, rule.amended_by) == ("Hello\nand goodbye.", [301], ["P301", "P302"])
    assert [(v.text, v.by) for v in rule.history] == [("Hello.", "P301"), ("Hello\nand goodbye.", "P302")]


def test_transmute_then_amend_an_immutable_rule_in_one_proposal() -> None:
    game = Game()
    number = adopt(game, "Transmute rule 113\nAmend rule 113: Forfeit by mail.")
    assert game.json()["proposals"][0]["status"] == "adopted"
    rule = game.state.rule(number)
    assert rule is not None and (rule.mutable, rule.text, rule.formerly) == (True, "Forfeit by mail.", [113])
    assert [v.by for v in rule.history] == [None, "P301", "P301"]


def test_transmuting_an_immutable_rule_needs_unanimity_even_after_203_relaxes() -> None:
    game = Game()
    game.state.unanimity = False  # as after the second complete circuit
    adopt(game, "Transmute rule 101", {ALICE: "Yes", BOB: "Yes", CAROL: "No"})
    assert game.json()["proposals"][0]["status"] == "defeated"
    adopt(game, "Transmute rule 201", {BOB: "Yes", CAROL: "No", ALICE: "Yes"})  # mutable to immutable: majority
    assert game.json()["proposals"][1]["status"] == "adopted"
    rule = game.state.rule(302)
    assert rule is not None and rule.mutable is False


def test_a_repealed_rule_can_no_longer_be_changed() -> None:
    game = Game()
    adopt(game, "Repeal rule 210")
    assert refused(game.send(BOB, "Proposal: Back", "Amend rule 210: Again.")) == [
        "refused, no number given: there is no rule 210 in effect"]
