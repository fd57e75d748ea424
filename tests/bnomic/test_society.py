"""Society (3-9, 3-16, 3-17), Hit Points (2-11) and the Oracle's renumbering (2-5): Tidiness Lists
without objection in five ndays, the Message of the nweek with Support once an nweek, the Threat
Flag hoisted once per nday and forced by the Panic Buttons."""
from __future__ import annotations

from engine.bnomic import changes
from engine.context import Context
from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, ERIN, Game, said

SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"


def running() -> Game:
    """A game whose Clock is On at nweek 1 nday 1, Alice holding every Ministry."""
    g = Game()
    g.send(ALICE, "x", SEVEN + "\nClock on")
    assert g.state.clock.on
    return g


def rule_text(g: Game, label: str) -> str:
    return next(r.text for r in g.state.rules if r.label == label)


def test_a_tidiness_list_takes_place_without_objection_after_five_ndays_a_point_per_three_corrected():
    g = running()
    assert rule_text(g, "1-1") == "The name of this game is B Nomic."
    lines = ['Rule 1-1: "name of   this game" -> "name of the game"', 'Rule 2-11: "Hit Points" -> "Hit-Points"',
             'Rule "RPG": "hit points" -> "hit-points"', 'Rule 3-16: "no such words" -> "x"']
    assert said(g.send(CAROL, "Tidiness List", "\n".join(lines))) == [
        '  "Tidiness List": A1: the Tidiness List (4 corrections) takes place unless a Player objects within 5 ndays '
        "(3-9)"]
    closed = [(n, e.data) for n in range(1, 7) for e in g.midnight(n) if e.kind in ("action_closed", "score")]
    assert closed == [(6, {"player": CAROL, "delta": 1, "score": 1,
                           "cause": "Tidiness List A1: 3 errors corrected (3-9)"}),
                      (6, {"number": 1, "kind": "tidiness", "status": "occurred",
                           "why": "3 errors of 4 corrected; 1 point (3-9)"})]
    assert rule_text(g, "1-1") == "The name of the game is B Nomic."
    rpg = rule_text(g, "2-11")
    assert rpg.startswith('There is an attribute "Hit-Points" with a scope') and "whose hit-points have been" in rpg
    assert g.json()["actions"][0] | {"supporters": None} == {
        "number": 1, "kind": "tidiness", "by": CAROL, "status": "occurred", "supporters": None, "objectors": []}


def test_one_objection_fails_a_tidiness_list_and_a_bad_line_refuses_it():
    g = running()
    assert said(g.send(CAROL, "Tidiness List", 'Rule 9-9: "a" -> "b"')) == [
        '! "Tidiness List": line 1: there is no rule 9-9 (rule 3-9); nothing done']
    assert said(g.send(CAROL, "Tidiness List", 'Rule 1-1: "a" -> "b"\nplease fix this')) == [
        '! "Tidiness List": line 2, \'please fix this\', is not like: Rule 2-5: "teh" -> "the" (rule 3-9); nothing done']
    assert said(g.send(CAROL, "Tidiness List", "")) == [
        '! "Tidiness List": a Tidiness List has lines like: Rule 2-5: "teh" -> "the" (rule 3-9); nothing done']
    g.send(CAROL, "Tidiness List", 'Rule 1-1: "B Nomic" -> "B"')
    g.send(DAVE, "x", "Object to A1")
    assert g.json()["actions"][0]["status"] == "failed"
    assert rule_text(g, "1-1") == "The name of this game is B Nomic."


