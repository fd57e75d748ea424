"""Reminders ask at every wake-up when the next Vote closes (engine/reminders.py). B Nomic answers
from the Clock and the Open proposals (``pending.first_close``) instead of listing every (Player,
proposal) item, 200,000 of them with 1,000 Players and 200 proposals; here it is checked against
the listing it replaces at each stage of a Voting Period."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from engine.bnomic import pending
from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, ERIN, Game

SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"


def listed(g: Game, after: datetime) -> Any:
    return min((i.closes for i in pending.items(g.state, g.config, after) if i.closes and i.closes > after),
               default=None)


def test_first_close_is_the_end_of_nday_12_while_a_vote_is_owed_and_the_clock_is_on():
    g = Game()
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.send(BOB, "Proposal: Tea", "Tea.")
    g.send(ALICE, "x", "Number proposals")
    seen = []
    g.to_nday(9)  # Ballotday: the Clock stops, so no Vote has a closing time
    seen.append((listed(g, g.now), pending.first_close(g.state, g.config, g.now)))
    g.send(ALICE, "x", "Resign MoM\nPublish ballot\nClock on")
    seen.append((listed(g, g.now), pending.first_close(g.state, g.config, g.now)))
    for who in (ALICE, BOB, CAROL, DAVE):
        g.send(who, "Votes", "FOR 1")
    seen.append((listed(g, g.now), pending.first_close(g.state, g.config, g.now)))
    g.send(ERIN, "Votes", "AGAINST 1")  # every Vote cast: nothing closes for anyone
    seen.append((listed(g, g.now), pending.first_close(g.state, g.config, g.now)))
    assert [a == b for a, b in seen] == [True] * 4
    assert [a is None for a, _ in seen] == [True, False, False, True]
