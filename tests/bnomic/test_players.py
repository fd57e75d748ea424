"""Players (1-4, 3-5, 3-6): Join as NAME with 1-4's name rules and equivalence, Forfeit, name
changes the Registrar recognizes, Expel with 3 supporters, Active and the Quorum."""
from __future__ import annotations

from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, ERIN, Game, said

ZED = "zed@b.test"
SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"


def test_join_as_name_makes_a_player_with_the_rules_defaults():
    g = Game()
    assert said(g.send(ZED, "Hello", 'Join as  "Zed   Zulu" ')) == [
        '  "Join as  "Zed   Zulu"": Zed Zulu is a Player: m50, 0 points, 10 Hit Points, Vote Power 0, not Active']
    assert g.player(ZED) == {"email": ZED, "name": "Zed Zulu", "pending_name": None, "points": 0, "level": 1,
                             "mackerel": "m50", "vote_power": "0", "active": False, "hit_points": 10, "dead": False,
                             "win_count": 0, "properties": [], "away_until": None}


def test_a_name_must_be_valid_and_not_taken_up_to_case_and_spaces():
    g = Game()
    assert said(g.send(ZED, "x", "Join as  alice ")) == ['! "Join as  alice": the name alice is taken (rule 1-4); nothing done']
    assert said(g.send(ZED, "x", "Join as Zed!")) == [
        '! "Join as Zed!": a name is 1 to 64 letters, digits, spaces, \'_\', \'-\' or "\'" (rule 1-4); nothing done']
    assert said(g.send(ZED, "x", "Join as " + "z" * 65))[0].endswith("(rule 1-4); nothing done")
    assert said(g.send(ZED, "x", "Join")) == ['! "Join": not understood; nothing done']  # Reading 4
    assert [p["email"] for p in g.json()["players"]] == [ALICE, BOB, CAROL, DAVE, ERIN]


def test_only_players_act_and_forfeit_vacates_ministries():
    g = Game()
    assert said(g.send(ZED, "x", "Take MoM")) == [
        '! "Take MoM": only Players may do that: send \'Join as NAME\' to play (rule 1-4); nothing done']
    g.send(BOB, "x", "Take Chairman\nTake Ministry of Law")
    assert said(g.send(BOB, "x", "Forfeit")) == ['  "Forfeit": Bob has forfeited and is no longer a Player']
    assert [m["holder"] for m in g.json()["ministries"]] == [None] * 7
    assert [p["email"] for p in g.json()["players"]] == [ALICE, CAROL, DAVE, ERIN]


def test_a_name_change_takes_effect_when_the_registrar_recognizes_it():
    g = Game()
    assert said(g.send(BOB, "x", "Change name from bob to Robert")) == [
        '  "Change name from bob to Robert": Bob asks to be known as Robert: it takes effect when the Registrar '
        'recognizes it (1-4)']
    assert g.player(BOB)["pending_name"] == "Robert"
    assert said(g.send(CAROL, "x", "Recognize name change of Bob")) == [
        '! "Recognize name change of Bob": only the Registrar may do that, and you do not hold the Ministry now (rule 1-4); '
        'nothing done']
    g.send(CAROL, "x", "Take Registrar")
    assert said(g.send(CAROL, "x", "Recognize name change of Bob")) == [
        '  "Recognize name change of Bob": Bob is now known as Robert']
    assert (g.player(BOB)["name"], g.player(BOB)["pending_name"]) == ("Robert", None)
    assert g.state.player("robert").email == BOB


def test_expel_needs_three_supporters_and_a_recent_player():
    g = Game()
    g.send(ZED, "x", "Join as Zed")
    assert said(g.send(ALICE, "x", "Expel Zed because spam")) == [
        '  "Expel Zed because spam": A1: Zed is expelled with 3 supporters by the end of the nday 2 ndays from now '
        '(1-4, 2-9)']
    assert said(g.send(ALICE, "x", "Support A1")) == [
        '! "Support A1": you attempted A1: no support of your own (rules 2-8 and 2-9); nothing done']
    g.send(BOB, "x", "Support A1")
    assert said(g.send(BOB, "x", "Support action 1")) == [
        '! "Support action 1": you have already supported or objected to A1; nothing done']
    g.send(CAROL, "x", "Support A1")
    g.send(DAVE, "x", "Support A1")
    assert g.json()["actions"] == [{"number": 1, "kind": "expel", "by": ALICE, "status": "occurred",
                                    "supporters": [BOB, CAROL, DAVE], "objectors": []}]
    assert g.state.player(ZED) is None
    assert said(g.send(ERIN, "x", "Support A1")) == ['! "Support A1": A1 has occurred: it takes no support (rules 2-8 and 2-9); nothing done']


