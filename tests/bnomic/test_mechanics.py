"""Rules that change by Proposal (issue 28): each rule that runs a mechanic, repealed, runs it no
more (engine/bnomic/mechanics.py); a Passed ``Set NAME = VALUE`` line changes the number play uses;
a renumbered rule keeps its mechanics."""
from __future__ import annotations

import re
import sys
from datetime import timedelta
from types import SimpleNamespace

import pytest

from engine.bnomic import changes
from engine.bnomic.mechanics import DECLARED
from engine.bnomic.state import Blueprint, ChangeLine, Device, VictoryCondition
from engine.context import Context
from rendering import Renderer
from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, Game, said

SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"


def repeal(g: Game, rule: str) -> Game:
    """Rule ``rule`` repealed, as a Passed proposal's change line does it."""
    changes.apply(g.state, ChangeLine(kind="repeal", line=f"Repeal rule {rule}"), "P9", Context(config=g.config, at=g.now))
    return g


def games(rule: str) -> tuple[Game, Game]:
    """A control game and one with ``rule`` repealed."""
    return Game(), repeal(Game(), rule)


def refused(rule: str, name: str) -> str:
    return f"rule {rule} ({name}) is repealed: nothing runs it; nothing done"


def voting_ends(g: Game, votes: dict[str, str]) -> None:
    """Alice takes every Ministry; the Clock runs to Ballotday; ``votes`` are cast; Voting ends
    (nweek 1: nobody is Active yet, so any positive Stamina passes the Quorum, Reading 18)."""
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.to_nday(9)
    for who, lines in votes.items():
        g.send(who, "x", lines)
    g.send(ALICE, "x", "Publish ballot\nClock on")
    g.to_nday(1)


def test_every_mechanic_has_a_repeal_test() -> None:
    here = {m[1].replace("_", "-") for name in dir(sys.modules[__name__])
            if (m := re.match(r"test_repealing_rule_(\d+_\d+)_", name))}
    assert here == {str(m.rule) for m in DECLARED.mechanics}


@pytest.mark.parametrize(("rule", "name", "sender", "subject", "body"), [
    ("1-8", "Rules", ALICE, "x", "Renumber rule 2-5 to 2-50"),
    ("1-10", "Game Actions", ALICE, "x", "At the start of nday 3: Give m1 to Bob"),
    ("1-16", "Transactions", ALICE, "x", "BEGIN TRANSACTION\nGive m1 to Bob\nEND TRANSACTION"),
    ("2-3", "Victory", ALICE, "x", 'Fulfilled "Tea": Bob'),
    ("2-5", "Judgment", BOB, "Consultation: Is it tea time?", "Surely."),
    ("3-9", "Spelling", BOB, "Tidiness List", 'Rule 1-1: "B" -> "B."'),
    ("3-16", "Message Of The nweek", ALICE, "x", "Set the message of the nweek: Hello"),
    ("3-17", "Threat Awareness", ALICE, "x", "Hoist the Polka Dots flag"),
    ("3-10", "Currency", BOB, "x", "Give m5 to Carol"),
    ("3-11", "Mackerel", BOB, "x", "Exchange 0 points for mackerel"),
    ("3-12", "devices", BOB, "x", "Give device 1 to Carol"),
    ("3-14", "The Ministry of Goods", BOB, "x", "Bid m60 on Crown"),
    ("5-2", "Factions", BOB, "Faction: Guild", "Parties: Bob\nAgreement: https://guild.test/"),
    ("6-4", "Usurping Ministries", BOB, "x", "Usurp Law"),
    ("6-9", "MiniMinistries", ALICE, "x", 'Create miniministry "Tea": brews'),
    ("6-10", "Ministerial Obligations", ALICE, "x", "Fulfilled obligation 1: done"),
])
def test_a_command_of_a_repealed_rule_is_refused_naming_the_rule(rule: str, name: str, sender: str, subject: str,
                                                                   body: str) -> None:
    g = repeal(Game(), rule)
    g.send(ALICE, "x", SEVEN)
    command = subject if subject != "x" else body.splitlines()[0]
    assert said(g.send(sender, subject, body))[-1] == f'! "{command}": {refused(rule, name)}'
    assert [r["mechanics"] for r in g.json()["rules"] if r["number"] == rule] == [[]]


