"""Rule 3: Directives call for Proposals in an area; the Emperor may correct a Proposal's area."""
from __future__ import annotations

from tests.engine.imperial_play import ALICE, BOB, sub


def test_a_proposal_outside_the_directive_is_ignored_when_judged(play):
    out = play.judge("Directive: Food")
    assert "Directive in force" in out
    assert play.state()["directive"] == "Food"
    out = play.propose(BOB, "Football", "Area: Sport\nMore football.")
    assert ("recorded as Proposal 1, pending before the Emperor; the Directive calls for 'Food': "
            "it will be ignored unless the Emperor finds it in that area") in out
    out = play.judge("Accept 1")
    assert ("Proposal 1 ignored (submitted under the Directive 'Food' with area 'Sport' (rule 3)): "
            "no points (still 0); temperature 303 -> 298 K") in out
    assert sub(play, 1)["reason"] == "submitted under the Directive 'Food' with area 'Sport' (rule 3)"
    play.verify()


def test_an_accepted_proposal_in_the_area_frees_its_author(play):
    play.judge("Directive: Food")
    assert "its area fits" in play.propose(ALICE, "Cake", "area: food\nCake for all.")
    play.judge("Accept 1")
    assert play.player(ALICE)["directive_done"] is True
    out = play.propose(ALICE, "Football", "Area: Sport")
    assert "Directive" not in out
    assert "Proposal 2 accepted" in play.judge("Accept 2")
    play.verify()


def test_the_emperor_corrects_the_area_when_judging(play):
    play.judge("Directive: Food")
    play.propose(BOB, "Soup", "Soup on Sundays.")  # no Area line
    play.propose(ALICE, "Cake", "Area: Food")
    out = play.judge("Accept 1\nArea: Food\nReject 2\nArea: Baking")
    assert "Proposal 1 accepted: +3 points (now 3)" in out
    assert "Proposal 2 ignored (submitted under the Directive 'Food' with area 'Baking' (rule 3))" in out
    assert [(s["area"], s["status"]) for s in play.state()["submissions"]] == [
        ("Food", "accepted"), ("Baking", "ignored")]
    play.verify()


def test_revoking_frees_later_proposals_and_a_new_directive_binds_everyone_again(play):
    play.judge("Directive: Food")
    play.propose(ALICE, "Cake", "Area: Food")
    play.judge("Accept 1")
    assert "the Directive 'Food' is revoked" in play.judge("Revoke directive")
    assert play.state()["directive"] is None
    assert "there is no Directive to revoke; nothing done" in play.judge("Revoke directive")
    play.propose(BOB, "Football", "Area: Sport")
    assert "Proposal 2 accepted" in play.judge("Accept 2")
    play.judge("Directive: Music")
    assert play.player(ALICE)["directive_done"] is False
    play.propose(ALICE, "Cake again", "Area: Food")
    assert "Proposal 3 ignored" in play.judge("Accept 3")
    play.verify()


def test_only_the_emperor_issues_directives(play):
    out = play.send(ALICE, "please", "Directive: Cake")
    assert ": only the Emperor may do that (rule 3)" in out
    assert play.state()["directive"] is None
