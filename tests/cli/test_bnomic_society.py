"""Issue 30 through the command line, on issue 29's five-player game: a Consultation renumbered and
ZOTTED, another answered, claimed Inconsistent and answered again to Pondered with its Oracularity
applied; the Message of the nweek, a Tidiness List and the Threat Flag; a gift, an exchange and an
auction won by the second bidder after the first's penalty; a Faction's allegiance, vote and decay;
then a whole Emergency to its Refresh Proposal, game time stopped meanwhile; with exact ``nomic
state --json`` after each step, every step of the Emergency mailed to every PEP, and ``nomic replay
--verify`` at the end."""
from __future__ import annotations

from tests.cli.ruleset_play import said
from tests.cli.test_bnomic_game import ALICE, BOB, CAROL, DAVE, ERIN, SEVEN, BNomicPlay, body_of

EVERYONE = [ALICE, BOB, CAROL, DAVE, ERIN]


def money(state: dict) -> list[tuple[str, int, str, str, bool]]:
    """Each Player's points, mackerel, Vote Power and Active."""
    return [(p["email"], p["points"], p["mackerel"], p["vote_power"], p["active"]) for p in state["players"]]


def clock(nweek: int, nday: int, name: str, on: bool, changes: int, rdays: int, ndelay: int = 0) -> dict:
    return {"nweek": nweek, "nday": nday, "nday_name": name, "on": on, "ndelay": ndelay, "voting": nday >= 9,
            "nday_changes": changes, "ndelay_changes": ndelay, "rdays": rdays}


def test_consultations_economy_factions_society_and_an_emergency_by_mail(tmp_path, new_database_url):
    play = BNomicPlay(tmp_path, new_database_url())
    nweek_one(play)
    emergency(play)
    play.verify()
    play.cli("build", "--out", str(tmp_path / "site"))
    page = (tmp_path / "site" / "society.html").read_text()
    assert "<dt>Threat Flag</dt><dd>Jolly Roger</dd>" in page and "No State of Emergency is in force." in page
    assert "Selected: Refresh Proposal 1, Restore" in page and "<li>Erin has 0 Hit Points and is Dead (2-11)</li>" in page
    assert '<li>Rule 1-1: &#34;name of this game&#34; -&gt; &#34;name of the game&#34;</li>' in page
    assert '<a href="society.html">' in (tmp_path / "site" / "index.html").read_text()


