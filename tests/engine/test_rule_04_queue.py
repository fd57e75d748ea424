"""Rule 4: at most two undecided Proposals per player; a third is ignored, with its penalties."""
from __future__ import annotations

from tests.engine.imperial_play import ALICE, BOB, CAROL, sub, with_variables


def test_a_third_undecided_proposal_is_ignored_with_its_attendant_penalties(make_play):
    play = make_play(first_it=CAROL)  # rule 22: It could not raise the Point of Order below
    play.propose(ALICE, "One")
    play.send(ALICE, "Point of Order: Not a proposal", "Points of Order do not queue.")
    play.propose(ALICE, "Two")
    play.propose(BOB, "Bob's")
    out = play.propose(ALICE, "Three")
    assert ("Proposal 5 ignored (alice@wonder.land already has 2 undecided Proposals (rule 4)): "
            "no points (still 0); temperature 303 -> 298 K") in out
    s = sub(play, 5)
    assert (s["status"], s["reason"], s["rule"]) == (
        "ignored", "alice@wonder.land already has 2 undecided Proposals (rule 4)", 4)
    play.judge("Accept 1")
    assert "recorded as Proposal 6, pending" in play.propose(ALICE, "Four")
    play.verify()


def test_the_queue_limit_is_a_game_variable(make_play):
    play = with_variables(make_play(), queue_limit=1)
    play.propose(ALICE, "One")
    assert "already has 1 undecided Proposals (rule 4)" in play.propose(ALICE, "Two")
    play.verify()