def test_repealing_rule_1_4_stops_joining_but_not_leaving() -> None:
    g = repeal(Game(), "1-4")
    assert said(g.send("zed@b.test", "x", "Join as Zed")) == [f'! "Join as Zed": {refused("1-4", "Joining and Leaving")}']
    assert said(g.send(DAVE, "x", "Forfeit"))[0].startswith('  "Forfeit"')
    assert [p["name"] for p in g.json()["players"]] == ["Alice", "Bob", "Carol", "Erin"]


def test_repealing_rule_1_8_stops_the_rulekeeper() -> None:  # the command: parametrized above
    control, g = games("1-8")
    for game in (control, g):
        game.send(ALICE, "x", "Take Law")
        game.send(ALICE, "x", "Renumber rule 2-5 to 2-50")
    assert ["2-50" in [r["number"] for r in x.json()["rules"]] for x in (control, g)] == [True, False]


def test_repealing_rule_1_10_drops_an_action_announced_before() -> None:
    g = Game()
    assert said(g.send(BOB, "x", "At 2026-01-05T12:00:00Z: Give m5 to Carol"))[0].startswith('  "At')
    repeal(g, "1-10")
    g.now += timedelta(hours=12)
    g.send(CAROL, "x", "Give m1 to Bob")  # 13:03: the action's moment has passed
    assert (g.player(BOB)["mackerel"], g.player(CAROL)["mackerel"]) == ("m51", "m49")
    assert g.json()["scheduled"] == []


def test_repealing_rule_1_16_refuses_a_transaction() -> None:  # parametrized above
    control, g = games("1-16")
    for game in (control, g):
        game.send(BOB, "x", "BEGIN TRANSACTION\nGive m1 to Carol\nEND TRANSACTION")
    assert [x.player(CAROL)["mackerel"] for x in (control, g)] == ["m51", "m50"]


def test_repealing_rule_2_3_keeps_a_fulfilled_condition_past_the_nweek() -> None:
    control, g = games("2-3")
    for game in (control, g):
        game.state.victory_conditions.append(
            VictoryCondition(name="Tea", fulfilled=True))  # as if Fulfilled before the repeal
        voting_ends(game, {})
    assert [x.json()["victory_conditions"][0]["fulfilled"] for x in (control, g)] == [False, True]


def test_repealing_rule_2_5_stops_consultations_at_midnight() -> None:
    control, g = Game(), Game()
    for game in (control, g):
        game.send(ALICE, "x", "Take Questions")
        game.send(BOB, "Consultation: Tea?", "Surely.")  # the Oracle is Priest (no eligible Player)
        game.send(ALICE, "x", "Answer 1: YES")
    repeal(g, "2-5")
    for game in (control, g):
        game.midnight(5)
    assert [x.json()["consultations"][0]["status"] for x in (control, g)] == ["pondered", "answered"]


def test_repealing_rule_2_6_scores_no_proposal() -> None:
    control, g = games("2-6")
    for game in (control, g):
        game.send(BOB, "Proposal: Tea", "Tea.")
        voting_ends(game, {CAROL: "AGAINST 1", DAVE: "FOR 1", ALICE: "AGAINST 1"})
    # control: Carol, Dave and Alice +1 for voting; Bob's Lost proposal, never Won: -3 from 0 is 0
    assert control.points() == {ALICE: 1, BOB: 0, CAROL: 1, DAVE: 1, "erin@b.test": 0}
    assert g.points() == dict.fromkeys((ALICE, BOB, CAROL, DAVE, "erin@b.test"), 0)


def test_repealing_rule_2_7_sets_no_vote_power_at_ballotday() -> None:
    control, g = games("2-7")
    for game in (control, g):
        game.send(ALICE, "x", SEVEN + "\nClock on")
        game.to_nday(9)
    assert [x.player(BOB)["vote_power"] for x in (control, g)] == ["1", "0"]


