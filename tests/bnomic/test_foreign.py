"""Foreign Relations (2-10): the Ambassador acts for B Nomic in another Nomic "with 2 supporters and
without objection", and records B Nomic's relations with the others."""
from __future__ import annotations

from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, Game, said


def closed(g: Game, first: int, last: int) -> list[tuple[int, dict]]:
    """The dependent actions closed at midnights ``first`` to ``last``, by midnight."""
    return [(n, e.data) for n in range(first, last + 1) for e in g.midnight(n) if e.kind == "action_closed"]


def test_a_foreign_action_needs_two_supporters_and_no_objection_decided_when_its_window_closes():
    g = Game(clock_on=True)
    assert said(g.send(ALICE, "x", "Foreign action: Vote FOR proposal 12 in Agora")) == [
        '! "Foreign action: Vote FOR proposal 12 in Agora": only the Ambassador may do that, and you do not hold the '
        "Ministry now (rule 2-10); nothing done"]
    g.send(DAVE, "x", "Take the Ambassador")
    assert said(g.send(DAVE, "x", "Foreign action: Vote FOR proposal 12 in Agora\nRelation with Agora: at peace\n"
                                  "Foreign action: Declare war on Agora\nForeign action: Send a gift to Agora")) == [
        '  "Foreign action: Vote FOR proposal 12 in Agora": A1: B Nomic may take this foreign action if 2 Players '
        "support it and none objects within 2 ndays (2-10)",
        '  "Relation with Agora: at peace": B Nomic\'s relation with Agora is recorded (2-10)',
        '  "Foreign action: Declare war on Agora": A2: B Nomic may take this foreign action if 2 Players support it '
        "and none objects within 2 ndays (2-10)",
        '  "Foreign action: Send a gift to Agora": A3: B Nomic may take this foreign action if 2 Players support it '
        "and none objects within 2 ndays (2-10)"]
    g.send(ALICE, "x", "Support A1\nSupport A2\nSupport A3")
    g.send(BOB, "x", "Support A1\nSupport A2")
    assert said(g.send(CAROL, "x", "Object to A2")) == [
        '  "Object to A2": your objection of A2 is recorded (2 supporting, 1 objecting)']
    assert [(a["number"], a["status"], len(a["supporters"]), len(a["objectors"])) for a in g.json()["actions"]] == [
        (1, "pending", 2, 0), (2, "failed", 2, 1), (3, "pending", 1, 0)]  # two supporters: it still waits
    assert closed(g, 1, 3) == [
        (3, {"number": 1, "kind": "foreign", "status": "occurred",
             "why": "B Nomic may take the foreign action: Vote FOR proposal 12 in Agora"}),
        (3, {"number": 3, "kind": "foreign", "status": "failed", "why": "1 of 2 supporters"})]
    assert g.json()["relations"] == {"Agora": "at peace"}
