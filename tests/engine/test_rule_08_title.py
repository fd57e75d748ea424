"""Rule 8 (Titular Consistency): a Proposal without a title is ignored."""
from __future__ import annotations

from tests.engine.imperial_play import ALICE, BOB, sub


def test_a_proposal_without_a_title_is_ignored_and_cools_the_game(play):
    out = play.send(ALICE, "Proposal:   ", "Untitled text.")
    assert "Proposal 1 ignored (it has no title (rule 8)): no points (still 0); temperature 303 -> 298 K" in out
    assert (sub(play, 1)["status"], sub(play, 1)["rule"]) == ("ignored", 8)
    assert "submission 1 was already ignored; nothing done" in play.judge("Accept 1")
    play.verify()


def test_a_point_of_order_without_a_title_is_not_a_proposal_and_stays_pending(play):
    play.send(BOB, "Point of Order:", "Rule 4 has a typo.")
    assert sub(play, 1)["status"] == "pending"
    play.verify()