def test_the_message_of_the_nweek_changes_with_one_supporter_once_an_nweek():
    g = running()
    assert said(g.send(BOB, "x", "Set the message of the nweek: Tea")) == [
        '! "Set the message of the nweek: Tea": only the Registrar may do that, and you do not hold the Ministry '
        "now (rule 3-16); nothing done"]
    assert said(g.send(ALICE, "x", "Set the message of the nweek: " + "x" * 257)) == [
        f'! "Set the message of the nweek: {"x" * 257}": the Message is 1 to 256 characters (rule 3-16); nothing done']
    assert said(g.send(ALICE, "x", "Set the message of the nweek: Tea   at four\nSet the message of the nweek: Cake")) == [
        '  "Set the message of the nweek: Tea   at four": A1: the Message of the nweek becomes \'Tea at four\' once a '
        "Player supports it, within 2 ndays (3-16)",
        '  "Set the message of the nweek: Cake": A2: the Message of the nweek becomes \'Cake\' once a Player supports '
        "it, within 2 ndays (3-16)"]
    g.send(BOB, "x", "Support A1")
    assert g.json()["motnw"] == "Tea at four"
    assert said(g.send(CAROL, "x", "Support A2")) == [
        '  "Support A2": your support of A2 is recorded (1 supporting, 0 objecting)']
    assert g.json()["actions"][1]["status"] == "failed"
    assert g.json()["motnw"] == "Tea at four"
    assert said(g.send(ALICE, "x", "Set the message of the nweek: Cake")) == [
        '! "Set the message of the nweek: Cake": the Message of the nweek has changed this nweek already (rule 3-16); '
        "nothing done"]


def test_an_unsupported_message_fails_when_its_window_closes():
    g = running()
    g.send(ALICE, "x", "Set the message of the nweek: Tea")
    assert [e.data["why"] for n in (1, 2, 3) for e in g.midnight(n) if e.kind == "action_closed"] == [
        "0 of 1 supporters"]
    assert g.json()["motnw"] == "This space intentionally left blank"


def test_the_mom_hoists_a_flag_once_per_nday_never_black_watch_plaid():
    g = running()
    assert said(g.send(BOB, "x", "Hoist the Polka Dots flag")) == [
        '! "Hoist the Polka Dots flag": only the MoM may do that, and you do not hold the Ministry now (rule 3-17); nothing done']
    assert said(g.send(ALICE, "x", "Hoist the Black Watch Plaid flag\nHoist the Tartan flag\n"
                                   "Set the Threat Flag to pink   ponies\nHoist the Polka Dots flag\n"
                                   "Hoist the Setting Orange flag")) == [
        '! "Hoist the Black Watch Plaid flag": Black Watch Plaid is hoisted only by the Panic Buttons (rule 3-17); '
        "nothing done",
        '! "Hoist the Tartan flag": there is no flag Tartan: the flags are Pink Ponies, Polka Dots, Setting Orange, '
        "Jolly Roger, Black Watch Plaid (rule 3-17); nothing done",
        '! "Set the Threat Flag to pink   ponies": the Threat Flag is Pink Ponies already (rule 3-17); nothing done',
        '  "Hoist the Polka Dots flag": the Threat Flag is Polka Dots (3-17)',
        '! "Hoist the Setting Orange flag": the MoM changes the Threat Flag at most once per nday, and has this nday '
        "(rule 3-17); nothing done"]
    g.midnight(1)
    assert said(g.send(ALICE, "x", "Hoist the Setting Orange flag")) == [
        '  "Hoist the Setting Orange flag": the Threat Flag is Setting Orange (3-17)']
    assert g.json()["threat_flag"] == "Setting Orange"


def test_two_panic_buttons_force_black_watch_plaid_and_fewer_jolly_roger():
    g = running()
    g.send(BOB, "x", "Hit my Panic Button")
    assert g.json()["threat_flag"] == "Pink Ponies"
    g.send(CAROL, "x", "I am hitting my Panic Button")
    assert g.json()["threat_flag"] == "Black Watch Plaid"
    assert said(g.send(ALICE, "x", "Hoist the Polka Dots flag")) == [
        '  "Hoist the Polka Dots flag": the Polka Dots flag is hoisted, and at once Black Watch Plaid again: 2 or more '
        "Panic Buttons are On (3-17)"]
    assert g.json()["threat_flag"] == "Black Watch Plaid"
    g.send(CAROL, "x", "Stop my Panic Button")
    assert g.json()["threat_flag"] == "Jolly Roger"
    assert said(g.send(ALICE, "x", "Hoist the Pink Ponies flag"))[0].startswith(
        '! "Hoist the Pink Ponies flag": the MoM changes the Threat Flag at most once per nday')


