"""Consultations (2-5): a Priest selected, an Answer claimed Inconsistent and answered again by a
new Priest, Pondered with its Oracularity applied all or nothing."""
from __future__ import annotations

from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, ERIN, Game, said


def game(*active: str) -> Game:
    g = Game()
    for who in active:
        p = g.state.player(who)
        assert p is not None
        p.active = True
    g.send(DAVE, "x", "Take Questions")
    return g


def ticks(g: Game, first: int, last: int) -> list[tuple[int, dict]]:
    """The consultation events of midnights ``first`` to ``last``, by midnight."""
    return [(n, e.data) for n in range(first, last + 1) for e in g.midnight(n) if e.kind == "consultation"]


def test_a_consultation_claimed_inconsistent_goes_to_a_new_priest_and_is_pondered_with_its_oracularity():
    g = game(ALICE, BOB, CAROL, DAVE, ERIN)
    assert said(g.send(ALICE, "Consultation: Is tea a drink?", "Because.\nUnbeliever: Bob")) == [
        '  "Consultation: Is tea a drink?": Consultation 1, Waiting']
    assert said(g.send(DAVE, "x", "Priest 1: Bob\nPriest 1: Carol")) == [
        '! "Priest 1: Bob": Bob is not eligible: an Active Player, not the Supplicant, the Unbeliever, the Oracle nor '
        "a former Priest (rule 2-5); nothing done",
        '  "Priest 1: Carol": Carol is the Priest of Consultation 1']
    assert said(g.send(CAROL, "x", "Answer 1: YES\nTea is a drink.\nOracularity:\nAlice gains 3 points")) == [
        '  "Answer 1: YES": Consultation 1 is Answered YES with an Oracularity of 1 change line; claims are open for '
        "three ndays or ndelays (2-5)"]
    assert said(g.send(ERIN, "x", "Claim 1 consistent\nClaim 1 inconsistent"))[1] == (
        '  "Claim 1 inconsistent": your claim that Consultation 1\'s Answer is Inconsistent is recorded')
    assert said(g.send(BOB, "x", "Claim 1 inconsistent")) == [
        '! "Claim 1 inconsistent": the Supplicant and the Unbeliever make no claim (rule 2-5); nothing done']
    assert ticks(g, 1, 4) == [(4, {"number": 1, "status": "waiting", "priest": None,
                                    "why": "claimed Inconsistent 1 to 0: Waiting for a new Priest"})]
    assert g.json()["consultations"] == [{
        "number": 1, "supplicant": ALICE, "unbeliever": BOB, "status": "waiting", "priest": None,
        "former_priests": [CAROL], "answer": None, "claims": {}, "oracularity_followed": False}]
    assert said(g.send(DAVE, "x", "Priest 1: Carol"))[0].startswith('! "Priest 1: Carol": Carol is not eligible')
    g.send(DAVE, "x", "Priest 1: Erin")
    g.send(ERIN, "x", "Answer 1: Negative\nNo.\nOracularity:\nAlice gains 3 points")
    assert ticks(g, 5, 10) == [(9, {"number": 1, "status": "pondered", "priest": ERIN,
                                     "why": "Pondered; its Oracularity followed (1 change line)"})]
    assert g.json()["consultations"][0] | {"claims": None} == {
        "number": 1, "supplicant": ALICE, "unbeliever": BOB, "status": "pondered", "priest": ERIN,
        "former_priests": [CAROL], "answer": "NO", "claims": None, "oracularity_followed": True}
    assert g.points()[ALICE] == 3


def test_with_no_eligible_player_the_oracle_is_priest_and_a_tie_leaves_it_answered():
    g = game(ALICE, DAVE)
    assert said(g.send(ALICE, "Consultation: Q?")) == [
        '  "Consultation: Q?": Consultation 1, Waiting; its Priest is dave@b.test']
    g.send(DAVE, "x", "Answer 1: True")
    g.send(BOB, "x", "Claim 1 inconsistent")
    g.send(CAROL, "x", "Claim 1 consistent")
    assert ticks(g, 1, 4) == []
    fifth = g.midnight(5)
    assert [e.data for e in fifth if e.kind == "consultation"] == [
        {"number": 1, "status": "pondered", "priest": DAVE, "why": "Pondered"}]
    assert [e.data["lines"][1] for e in fifth if e.kind == "daily"] == ["Consultation 1: Pondered"]  # the list hears it


def test_an_oracularity_with_a_line_that_cannot_apply_applies_none_of_its_lines():
    g = game(ALICE, BOB, DAVE)
    g.send(ALICE, "Consultation: Q?")
    g.send(DAVE, "x", "Priest 1: Bob")
    g.send(BOB, "x", "Answer 1: YES\nOracularity:\nAlice gains 3 points\nZed gains 1 point")
    (n, event), = ticks(g, 1, 5)
    assert n == 5 and event["why"].startswith("Pondered; its Oracularity is not followed: 'Zed gains 1 point': ")
    assert g.points()[ALICE] == 0 and g.json()["consultations"][0]["oracularity_followed"] is False


