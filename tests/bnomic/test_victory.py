"""Victory Conditions and Trophies (2-3), Properties (1-13) and Ministerial obligations (6-10), made
by a Passed proposal's change lines and acted on by the Ministers."""
from __future__ import annotations

from tests.bnomic.support import ALICE, BOB, CAROL, Game, said

SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"
BODY = """Victory is sweet.
Create victory condition "Sweet Tooth":
Trigger: a Player eats 10 cakes
Victors: that Player
Cleanup: the cakes are put away
Prize: none
Award a trophy to Carol: first baker
Grant Baker to Bob
Revoke Baker from Carol
Obligation of the Artisan: bake a cake each nweek"""


def pass_body(g: Game, body: str) -> None:
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.send(BOB, "Proposal: Sweet", body)
    g.to_nday(9)
    g.send(BOB, "x", "FOR 1")
    g.send(ALICE, "x", "Publish ballot\nClock on")
    g.to_nday(1)


def test_a_passed_proposal_makes_victory_conditions_trophies_properties_and_obligations():
    g = Game()
    pass_body(g, BODY)
    assert g.json()["victory_conditions"] == [
        {"name": "Sweet Tooth", "trigger": "a Player eats 10 cakes", "victors": "that Player",
         "cleanup": "the cakes are put away", "prize": "none", "fulfilled": False, "repealed": False}]
    assert (g.player(CAROL)["win_count"], g.player(BOB)["properties"]) == (1, ["Baker"])
    assert g.json()["obligations"] == [{"number": 1, "ministry": "goods", "text": "bake a cake each nweek",
                                        "by": "P1", "fulfilled": None}]
    # the Revoke was skipped: Carol had no Baker
    g.send(ALICE, "x", "Take Goods\nTake Law")
    assert said(g.send(BOB, "x", "Fulfilled obligation 1: a lemon cake")) == [
        '! "Fulfilled obligation 1: a lemon cake": only the obliged Minister fulfils it (rule 6-10); nothing done']
    assert said(g.send(ALICE, "x", "Fulfilled obligation 1: a lemon cake")) == [
        '  "Fulfilled obligation 1: a lemon cake": obligation 1 fulfilled']


def test_a_victory_condition_is_fulfilled_once_an_nweek_with_a_trophy_to_each_victor():
    g = Game()
    pass_body(g, BODY)
    g.send(ALICE, "x", SEVEN)
    assert said(g.send(ALICE, "x", 'Fulfilled "sweet tooth": Bob, Zed')) == [
        '! "Fulfilled "sweet tooth": Bob, Zed": name each Victor, a Player (rule 2-3); nothing done']
    assert said(g.send(ALICE, "x", 'Fulfilled "Sweet Tooth": Bob, carol')) == [
        '  "Fulfilled "Sweet Tooth": Bob, carol": "Sweet Tooth" is Fulfilled: a Trophy to Bob, Carol; '
        'Cleanup: the cakes are put away']
    assert said(g.send(ALICE, "x", 'Fulfilled "Sweet Tooth": Bob'))[0].endswith("Fulfilled already this nweek (rule 2-3); nothing done")
    assert (g.player(BOB)["win_count"], g.player(CAROL)["win_count"]) == (1, 2)
    g.send(ALICE, "x", "Clock on")
    g.to_nday(9)
    g.send(ALICE, "x", "Publish ballot\nClock on")
    g.to_nday(1)
    assert g.json()["victory_conditions"][0]["fulfilled"] is False