def test_repealing_rule_3_5_makes_no_one_active() -> None:
    control, g = games("3-5")
    for game in (control, g):
        game.send(BOB, "Proposal: Tea", "Tea.")
        voting_ends(game, {CAROL: "FOR 1"})
    assert [x.player(CAROL)["active"] for x in (control, g)] == [True, False]


def test_repealing_rule_3_10_stops_gifts() -> None:  # parametrized above
    control, g = games("3-10")
    for game in (control, g):
        game.send(BOB, "x", "Give m5 to Carol")
    assert [x.player(CAROL)["mackerel"] for x in (control, g)] == ["m55", "m50"]


def test_repealing_rule_3_11_stops_the_exchange() -> None:
    control, g = games("3-11")
    for game in (control, g):
        game.state.player(BOB).score = 2  # type: ignore[union-attr]
        game.send(BOB, "x", "Exchange 2 points for mackerel")
    assert [(x.player(BOB)["points"], x.player(BOB)["mackerel"]) for x in (control, g)] == [(0, "m60"), (2, "m50")]


def test_repealing_rule_3_12_keeps_a_device_with_its_owner() -> None:  # parametrized above
    g = repeal(Game(), "3-12")
    g.state.devices.append(Device(number=1, blueprint="Lamp", owner=BOB))
    g.send(BOB, "x", "Destroy device 1")
    assert [d["owner"] for d in g.json()["devices"]] == [BOB]


def test_repealing_rule_3_14_ends_no_auction() -> None:
    control, g = games("3-14")
    for game in (control, g):
        game.state.blueprints.append(Blueprint(name="Crown", unique=True))
        game.send(ALICE, "x", SEVEN + "\nClock on")
    control.send(BOB, "x", "Bid m40 on Crown")
    for game in (control, g):
        game.to_nday(9)
        game.send(ALICE, "x", "Publish ballot\nClock on")
        game.to_nday(11)  # the start of Zarpint: bidding ends
    assert control.json()["devices"] == [{"number": 1, "blueprint": "Crown", "owner": BOB, "attributes": {},
                                          "properties": []}]
    assert (g.json()["devices"], [b["name"] for b in g.json()["blueprints"]]) == ([], ["Crown"])


def test_repealing_rule_5_2_refuses_a_faction() -> None:  # parametrized above
    g = repeal(Game(), "5-2")
    g.send(BOB, "Faction: Guild", "Parties: Bob\nAgreement: https://guild.test/")
    assert g.json()["factions"] == []


def test_repealing_rule_5_3_counts_no_faction_vote_and_decays_nothing() -> None:
    control, g = games("5-3")
    for game in (control, g):
        game.send(BOB, "Faction: Guild", "Parties: Bob\nAgreement: https://guild.test/")
        game.state.factions[0].vote_power = "1"
    assert said(g.send(BOB, "x", "Give allegiance to Guild")) == [
        f'! "Give allegiance to Guild": {refused("5-3", "Factions May Vote")}']
    assert [dict(x.state.vote_powers().factions) for x in (control, g)] == [{"faction:Guild": "1"}, {}]
    for game in (control, g):
        voting_ends(game, {})
    assert [x.json()["factions"][0]["vote_power"] for x in (control, g)] == ["3/4", "1"]


def test_repealing_rule_6_4_fails_a_pending_usurpation() -> None:
    g = Game()
    g.send(ALICE, "x", "Take Law")
    g.send(BOB, "x", "Usurp Law")
    repeal(g, "6-4")
    events = g.midnight(2)
    assert [e.data["why"] for e in events if e.kind == "action_closed"] == ["rule 6-4 is repealed"]
    assert g.json()["ministries"][1]["holder"] == ALICE