def nweek_one(play: BNomicPlay) -> None:
    play.send(ERIN, "Consultation: Is cake a lie?", "It is said so.", "2026-01-05T00:30:00Z")
    said(play, ERIN, '  "Consultation: Is cake a lie?": Consultation 1, Waiting')  # no Oracle yet: no Priest
    play.send(ALICE, "Ministries", SEVEN + "\nClock on\nRenumber consultation 1 to 5\nZOT 5\n"
                                   "Hoist the Polka Dots flag\nSet the message of the nweek: Tea at four",
              "2026-01-05T01:00:00Z")
    said(play, ALICE, *[f'  "Take {m}": you hold the Ministry of {n} (the {t})' for m, n, t in (
        ("Society", "Society", "Registrar"), ("Law", "Law", "Rulekeeper"), ("Change", "Change", "Chairman"),
        ("Questions", "Questions", "Oracle"), ("Foreign Relations", "Foreign Relations", "Ambassador"),
        ("Goods", "Goods", "Artisan"), ("MoM", "Ministry", "MetaMin"))],
         '  "Clock on": the Clock is On: nweek 1, nday 1 (Breakday)',
         '  "Renumber consultation 1 to 5": Consultation 1 is now Consultation 5 (2-5)',
         '  "ZOT 5": Consultation 5 is ZOTTED: it has no further effect (2-5)',
         '  "Hoist the Polka Dots flag": the Threat Flag is Polka Dots (3-17)',
         '  "Set the message of the nweek: Tea at four": A1: the Message of the nweek becomes \'Tea at four\' once a '
         "Player supports it, within 2 ndays (3-16)")
    play.send(BOB, "Yes", "Support A1", "2026-01-05T01:10:00Z")
    play.send(BOB, "Consultation: Is tea a drink?", "Surely.", "2026-01-05T01:20:00Z")
    said(play, BOB, '  "Consultation: Is tea a drink?": Consultation 6, Waiting; its Priest is alice@b.test')
    play.send(ALICE, "Oracle", "Answer 6: YES\nTea is a drink.\nOracularity:\nBob gains 2 points", "2026-01-05T01:30:00Z")
    play.send_all("2026-01-05T01:40:00Z", (CAROL, "Claim", "Claim 6 inconsistent"),
                  (DAVE, "Claim", "Claim 6 inconsistent"), (ERIN, "Claim", "Claim 6 consistent"))
    play.send(CAROL, "Tidiness List", 'Rule 1-1: "name of this game" -> "name of the game"\n'
                                      'Rule 2-11: "Hit Points" -> "Hit-Points"\n'
                                      'Rule 3-16: "Message Of The nweek" -> "Message of the nweek"',
              "2026-01-05T02:00:00Z")
    said(play, CAROL, '  "Tidiness List": A2: the Tidiness List (3 corrections) takes place unless a Player objects '
                      "within 5 ndays (3-9)")
    assert body_of(play.list_mail("A2: tidiness by Carol <carol@b.test>")) == (
        'A2: tidiness of the rules by Carol <carol@b.test>.\n  Rule 1-1: "name of this game" -> "name of the game"\n'
        '  Rule 2-11: "Hit Points" -> "Hit-Points"\n  Rule 3-16: "Message Of The nweek" -> "Message of the nweek"\n'
        'It fails at the first objection ("Object to A2"); else it occurs when its window closes.\n')
    play.send(ALICE, "Blueprint: Crown", "Unique\nAttribute Shine: gold", "2026-01-05T02:10:00Z")
    play.send(DAVE, "Faction: Guild", "Parties: Dave, Erin\nAgreement: https://guild.test/agreement",
              "2026-01-05T02:20:00Z")
    play.send(ERIN, "Loyal", "Give allegiance to Guild", "2026-01-05T02:30:00Z")
    said(play, ERIN, '  "Give allegiance to Guild": Guild\'s Vote Power is 1; yours will be 0 from Ballotday (2-7)')
    play.send(BOB, "Gift", "Give m10.5 to Carol", "2026-01-05T02:40:00Z")
    said(play, BOB, '  "Give m10.5 to Carol": Carol has m60.5, you have m39.5')
    play.send(BOB, "Proposal: Tea", "Tea for all.\nBob gains 1 point", "2026-01-05T02:50:00Z")
    state = play.state()
    assert (state["threat_flag"], state["motnw"]) == ("Polka Dots", "Tea at four")
    assert state["consultations"] == [
        {"number": 5, "supplicant": ERIN, "unbeliever": None, "status": "zotted", "priest": None,
         "former_priests": [], "answer": None, "claims": {}, "oracularity_followed": False},
        {"number": 6, "supplicant": BOB, "unbeliever": None, "status": "answered", "priest": ALICE,
         "former_priests": [], "answer": "YES", "claims": {CAROL: "inconsistent", DAVE: "inconsistent",
                                                           ERIN: "consistent"}, "oracularity_followed": False}]
    assert [(a["number"], a["kind"], a["by"], a["status"], a["supporters"]) for a in state["actions"]] == [
        (1, "motnw", ALICE, "occurred", [BOB]), (2, "tidiness", CAROL, "pending", []),
        (3, "blueprint", ALICE, "pending", [])]
    assert state["factions"] == [{"name": "Guild", "agent": DAVE, "parties": [DAVE, ERIN], "vote_power": "1",
                                  "agreement": "https://guild.test/agreement"}]
    assert money(state) == [(ALICE, 0, "m50", "0", False), (BOB, 0, "m39.5", "0", False),
                            (CAROL, 0, "m60.5", "0", False), (DAVE, 0, "m50", "0", False), (ERIN, 0, "m50", "0", False)]

    play.tick("2026-01-08T00:00:00Z")  # the end of nday 3: the blueprint's window closes
    state = play.state()
    assert state["clock"] == clock(1, 4, "Tango", True, 3, 3)
    assert state["blueprints"] == [{"name": "Crown", "unique": True, "price": "m50", "bids": [],
                                    "attributes": {"Shine": "gold"}, "properties": []}]
    play.send_all("2026-01-08T01:00:00Z", (BOB, "Bid", "Bid m80 on Crown"), (CAROL, "Bid", "Bid m40 on Crown"))

    play.tick("2026-01-09T00:00:00Z")  # the 4th midnight after the Answer: 2 Inconsistent to 1
    assert play.state()["consultations"][1] == {
        "number": 6, "supplicant": BOB, "unbeliever": None, "status": "waiting", "priest": ALICE,
        "former_priests": [ALICE], "answer": None, "claims": {}, "oracularity_followed": False}  # none eligible
    play.send(ALICE, "Oracle", "Answer 6: NO\nNo.\nOracularity:\nBob gains 2 points", "2026-01-09T01:00:00Z")

    play.tick("2026-01-11T00:00:00Z")  # the end of nday 6, five ndays after the Tidiness List's nday
    state = play.state()
    assert [(a["number"], a["status"]) for a in state["actions"]] == [(1, "occurred"), (2, "occurred"),
                                                                      (3, "occurred")]
    rules = {r["number"]: r["text"] for r in state["rules"]}
    assert rules["1-1"] == "The name of the game is B Nomic."
    assert rules["3-16"].startswith("There exists a unique Game Object called the Message of the nweek,")
    assert "There is an attribute \"Hit-Points\"" in rules["2-11"]
    assert money(state)[2] == (CAROL, 1, "m60.5", "0", False)  # 3 corrected: 1 point
    play.send(CAROL, "Swap", "Exchange 1 point for mackerel", "2026-01-11T01:00:00Z")
    said(play, CAROL, '  "Exchange 1 point for mackerel": you have 0 points and m65.5')

    play.tick("2026-01-13T00:00:00Z")  # Ballotday: Erin gave his allegiance, so his Vote Power is 0
    state = play.state()
    assert state["clock"] == clock(1, 9, "Ballotday", False, 8, 8)
    assert [p["vote_power"] for p in state["players"]] == ["1", "1", "1", "1", "0"]
    play.send_all("2026-01-13T01:00:00Z", (ALICE, "V", "FOR 1"), (BOB, "V", "FOR 1"), (CAROL, "V", "AGAINST 1"),
                  (DAVE, "V", "Vote FOR 1 as Guild"))
    play.send(ALICE, "Ballot", "Publish ballot\nClock on", "2026-01-13T02:00:00Z")

    play.tick("2026-01-14T00:00:00Z")  # the 5th midnight after the second Answer: Pondered
    state = play.state()
    assert state["consultations"][1] == {
        "number": 6, "supplicant": BOB, "unbeliever": None, "status": "pondered", "priest": ALICE,
        "former_priests": [ALICE], "answer": "NO", "claims": {}, "oracularity_followed": True}
    assert money(state)[1] == (BOB, 2, "m39.5", "1", False)
    play.tick("2026-01-16T00:00:00Z")  # Zarpint: Bob's m39.5 cannot pay his m80, then or at its end: the penalty
    assert money(play.state())[1] == (BOB, 0, "m39.5", "0", False)

    play.tick("2026-01-17T00:00:00Z")  # the end of Voting and of the nweek; Carol, the second bidder, buys
    state = play.state()
    assert state["clock"] == clock(2, 1, "Breakday", False, 12, 12)
    assert state["blueprints"] == []
    assert state["devices"] == [{"number": 1, "blueprint": "Crown", "owner": CAROL,
                                 "attributes": {"Shine": "gold"}, "properties": []}]
    p = state["proposals"][0]
    assert (p["status"], p["passed"], p["votes"], p["stamina"], p["strength"]) == (
        "historical", True, {ALICE: "FOR", BOB: "FOR", CAROL: "AGAINST", "faction:Guild": "FOR"}, "3", "1")
    # Bob: 0 + 1 (the change line) + 1 (voted) + 2 x 2 Players FOR; Alice paid m50 as a Minister; the Guild's
    # Vote Power x3/4; those who voted are Active (Dave's vote was the Guild's)
    assert money(state) == [(ALICE, 1, "m100", "1", True), (BOB, 6, "m39.5", "0", True),
                            (CAROL, 1, "m25.5", "1", True), (DAVE, 0, "m50", "1", False), (ERIN, 0, "m50", "0", False)]
    assert state["factions"][0]["vote_power"] == "3/4"
    assert state["last_metamin"] == ALICE


