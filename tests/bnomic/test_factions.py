"""Factions (5-1 to 5-3, 2-7): registered by a Player party, its agent; Allegiance nday 1 to 8 once
a nweek (+1 Vote Power, the Player's 0 from Ballotday); ×3/4 at each nweek's start; the agent's
Votes counted with the Faction's Vote Power and scoring nobody; ceasing with no Player party."""
from __future__ import annotations

from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, ERIN, Game, said

SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"
GUILD = "Parties: Alice, bob\nAgreement: https://guild.test/agreement"


def guild_game() -> Game:
    """Alice holds every Ministry, the Clock is On, and she registers the Guild with Bob."""
    g = Game()
    g.send(ALICE, "x", SEVEN + "\nClock on")
    assert said(g.send(ALICE, "Faction: Guild", GUILD)) == [
        '  "Faction: Guild": Guild is a Faction with Vote Power 0; you are its agent (5-2)']
    return g


def test_a_faction_is_registered_by_a_player_party_with_a_public_agreement_reading_40():
    g = guild_game()
    assert said(g.send(CAROL, "Faction: Union", "Parties: Alice\nAgreement: https://u.test")) == [
        '! "Faction: Union": you must be one of its Parties (rule 5-2); nothing done']
    assert said(g.send(CAROL, "Faction: guild", "Parties: Carol\nAgreement: https://u.test")) == [
        '! "Faction: guild": guild is a Faction or a Player already (rule 5-2); nothing done']
    assert said(g.send(CAROL, "Faction: Dave", "Parties: Carol\nAgreement: https://u.test")) == [
        '! "Faction: Dave": Dave is a Faction or a Player already (rule 5-2); nothing done']
    assert said(g.send(CAROL, "Faction: Union", "Parties: Carol, Zed\nAgreement: https://u.test")) == [
        '! "Faction: Union": there is no Player Zed (rule 5-2); nothing done']
    assert said(g.send(CAROL, "Faction: Union", "Parties: Carol")) == [
        '! "Faction: Union": an \'Agreement: URL\' line must say where the Agreement is public (rule 5-1); nothing done']
    assert said(g.send(BOB, "x", "Parties of Guild: Bob\nDissolve faction Guild")) == [
        '! "Parties of Guild: Bob": only the agent of Guild speaks for it (rule 5-2); nothing done',
        '! "Dissolve faction Guild": only the agent of Guild speaks for it (rule 5-2); nothing done']
    assert g.json()["factions"] == [{"name": "Guild", "agent": ALICE, "parties": [ALICE, BOB], "vote_power": "0",
                                     "agreement": "https://guild.test/agreement"}]


def test_allegiance_votes_and_the_three_quarters_decay_of_a_factions_vote_power():
    g = guild_game()
    g.send(DAVE, "Proposal: Tea", "Tea.\nDave gains 1 point")
    assert said(g.send(ALICE, "x", "Give allegiance to Guild\nGive allegiance to Guild")) == [
        '  "Give allegiance to Guild": Guild\'s Vote Power is 1; yours will be 0 from Ballotday (2-7)',
        '! "Give allegiance to Guild": you have Given your Allegiance this nweek (rule 5-3); nothing done']
    g.send(BOB, "x", "Give allegiance to guild")
    assert said(g.send(CAROL, "x", "Give allegiance to Guild\nGive allegiance to Union")) == [
        '! "Give allegiance to Guild": you are not a party to Guild (rule 5-3); nothing done',
        '! "Give allegiance to Union": there is no Faction Union; nothing done']
    g.to_nday(9)
    assert [(p["email"], p["vote_power"]) for p in g.json()["players"]] == [
        (ALICE, "0"), (BOB, "0"), (CAROL, "1"), (DAVE, "1"), (ERIN, "1")]
    assert said(g.send(BOB, "x", "Give allegiance to Guild\nFOR 1 as Guild")) == [
        '! "Give allegiance to Guild": Allegiance is given from the start of Breakday to the end of Rushnight '
        '(rule 5-3); nothing done',
        '! "FOR 1 as Guild": only the agent of Guild speaks for it (rule 5-2); nothing done']
    assert said(g.send(ALICE, "x", "Vote FOR 1 as Guild\nSet vote power of Guild to 3/2\n"
                                   "Set vote power of Guild to 2")) == [
        '  "Vote FOR 1 as Guild": FOR on proposal 1 is Guild\'s Final Vote (Vote Power 2)',
        '  "Set vote power of Guild to 3/2": Guild\'s Vote Power is 3/2',
        '! "Set vote power of Guild to 2": Guild\'s Vote Power is 3/2: it may only be lowered, to a nonnegative '
        'rational (rule 2-2); nothing done']
    g.send(CAROL, "x", "AGAINST 1")
    tea = g.json()["proposals"][0]
    assert (tea["votes"], tea["stamina"], tea["strength"]) == ({"faction:Guild": "FOR", CAROL: "AGAINST"}, "5/2", "1/2")
    g.send(ALICE, "x", "Publish ballot\nClock on")
    g.to_nday(1)
    tea = g.json()["proposals"][0]
    assert (tea["passed"], tea["strength"]) == (True, "1/2")
    assert g.points() == {ALICE: 0, BOB: 0, CAROL: 1, DAVE: 1, ERIN: 0}  # the Guild's FOR scores nobody
    assert g.json()["factions"][0]["vote_power"] == "9/8"  # 3/2 x 3/4, after the Voting
    g.send(BOB, "x", "Give allegiance to Guild")
    assert g.json()["factions"][0]["vote_power"] == "17/8"
    assert said(g.send(CAROL, "x", "BEGIN TRANSACTION\nAssert vote power of Guild is 2\nEND TRANSACTION")) == [
        '! "BEGIN TRANSACTION": line 1, \'Assert vote power of Guild is 2\', failed: Guild\'s Vote Power is 17/8; '
        'the transaction failed (rule 1-16); nothing done']


def test_a_faction_ceases_when_no_party_is_a_player_or_its_agent_dissolves_it():
    g = guild_game()
    g.send(CAROL, "Faction: Union", "Parties: Carol\nAgreement: https://u.test")
    assert said(g.send(ALICE, "x", "Parties of Guild: Alice, Bob, Erin\nParties of Guild: Bob")) == [
        f'  "Parties of Guild: Alice, Bob, Erin": Guild\'s parties: {ALICE}, {BOB}, {ERIN}',
        '! "Parties of Guild: Bob": the agent stays a party: to leave, \'Dissolve faction\' (rule 5-2); nothing done']
    g.send(ALICE, "x", "Forfeit")
    g.send(BOB, "x", "Forfeit")
    assert [f["name"] for f in g.json()["factions"]] == ["Guild", "Union"]
    events = g.send(ERIN, "x", "Forfeit")
    assert [(e.data["name"], e.data["why"]) for e in events if e.kind == "faction"] == [
        ("Guild", "no party is a Player (5-2)")]
    assert said(g.send(CAROL, "x", "Dissolve faction Union")) == ['  "Dissolve faction Union": Union is no longer a Faction']
    assert g.json()["factions"] == []