def test_hit_points_are_never_below_zero_and_recover_one_an_nday_up_to_ten():
    g = running()
    g.send(BOB, "Proposal: Hurt", "Set hit points of Bob to -3\nCarol loses 4 hit points\nDave loses 12 hit points\n"
                                  "Erin gains 5 hit points")
    ctx = Context(config=g.config, at=g.now)  # the change lines as a Passed proposal applies them
    results = [changes.apply(g.state, c, "P1", ctx) for c in g.state.proposals[0].changes]
    assert results == ["Bob has 0 Hit Points and is Dead (2-11)", "Carol has 6 Hit Points",
                       "Dave has 0 Hit Points and is Dead (2-11)", "Erin has 15 Hit Points"]
    g.midnight(1)
    g.midnight(2)
    assert {p["email"]: (p["hit_points"], p["dead"]) for p in g.json()["players"]} == {
        ALICE: (10, False), BOB: (0, True), CAROL: (8, False), DAVE: (0, True), ERIN: (15, False)}


def test_the_oracle_renumbers_a_new_consultation_before_its_priest_is_selected():
    g = Game()
    carol = g.state.player(CAROL)
    assert carol is not None
    carol.active = True  # eligible: the Oracle selects a Priest himself (else he is Priest when he takes the Ministry)
    g.send(ALICE, "Consultation: Q?")
    g.send(BOB, "Consultation: R?")
    assert said(g.send(CAROL, "x", "Renumber consultation 1 to 7")) == [
        '! "Renumber consultation 1 to 7": only the Oracle may do that, and you do not hold the Ministry now (rule 2-5); '
        "nothing done"]
    assert said(g.send(DAVE, "x", "Take Questions\nRenumber consultation 1 to 2\nRenumber consultation 1 to 7\n"
                                  "Renumber consultation 3 to 5")) == [
        '  "Take Questions": you hold the Ministry of Questions (the Oracle)',
        '! "Renumber consultation 1 to 2": the number 2 is taken, or not positive (rule 2-5); nothing done',
        '  "Renumber consultation 1 to 7": Consultation 1 is now Consultation 7 (2-5)',
        '! "Renumber consultation 3 to 5": there is no Consultation 3 (rule 2-5); nothing done']
    g.send(ERIN, "Consultation: S?", "Unbeliever: Carol")
    assert said(g.send(DAVE, "x", "Renumber consultation 8 to 9\nZOT 2\nRenumber consultation 2 to 3")) == [
        '! "Renumber consultation 8 to 9": Consultation 8 is no longer new: it has had a Priest (rule 2-5); nothing done',
        '  "ZOT 2": Consultation 2 is ZOTTED: it has no further effect (2-5)',
        '! "Renumber consultation 2 to 3": Consultation 2 is ZOTTED: only a new one is renumbered (rule 2-5); nothing done']
    assert [(q["number"], q["supplicant"], q["priest"]) for q in g.json()["consultations"]] == [
        (7, ALICE, None), (2, BOB, None), (8, ERIN, DAVE)]  # 8: the greatest number + 1


def test_a_flag_hoisted_at_a_midnight_is_in_that_midnights_daily_mail():
    g = running()
    g.send(ALICE, "x", "At the start of nday 2: Hoist the Setting Orange flag")
    daily = [e.data["lines"] for e in g.midnight(1) if e.kind == "daily"]
    assert daily == [["nweek 1, nday 2 (Winday), the Clock is On, ndelay 0", "The Threat Flag is Setting Orange"]]


def test_change_lines_add_and_remove_players_as_a_refresh_proposal_may():
    g = running()
    g.send(BOB, "Proposal: Players", 'Add player "Zed  Zulu" <Zed@b.test>\nAdd player "alice" <al@b.test>\n'
                                     "Remove player Dave\nRemove player Dave")
    ctx = Context(config=g.config, at=g.now)
    results = []
    for c in g.state.proposals[0].changes:
        try:
            results.append(changes.apply(g.state, c, "Refresh Proposal 1", ctx))
        except changes.Refused as why:
            results.append(f"refused: {why}")
    assert results == ["Zed Zulu <zed@b.test> is a Player", "refused: al@b.test or the name alice is a Player already",
                       "Dave is no longer a Player", "refused: there is no Player Dave"]
    assert [(p["email"], p["name"], p["mackerel"]) for p in g.json()["players"]] == [
        (ALICE, "Alice", "m50"), (BOB, "Bob", "m50"), (CAROL, "Carol", "m50"), (ERIN, "Erin", "m50"),
        ("zed@b.test", "Zed Zulu", "m50")]
    assert g.json()["ministries"][0]["holder"] == ALICE