def emergency(play: BNomicPlay) -> None:
    play.send(ERIN, "Later", "At 2026-01-18T12:00:00Z: Give m1 to Alice", "2026-01-17T00:30:00Z")
    play.send_all("2026-01-17T01:00:00Z", *[(who, "Panic", "Hit my Panic Button") for who in (ALICE, BOB, CAROL, DAVE)])
    said(play, DAVE, '  "Hit my Panic Button": your Panic Button is On: 4 of 5 Panic Buttons are On (Rule 0)')
    state = play.state()
    assert state["threat_flag"] == "Black Watch Plaid"
    assert state["emergency"] == {  # Alice last held the Ministry of Ministry and is Active: the Coordinator
        "active": True, "coordinator": ALICE, "forum": None, "pause": None, "round": None, "ballot": [], "votes": {},
        "refresh_proposals": [], "selected": None, "peps": EVERYONE,
        "panic_buttons": {ALICE: "on", BOB: "on", CAROL: "on", DAVE: "on", ERIN: "off"}}
    began = [m for m in play.outbox() if m["subject"] == "[B Nomic] Emergency 1: a State of Emergency"]
    assert sorted(a for m in began for a in m["to"]) == EVERYONE  # every PEP hears it
    assert "The Emergency Coordinator is Alice, who last held the Ministry of Ministry." in began[0]["text"]

    play.send(ALICE, "Procedure", "Emergency forum: players@bnomic.test\nInitialize the Pause", "2026-01-17T02:00:00Z")
    said(play, ALICE, '  "Emergency forum: players@bnomic.test": the Emergency Forum is players@bnomic.test; every '
                      "PEP is told (Rule 0, step 3)", '  "Initialize the Pause": the Pause is 0 (Rule 0, step 4)')
    play.send(BOB, "Refresh Proposal: Restore", "Set points of Bob to 10\nSet hit points of Erin to -1\n"
                                                "The Registrar thanks everyone.", "2026-01-17T03:00:00Z")
    said(play, BOB, '  "Refresh Proposal: Restore": Refresh Proposal 1, with 2 change lines')
    play.send(DAVE, "Refresh Proposal: Nothing", "Dave gains 1 point", "2026-01-17T04:00:00Z")

    play.tick("2026-01-22T00:00:00Z")  # five midnights: the Pause is 5, the first-round Ballot
    state = play.state()
    assert state["clock"] == clock(2, 1, "Breakday", False, 12, 12)  # game time is stopped
    assert state["scheduled"] == []  # Erin's action fell in the Emergency: it did not occur
    assert "Subject: [B Nomic] S1 did not occur\n" in play.answer_to(ERIN)
    assert state["emergency"] | {"peps": None, "panic_buttons": None} == {
        "active": True, "coordinator": ALICE, "forum": "players@bnomic.test", "pause": 5, "round": 1,
        "ballot": [1, 2], "votes": {}, "selected": None, "peps": None, "panic_buttons": None,
        "refresh_proposals": [{"number": 1, "by": BOB, "title": "Restore"},
                              {"number": 2, "by": DAVE, "title": "Nothing"}]}
    play.send_all("2026-01-22T01:00:00Z", (ALICE, "V", "Refresh vote 1"), (BOB, "V", "Refresh vote 1"),
                  (CAROL, "V", "Refresh vote 2"), (ERIN, "V", "Refresh vote 1"))
    assert play.state()["emergency"]["votes"] == {ALICE: 1, BOB: 1, CAROL: 2, ERIN: 1}

    play.tick("2026-01-24T00:00:00Z")  # the Pause is 7: 3 votes to 1, Restore is selected and applied
    state = play.state()
    assert state["clock"] == clock(2, 1, "Breakday", False, 12, 12)
    assert state["threat_flag"] == "Jolly Roger"
    assert state["emergency"] == {
        "active": False, "coordinator": None, "forum": None, "pause": None, "round": None, "ballot": [], "votes": {},
        "refresh_proposals": [], "selected": None, "peps": EVERYONE, "panic_buttons": dict.fromkeys(EVERYONE, "off")}
    assert [(p["email"], p["points"], p["hit_points"], p["dead"]) for p in state["players"]] == [
        (ALICE, 1, 10, False), (BOB, 10, 10, False), (CAROL, 1, 10, False), (DAVE, 0, 10, False), (ERIN, 0, 0, True)]
    selected = [m for m in play.outbox() if m["subject"] == "[B Nomic] Emergency 1: a Refresh Proposal selected"]
    assert sorted(a for m in selected for a in m["to"]) == EVERYONE
    assert ("Refresh Proposal 1, 'Restore', is selected (the most votes in round 1); its changes occur: Bob has 10 "
            "points; Erin has 0 Hit Points and is Dead (2-11). Every Panic Button becomes Off (Rule 0, step 12)"
            ) in selected[0]["text"].replace("=\n", "")
    play.send(ALICE, "Done", "Applied refresh 1: the Registrar thanked everyone", "2026-01-24T01:00:00Z")
    said(play, ALICE, '  "Applied refresh 1: the Registrar thanked everyone": recorded: Refresh Proposal 1 '
                      "implemented: the Registrar thanked everyone")
    play.tick("2026-01-25T00:00:00Z")  # game time again: an ndelay
    assert play.state()["clock"] == clock(2, 1, "Breakday", False, 12, 13, ndelay=1)