def test_repealing_rule_6_5_by_a_passed_proposal_pays_no_minister_and_vacates_nothing() -> None:
    control, g = Game(), Game()
    for game in (control, g):
        game.send(BOB, "Proposal: Keep", "Repeal rule 6-5" if game is g else "Nothing.")
        voting_ends(game, {ALICE: "FOR 1"})
    assert [(x.player(ALICE)["mackerel"], x.json()["ministries"][0]["holder"]) for x in (control, g)] == [
        ("m100", None), ("m50", ALICE)]
    assert [r["mechanics"] for r in g.json()["rules"] if r["number"] == "6-5"] == [[]]


def test_repealing_rule_6_9_refuses_a_miniministry() -> None:  # parametrized above
    g = repeal(Game(), "6-9")
    g.send(ALICE, "x", "Take MoM")
    g.send(ALICE, "x", 'Create miniministry "Tea": brews')
    assert len(g.json()["ministries"]) == 7


def test_repealing_rule_6_10_leaves_an_obligation_unfulfilled() -> None:
    g = Game()
    changes.apply(g.state, ChangeLine(kind="obligation", line="Obligation of Law: tidy up"), "P1",
                  Context(config=g.config, at=g.now))
    g.send(ALICE, "x", "Take Law")
    repeal(g, "6-10")
    g.send(ALICE, "x", "Fulfilled obligation 1: done")
    assert g.json()["obligations"][0]["fulfilled"] is None


def test_a_renumbered_rule_keeps_its_mechanics() -> None:
    g = Game()
    g.send(ALICE, "x", "Take Law")
    assert said(g.send(ALICE, "x", "Renumber rule 6-4 to 6-40")) == ['  "Renumber rule 6-4 to 6-40": '
                                                                     "rule 6-4 is now rule 6-40"]
    assert [r["mechanics"] for r in g.json()["rules"] if r["number"] == "6-40"] == [["usurping Ministries"]]
    assert said(g.send(BOB, "x", "Usurp Law"))[0].startswith('  "Usurp Law": A1')


def test_a_passed_set_line_changes_the_ministers_pay_at_the_same_midnight() -> None:
    control, g = Game(), Game()
    for game in (control, g):
        answer = said(game.send(BOB, "Proposal: Pay", "Ministers earn more.\nSet minister_pay = 70"
                                if game is g else "Nothing."))
        voting_ends(game, {ALICE: "FOR 1"})
    assert answer[0].startswith('  "Proposal: Pay": a proposal, to be numbered by the Chairman, Pending; '
                                "1 change line (Set minister_pay = 70)")
    assert g.json()["parameters"]["minister_pay"] == 70 and control.json()["parameters"]["minister_pay"] == 50
    # 2-2 step 6 (the Set) comes before 6-5's pay at the same midnight: Alice holds seven Ministries,
    # paid once (Reading 25)
    assert [x.player(ALICE)["mackerel"] for x in (control, g)] == ["m100", "m120"]


@pytest.mark.parametrize(("line", "why"), [
    ("Set minister_pay = -1", "minister_pay = -1 is out of bounds (rule 6-5: each Player who is a Minister gains "
     "m50); expected 'Set minister_pay = N' (N a whole number at least 0 and at most 1000000)"),
    ("Set tea = 5", "there is no parameter 'tea' (known: expel_supporters, expel_recent_ndays, max_hit_points, "
     "fail_penalty, exchange_rate, auction_penalty, usurp_objections, minister_pay); expected 'Set NAME = VALUE' (rule 2-2)"),
])
def test_a_set_line_out_of_form_refuses_the_proposal_with_the_form(line: str, why: str) -> None:
    g = Game()
    assert said(g.send(BOB, "Proposal: Pay", f"More.\n{line}")) == [
        f"! \"Proposal: Pay\": '{line}': {why}; nothing done, no number given"]
    assert g.json()["proposals"] == []


PREVIEWED = ("Ministers earn more.\nAmend rule 6-5: At the end of each nweek, each Player who is a Minister gains "
             "m70.\nSet minister_pay = 70\nRepeal rule 6-4\nBob gains 2 points")
