"""The Ministers' own acts, each checked against who holds the Ministry now (game state, not
game.toml): the Chairman's Apply (2-2), the MetaMin's MiniMinistries (6-9), the Rulekeeper's
numbers and sections (1-8)."""
from __future__ import annotations

from tests.bnomic.support import ALICE, BOB, CAROL, Game, said

SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"


def passed_proposal(g: Game) -> None:
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.send(BOB, "Proposal: Tea", "The Chairman shall give Carol 4 points for her tea.")
    g.to_nday(9)
    g.send(BOB, "x", "FOR 1")
    g.send(ALICE, "x", "Publish ballot\nClock on")
    g.to_nday(1)


def test_the_chairman_applies_a_passed_proposals_prose_with_change_lines_or_records_it():
    g = Game()
    passed_proposal(g)
    assert said(g.send(BOB, "x", "Apply 1:\nCarol gains 4 points")) == [
        '! "Apply 1:": only the Chairman may do that, and you do not hold the Ministry now (rule 2-2); nothing done']
    g.send(ALICE, "x", "Take Chairman")
    assert said(g.send(ALICE, "x", "Apply 1:\nCarol gains 4 points")) == [
        '  "Apply 1:": proposal 1\'s prose applied: 1 change line']
    assert g.points()[CAROL] == 4
    assert said(g.send(ALICE, "x", "Applied 1: done by hand")) == [
        '  "Applied 1: done by hand": recorded: proposal 1\'s prose applied: done by hand']
    assert g.state.proposal(1).applied == ["Carol gains 4 points", "done by hand"]
    assert said(g.send(ALICE, "x", "Applied 2: no")) == ['! "Applied 2: no": proposal 2 has not Passed (rule 2-2); nothing done']


def test_a_vacant_miniministry_keeps_the_mom_from_starting_the_clock():
    g = Game()
    g.send(ALICE, "x", SEVEN)
    assert said(g.send(BOB, "x", 'Create miniministry "Tea Room": keep the tea')) == [
        '! "Create miniministry "Tea Room": keep the tea": only the MetaMin may do that, and you do not hold the '
        'Ministry now (rule 6-9); nothing done']
    g.send(ALICE, "x", 'Create miniministry "Tea Room": keep the tea')
    assert g.json()["ministries"][-1] == {"name": "Tea Room", "minister": None, "holder": None, "mini": True}
    assert said(g.send(ALICE, "x", "Clock on")) == [
        '! "Clock on": the Tea Room is Vacant: the MoM starts the Clock only with no Vacant Ministry (rule 2-1); '
        'nothing done']
    g.send(BOB, "x", "Take the Tea Room")
    assert said(g.send(ALICE, "x", "Clock on")) == ['  "Clock on": the Clock is On: nweek 1, nday 1 (Breakday)']


def test_the_rulekeeper_renumbers_rules_and_keeps_sections():
    g = Game()
    g.send(ALICE, "x", "Take Law")
    assert said(g.send(ALICE, "x", 'Renumber rule 2-6 to 2-12\nRenumber rule "Scoring" to 2-66\nCreate section 7 "Tea"\n'
                                   'Move rule 2-12 to section 7\nRemove section 5\nUnnumber rule 3-13')) == [
        '! "Renumber rule 2-6 to 2-12": there is a rule 2-12 already (rule 1-8); nothing done',
        '  "Renumber rule "Scoring" to 2-66": rule 2-6 is now rule 2-66',
        '  "Create section 7 "Tea"": section 7 Tea exists',
        '  "Move rule 2-12 to section 7": rule 2-12 is in section 7',
        '  "Remove section 5": section 5 is removed; its rules are in no section',
        '  "Unnumber rule 3-13": rule 3-13 (Ceci n\'est pas un titre) has no number']
    rules = {r["name"]: (r["number"], r["section"]) for r in g.json()["rules"]}
    assert (rules["Scoring"], rules["Levels"], rules["Factions"], rules["Ceci n'est pas un titre"]) == (
        ("2-66", "2"), ("2-12", "7"), ("5-2", None), (None, "3"))
    assert [s["number"] for s in g.json()["sections"]] == ["0", "1", "2", "3", "6", "7"]