def test_the_oracle_zots_a_consultation_without_a_priest_or_whose_priest_asks():
    g = game(ALICE, BOB, CAROL, DAVE)
    g.send(ALICE, "Consultation: Q?")
    g.send(ALICE, "Consultation: R?")
    assert said(g.send(DAVE, "x", "ZOT 1")) == [
        '  "ZOT 1": Consultation 1 is ZOTTED: it has no further effect (2-5)']
    g.send(DAVE, "x", "Priest 2: Bob")
    assert said(g.send(DAVE, "x", "ZOT 2")) == [
        '! "ZOT 2": Consultation 2 has a Priest who did not ask for it to be ZOTTED (rule 2-5); nothing done']
    assert said(g.send(BOB, "x", "Request ZOT 2")) == [
        '  "Request ZOT 2": the Oracle is asked to ZOT Consultation 2 or to reassign it (2-5)']
    assert [e.data["lines"][1] for e in g.midnight(1) if e.kind == "daily"] == [
        "Consultation 2 awaits a ZOT or a new Priest from the Oracle (dave@b.test): its Priest asked"]
    assert said(g.send(DAVE, "x", "Priest 2: Carol")) == ['  "Priest 2: Carol": Carol is the Priest of Consultation 2']
    assert [(q["status"], q["priest"], q["former_priests"]) for q in g.json()["consultations"]] == [
        ("zotted", None, []), ("waiting", CAROL, [BOB])]


def test_a_waiting_consultation_is_reassigned_after_every_10_ndelays():
    g = game(ALICE, BOB, CAROL, DAVE)
    g.send(ALICE, "Consultation: Q?")
    g.send(DAVE, "x", "Priest 1: Bob")
    daily = [e.data["lines"] for e in g.midnight(1) if e.kind == "daily"]
    assert daily == [["nweek 1, nday 1 (Breakday), the Clock is Off, ndelay 1",
                      "Consultation 1 awaits an Answer from bob@b.test", "Vacant: " + ", ".join(
                          m["name"] for m in g.json()["ministries"] if m["holder"] is None)]]
    assert ticks(g, 2, 10) == [(10, {"number": 1, "status": "waiting", "priest": None,
                                      "why": "reassigned: the Oracle selects a new Priest (2-5)"})]
    assert ticks(g, 11, 20) == []  # no Priest to replace
    assert "Consultation 1 awaits a Priest from the Oracle (dave@b.test)" in [
        e.data for e in g.midnight(21) if e.kind == "daily"][0]["lines"]
    g.send(DAVE, "x", "Priest 1: Carol")
    assert ticks(g, 22, 30) == [
        (30, {"number": 1, "status": "waiting", "priest": None, "why": "reassigned: the Oracle selects a new Priest (2-5)"}),
        (30, {"number": 1, "status": "waiting", "priest": DAVE,
              "why": "no Player is eligible: the Oracle is Priest (2-5)"})]


def test_a_consultation_that_waited_for_an_oracle_has_him_as_priest_when_he_takes_the_ministry_and_none_is_eligible():
    """2-5 "If no Player is eligible, the Oracle is automatically selected": with the Ministry of
    Questions Vacant it waits; the Oracle who takes it is Priest at once where nobody is eligible."""
    g = Game()
    bob = g.state.player(BOB)
    assert bob is not None
    bob.active = True
    assert said(g.send(ALICE, "Consultation: Is tea a drink?") + g.send(BOB, "Consultation: Is coffee?")) == [
        '  "Consultation: Is tea a drink?": Consultation 1, Waiting', '  "Consultation: Is coffee?": Consultation 2, Waiting']
    events = g.send(DAVE, "x", "Take the Oracle")
    assert said(events) == ['  "Take the Oracle": you hold the Ministry of Questions (the Oracle)']
    assert [e.data for e in events if e.kind == "consultation"] == [
        {"number": 2, "status": "waiting", "priest": DAVE, "why": "no Player is eligible: the Oracle is Priest (2-5)"}]
    assert [(q["number"], q["priest"]) for q in g.json()["consultations"]] == [(1, None), (2, DAVE)]  # Bob is eligible for 1


def test_an_oracularity_with_a_line_that_is_no_change_line_is_not_followed_and_the_answer_says_so():
    """2-5: an Oracularity is a Transaction (1-16): a prose line cannot be determined "with finality and
    certainty", so none of its lines apply (the design's Reading 51); the Answer warns at once."""
    g = game(ALICE, BOB, DAVE)
    g.send(ALICE, "Consultation: Q?")
    g.send(DAVE, "x", "Priest 1: Bob")
    assert said(g.send(BOB, "x", "Answer 1: YES\nBecause.\nOracularity:\nAlice gains 3 points\nGive Bob a cookie")) == [
        '  "Answer 1: YES": Consultation 1 is Answered YES with an Oracularity of 1 change line; \'Give Bob a cookie\' '
        "is no change line, so the Oracularity will not be followed (1-16); claims are open for three ndays or "
        "ndelays (2-5)"]
    assert ticks(g, 1, 5) == [(5, {"number": 1, "status": "pondered", "priest": BOB,
                                    "why": "Pondered; its Oracularity is not followed: 'Give Bob a cookie' is no "
                                           "change line (1-16)"})]
    assert g.points()[ALICE] == 0 and g.json()["consultations"][0]["oracularity_followed"] is False