PREVIEW = [
    "    --- rule 6-4 (Usurping Ministries)",
    "    +++ rule 6-4 (Usurping Ministries) (repealed)",
    "    @@ -1,4 +0,0 @@",
    "    -A Player may, as a Game Action and without 2 objections in 2 rdays,",
    "    -Usurp a non-Vacant Ministry. In this case, the Ministry is no longer",
    "    -assigned to the previous Minister and is assigned to the Usurper",
    "    -instead.",
    "    --- rule 6-5 (Ministry Rewards and Vacating)",
    "    +++ rule 6-5 (Ministry Rewards and Vacating)",
    "    @@ -1,2 +1 @@",
    "    -At the end of each nweek, each player who is a Minister gains m50.",
    "    -Then, all Ministries become Vacant.",
    "    +At the end of each nweek, each Player who is a Minister gains m70.",
    "    Mechanics: switches off usurping Ministries (rule 6-4 (Usurping Ministries))",
    "    Parameters: minister_pay: 50 -> 70",
    "    To apply by hand: Ministers earn more."]


def test_the_answer_and_the_announcement_preview_what_passing_would_do() -> None:
    g = Game()
    g.send(DAVE, "x", "Take Chairman")
    assert said(g.send(BOB, "Proposal: Pay", PREVIEWED)) == ["\n".join([
        '  "Proposal: Pay": proposal 1, Pending; 4 change lines (Amend rule 6-5: At the end of each nweek, each '
        "Player who is a Minister gains m70.; Set minister_pay = 70; Repeal rule 6-4; Bob gains 2 points); "
        "if it Passes:", *PREVIEW])]
    p = g.state.proposals[0]
    mail = Renderer("bnomic").render("mail/proposal.txt", p=p, author="Bob <bob@b.test>", revised=False,
                                     ls=SimpleNamespace(name="B Nomic"))
    assert mail.split("\n\n", 2)[2].split("\n\nVotes are")[0] == "\n".join([
        "Its change lines, applied if it Passes:", *(f"  {c.line}" for c in p.changes), "", "If it Passes:",
        *PREVIEW])
    assert g.json()["parameters"]["minister_pay"] == 50  # a preview changes nothing
    assert [r["repealed"] for r in g.json()["rules"] if r["number"] == "6-4"] == [False]


def test_a_proposal_without_a_rule_change_has_no_preview() -> None:
    g = Game()
    g.send(DAVE, "x", "Take Chairman")
    assert said(g.send(BOB, "Proposal: Tea", "Tea.\nBob gains 2 points")) == [
        '  "Proposal: Tea": proposal 1, Pending; 1 change line (Bob gains 2 points)']
    assert g.state.proposals[0].preview == []


def test_repealing_rule_2_11_recovers_no_hit_points() -> None:
    control, g = games("2-11")
    for game in (control, g):
        game.state.player(BOB).hit_points = 5  # type: ignore[union-attr]
        game.send(ALICE, "x", SEVEN + "\nClock on")
        game.midnight(1)
    assert [x.player(BOB)["hit_points"] for x in (control, g)] == [6, 5]


def test_repealing_rule_3_9_refuses_a_tidiness_list() -> None:  # parametrized above
    g = repeal(Game(), "3-9")
    g.send(BOB, "Tidiness List", 'Rule 1-1: "B" -> "B."')
    assert g.json()["actions"] == []


def test_repealing_rule_3_16_keeps_the_message() -> None:  # parametrized above
    g = repeal(Game(), "3-16")
    g.send(ALICE, "x", "Take Society\nSet the message of the nweek: Hello")
    assert (g.json()["actions"], g.json()["motnw"]) == ([], "This space intentionally left blank")


def test_repealing_rule_3_17_leaves_the_flag_to_the_panic_buttons() -> None:
    control, g = games("3-17")
    for game in (control, g):
        game.send(BOB, "x", "Hit my Panic Button")
        game.send(CAROL, "x", "Hit my Panic Button")
    assert [x.json()["threat_flag"] for x in (control, g)] == ["Black Watch Plaid", "Pink Ponies"]
