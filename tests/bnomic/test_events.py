"""B Nomic's events are declared (engine/bnomic/events.py) and name their causes: a proposal's
events its key, a dependent action's its number, a midnight's its count."""
from __future__ import annotations

from engine.events import Cause
from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, Game
from tests.engine.test_events import assert_declared

SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"


def test_a_nweeks_events_are_declared_and_caused():
    g = Game()
    events = g.send(ALICE, "x", SEVEN + "\nClock on")
    events += g.send(BOB, "Proposal: Tea", "Tea.\nBob gains 1 point")
    events += g.send(CAROL, "x", "Usurp MoM")
    events += g.send(DAVE, "x", "Expel Carol because noisy")
    events += g.to_nday(9)
    events += g.send(BOB, "x", "FOR 1")
    events += g.send(ALICE, "x", "Publish ballot\nClock on\nPublish results")
    ending = g.to_nday(1)
    assert_declared("bnomic", events + ending)
    assert [(e.kind, e.cause) for e in events if e.kind in ("proposed", "numbered", "voted", "action")] == [
        ("numbered", Cause("proposal", 1)), ("proposed", Cause("proposal", 1)), ("action", Cause("action", 1)),
        ("action", Cause("action", 2)), ("voted", Cause("proposal", 1))]
    assert {(e.kind, e.cause) for e in ending if e.kind in ("changed", "score", "voting_ended")} == {
        ("changed", Cause("proposal", 1)), ("score", Cause("proposal", 1)),  # its change line
        ("score", Cause("midnight", 12)), ("voting_ended", Cause("midnight", 12))}  # 2-6, for the whole Voting