def test_an_expulsion_without_support_fails_at_the_end_of_the_second_nday_after():
    g = Game()
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.send(BOB, "x", "Expel Carol because why not")  # nday 1: the window ends at the end of nday 3
    g.send(CAROL, "x", "Support A1")
    g.midnight(2)
    assert g.json()["actions"][0]["status"] == "pending"
    g.midnight(3)
    assert (g.state.clock.nday, g.json()["actions"][0]["status"]) == (4, "failed")


def test_a_player_of_more_than_12_ndays_cannot_be_expelled():
    g = Game()
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.to_nday(9)
    g.send(ALICE, "x", "Publish ballot\nClock on")
    g.to_nday(1)
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.to_nday(2)
    assert g.state.clock.nday_changes == 13
    assert said(g.send(BOB, "x", "Expel Carol because old")) == [
        '! "Expel Carol because old": Carol has been a Player for more than 12 ndays (rule 1-4); nothing done']


def test_usurp_occurs_after_two_rdays_unless_two_object():
    g = Game()
    g.send(ALICE, "x", "Take Chairman\nTake Registrar")
    assert said(g.send(BOB, "x", "Usurp the Chairman")) == [
        '  "Usurp the Chairman": A1: you take the Ministry of Change unless 2 Players object within 2 rdays (6-4)']
    g.send(CAROL, "x", "Usurp Registrar")
    g.send(ALICE, "x", "Object to A2")
    g.send(DAVE, "x", "Object to A2")
    assert g.json()["actions"][1]["status"] == "failed"
    g.midnight(1)
    assert g.json()["actions"][0]["status"] == "pending"
    g.midnight(2)
    assert g.json()["actions"][0]["status"] == "occurred"
    assert [m["holder"] for m in g.json()["ministries"][:3]] == [ALICE, None, BOB]


def test_active_players_are_those_who_voted_in_the_nweek_that_ended_and_the_quorum_is_half():
    g = Game()
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.send(BOB, "Proposal: Tea", "Tea for all.")
    g.to_nday(9)
    assert (g.json()["active_players"], g.json()["quorum_exceeds"]) == (0, "0")  # Reading 19
    g.send(BOB, "x", "FOR 1")
    g.send(CAROL, "x", "ABSTAIN 1")
    g.send(DAVE, "x", "AGAINST 1")
    g.send(ALICE, "x", "Publish ballot\nClock on")
    g.to_nday(1)
    assert [p["active"] for p in g.json()["players"]] == [False, True, True, True, False]
    assert (g.json()["active_players"], g.json()["quorum_exceeds"]) == (3, "3/2")


def test_a_player_who_forfeits_and_rejoins_is_new_with_the_defaults_and_his_final_vote_counts_again():
    """The design's Reading 17: a Final Vote does not count while its voter is no Registered Voter;
    rejoining makes a new Player with the defaults (Vote Power 0 until Ballotday), the same Outsider's
    most recent Vote his again."""
    g = Game(clock_on=True)
    g.send(ALICE, "x", "Take Change")
    g.send(BOB, "Proposal: Tea", "Tea.")
    g.to_nday(9)
    g.send(CAROL, "x", "FOR 1\nGive m20 to Bob")
    assert (g.json()["proposals"][0]["stamina"], g.player(CAROL)["mackerel"]) == ("1", "m30")
    g.send(CAROL, "x", "Forfeit")
    assert (g.json()["proposals"][0]["votes"], g.json()["proposals"][0]["stamina"]) == ({CAROL: "FOR"}, "0")
    assert said(g.send(CAROL, "x", "Join as Carol")) == [
        '  "Join as Carol": Carol is a Player: m50, 0 points, 10 Hit Points, Vote Power 0, not Active']
    assert (g.player(CAROL)["mackerel"], g.player(CAROL)["vote_power"]) == ("m50", "0")
    assert (g.json()["proposals"][0]["votes"], g.json()["proposals"][0]["stamina"]) == ({CAROL: "FOR"}, "0")
    g.send(CAROL, "x", "AGAINST 1")
    assert g.json()["proposals"][0]["votes"] == {CAROL: "AGAINST"}


def test_a_player_who_joins_is_on_the_list_and_the_state_names_the_subscribers():
    """Issue 31: the players hear the game with no Subscribe; ``subscribers`` as Imperial gives them."""
    g = Game()
    g.send(ZED, "Hello", "Join as Zed")
    g.send("reader@x.test", "Subscribe", "Digest on")
    subscribers = {s["email"]: s for s in g.json()["subscribers"]}
    assert set(subscribers) == {ALICE, BOB, CAROL, DAVE, ERIN, ZED, "reader@x.test"}
    assert {k: v for k, v in subscribers[ZED].items() if k != "since"} == {"email": ZED, "digest": False,
                                                                          "plain": False}
    assert subscribers["reader@x.test"]["digest"] is True
