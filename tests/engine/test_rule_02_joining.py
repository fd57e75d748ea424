"""Rule 2: a person becomes a player with their first Proposal or Point of Order."""
from __future__ import annotations

from tests.engine.imperial_play import ALICE, BOB, CAROL
from tests.support import EMPEROR, SCRIBE


def test_proposals_and_points_of_order_make_players_and_nothing_else_does(play):
    play.send(CAROL, "hello", "Subscribe")
    play.send(BOB, "Point of Order: Typo", "Rule 4 has a typo.", name="Bob the Builder")
    play.propose(ALICE, "Cake")
    play.propose(BOB, "Pie")
    st = play.state()
    assert [(p["email"], p["name"], p["score"], p["joined_day"]) for p in st["players"]] == [
        (EMPEROR, "tie", 0, 1), (SCRIBE, "ths", 0, 1), (BOB, "Bob the Builder", 0, 1), (ALICE, "alice", 0, 1)]
    play.verify()
