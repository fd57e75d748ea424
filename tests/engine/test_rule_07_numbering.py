"""Rule 7: one number sequence for all submissions; the lowest rule applies first."""
from __future__ import annotations

from tests.support import EMPEROR

from tests.engine.imperial_play import ALICE, BOB, sub


def test_proposals_and_points_of_order_share_one_sequence_and_proclamations_take_none(play):
    play.propose(ALICE, "One")
    play.send(BOB, "Point of Order: Two", "x")
    play.send(EMPEROR, "Proclamation: Three?", "Set accept_points = 4")
    play.propose(BOB, "Three")
    st = play.state()
    assert [(s["number"], s["kind"]) for s in st["submissions"]] == [
        (1, "proposal"), (2, "point_of_order"), (3, "proposal")]
    assert st["proclamations"][0]["from_number"] == 3
    play.verify()


def test_the_lowest_rule_decides_why_a_proposal_is_ignored(play):
    play.propose(ALICE, "One")
    play.propose(ALICE, "Two")
    play.send(ALICE, "Proposal:", "no title and a full queue")
    assert sub(play, 3)["rule"] == 4  # rule 4 before rule 8
    play.verify()
