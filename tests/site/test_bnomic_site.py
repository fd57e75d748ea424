"""The site of a B Nomic game played through the command line: the Clock with what comes next, the
Ministries, a page per Player and per rule, consultations, the economy and the Factions, as a player
reads them, player text shown as text; every rebuild a check build, and the same bytes as a build
from scratch."""
from __future__ import annotations

import json

import pytest

from nomic.website.bnomic import timing
from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, ERIN, PLAYERS, Game
from tests.cli.ruleset_play import RulesetPlay
from tests.site.checks import Rebuilds, broken_links, facts, pages, parse, rows, site_own, words
from tests.site.test_xss import FORBIDDEN_TAGS, PAYLOADS, scheme

SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"


@pytest.fixture
def game(tmp_path, new_database_url) -> tuple[RulesetPlay, Rebuilds]:
    """Alice holds every Ministry and has started the Clock; Bob has proposed Tea."""
    play = RulesetPlay(tmp_path / "bnomic", "bnomic", new_database_url(), {
        "bnomic": {"players": json.dumps(PLAYERS), "daily_mail": "false"}, "answers": {"per_sender_per_hour": "1000"}})
    play.send(ALICE, "Ministries", SEVEN + "\nClock on", "2026-01-05T01:00:00Z")
    play.send(BOB, "Proposal: Tea", "Tea for all.\nBob gains 2 points", "2026-01-05T02:00:00Z")
    return play, Rebuilds(play.dir, tmp_path / "public")


def main(out, page: str):
    found = parse(out / page).find(".//main")
    assert found is not None
    return found


def items(el) -> list[str]:
    return [words(li) for li in el.iter("li")]


def test_the_clock_consultations_economy_and_factions_as_a_player_reads_them(game):
    play, site = game
    play.send(CAROL, "Consultation: Is tea a drink?", "Rule 3-1 says so.\nUnbeliever: Dave", "2026-01-05T03:00:00Z")
    play.send(ALICE, "Answer", "Answer 1: YES\nTea is a drink.\nOracularity:\nCarol gains 1 point", "2026-01-05T04:00:00Z")
    play.send(BOB, "Claim", "Claim 1 inconsistent", "2026-01-05T05:00:00Z")
    play.send(ALICE, "Blueprint: Lamp", "Non-unique\nPrice: m10\nAttribute Colour: green", "2026-01-05T06:00:00Z")
    play.send(ALICE, "Faction: Guild", "Parties: Alice, Bob\nAgreement: https://guild.test/agreement",
              "2026-01-05T07:00:00Z")
    play.send(ERIN, "Gift", "Give m5 to Dave", "2026-01-05T08:00:00Z")
    play.send(DAVE, "Later", "At the start of nday 3: Give m1 to Erin", "2026-01-05T09:00:00Z")
    out = site.build()
    assert broken_links(out) == []
    clock = main(out, "clock.html")
    assert facts(clock.find(".//section[@class='facts']/dl")) == {
        "nweek": "1", "nday": "1 (Breakday)", "The Clock": "On", "ndelay": "0", "Voting Period": "no",
        "Since the game began": "0 nday changes, 0 ndelay changes, 0 rdays"}
    assert words(clock.find(".//section[@aria-labelledby='next']/p")) == "At 2026-01-06 00:00 UTC: nday 2 (Winday)."
    assert items(clock.find(".//section[@aria-labelledby='next']")) == [
        "A1 (blueprint, by Alice): its window closes after 3 more nday changes (the Clock must be On)",
        "Consultation 1: claims tallied at 2026-01-09 00:00 UTC, Pondered at 2026-01-10 00:00 UTC",
        "1. Dave: At the start of nday 3: Give m1 to Erin"]
    assert items(clock.find(".//section[@aria-labelledby='ndays']"))[:2] == ["Breakday (now)", "Winday"]

    consultation = main(out, "consultations.html").find(".//article[@id='c1']")
    assert words(consultation.find("h2")) == "Consultation 1: Is tea a drink?"
    assert facts(consultation.find("dl")) == {
        "Status": "Answered", "Supplicant": "Carol", "Unbeliever": "Dave", "Priest": "Alice", "Answer": "YES",
        "Claims": "open until 2026-01-09 00:00 UTC, when they are tallied; Pondered at 2026-01-10 00:00 UTC",
        "Oracularity": "not applied yet"}
    assert rows(consultation.find("table")) == [("Bob", "Inconsistent")]
    assert items(consultation) == ["Carol gains 1 point"]

    play.tick("2026-01-08T00:00:00Z")  # the blueprint exists after 2 ndays without 2 objections; Dave's gift ran
    play.send(BOB, "Buy", "Buy Lamp", "2026-01-08T01:00:00Z")
    out = site.build()
    economy = main(out, "economy.html")
    assert rows(economy.find(".//section[@aria-labelledby='mackerel']/table")) == [
        ("Alice", "m50"), ("Bob", "m40"), ("Carol", "m50"), ("Dave", "m54"), ("Erin", "m46")]
    assert rows(economy.find(".//section[@aria-labelledby='blueprints']/table")) == [
        ("Lamp", "non-unique", "m10", "Colour: green", "")]
    assert rows(economy.find(".//section[@aria-labelledby='devices']/table")) == [
        ("1", "Lamp", "Bob", "Colour: green", "")]
    assert rows(main(out, "factions.html").find(".//table")) == [
        ("Guild", "Alice", "Alice, Bob", "https://guild.test/agreement", "0")]
    clock = main(out, "clock.html")
    assert words(clock.find(".//section[@aria-labelledby='next']/p")) == "At 2026-01-09 00:00 UTC: nday 5 (Corvette)."
    assert items(clock.find(".//section[@aria-labelledby='next']")) == [
        "Consultation 1: claims tallied at 2026-01-09 00:00 UTC, Pondered at 2026-01-10 00:00 UTC"]
    bob = main(out, "players/bob.html")
    assert facts(bob.find("dl")) == {
        "Points": "0 (level 1)", "Mackerel": "m40", "Vote Power": "0", "Active": "no", "Hit Points": "10",
        "Win Count": "0", "Ministries": "none", "Factions": "Guild", "Devices": "device 1 (Lamp)"}


def test_a_player_s_page_and_a_rule_s_page_with_its_history(game):
    play, site = game
    play.send(CAROL, "Proposal: Anyone", "Amend rule 3-15: All personal pronouns refer to anyone.",
              "2026-01-05T03:00:00Z")
    play.tick("2026-01-13T00:00:00Z")  # Ballotday
    play.send(ALICE, "Votes", "FOR 1\nFOR 2", "2026-01-13T01:00:00Z")
    play.send(BOB, "Votes", "FOR 1\nABSTAIN 2", "2026-01-13T02:00:00Z")
    play.send(CAROL, "Votes", "FOR 2", "2026-01-13T03:00:00Z")
    out = site.build()
    bob = main(out, "players/bob.html")
    assert facts(bob.find("dl")) == {
        "Points": "0 (level 1)", "Mackerel": "m50", "Vote Power": "1", "Active": "no", "Hit Points": "10",
        "Win Count": "0", "Ministries": "none", "Factions": "none", "Devices": "none"}
    assert [rows(t) for t in bob.iter("table")] == [[("1", "Tea", "open")], [("1", "Tea", "open", "FOR"),
                                                                            ("2", "Anyone", "open", "ABSTAIN")]]
    assert facts(main(out, "players/alice.html").find("dl"))["Ministries"] == (
        "Ministry of Society (Registrar), Ministry of Law (Rulekeeper), Ministry of Change (Chairman), "
        "Ministry of Questions (Oracle), Ministry of Foreign Relations (Ambassador), Ministry of Goods (Artisan), "
        "Ministry of Ministry (MetaMin)")

    play.send(ALICE, "Clock", "Clock on", "2026-01-13T04:00:00Z")
    play.tick("2026-01-17T00:00:00Z")  # the end of Voting: both pass
    out = site.build()
    assert broken_links(out) == []
    bob = main(out, "players/bob.html")
    assert facts(bob.find("dl"))["Points"] == "7 (level 2)"
    assert [rows(t) for t in bob.iter("table")][:2] == [
        [("1", "Tea", "passed")], [("1", "Tea", "passed", "FOR"), ("2", "Anyone", "passed", "ABSTAIN")]]
    # his change line, his Vote, and 2-6's points for an author: +1 per FOR, +1 more as it was Won
    assert rows(bob.find(".//table[@class='ledger']")) == [
        ("1", "2026-01-17 00:00 UTC", "1", "Bob", "+2", "2", "P1: Bob gains 2 points"),
        ("3", "2026-01-17 00:00 UTC", "1", "Bob", "+1", "3", "2-6: voted FOR or AGAINST on 1 proposal"),
        ("5", "2026-01-17 00:00 UTC", "1", "Bob", "+4", "7", "2-6: proposal 1: 2 FOR, Passed")]

    rule = main(out, "rules/3-15.html")
    assert words(rule.find("h1")) == "Rule 3-15: Pronouns"
    assert facts(rule.find("dl")) == {"Section": "Section 3: General", "Versions": "2", "Changed by": "P2"}
    versions = rule.findall(".//article[@class='version']")
    assert [words(v.find("h2")) for v in versions] == ["Version 2 (current): Pronouns", "Version 1: Pronouns"]
    assert words(versions[0].find("p")) == "By P2, 2026-01-17 00:00 UTC."
    assert words(versions[0].find("div")) == "All personal pronouns refer to anyone."
    assert words(versions[1].find("p")) == "As the game began."
    index = main(out, "rules/index.html").find(".//article[@id='rule-3-15']")
    assert index.find("h3/a").get("href") == "3-15.html"
    assert words(index.find("p[last()]")) == "Changed by P2; 2 versions."


def test_an_auction_with_its_bids_on_the_economy_and_clock_pages(game):
    play, site = game
    play.send(ALICE, "Blueprint: Crown", "Unique\nPrice: m20", "2026-01-05T03:00:00Z")
    play.tick("2026-01-08T00:00:00Z")  # the blueprint exists: 2 ndays without 2 objections
    play.send_all("2026-01-08T01:00:00Z", (BOB, "Bid", "Bid m30 on Crown"), (CAROL, "Bid", "Bid m25 on Crown"),
                  (DAVE, "Bid", "Bid m30 on Crown"))
    out = site.build()
    assert broken_links(out) == []
    economy = main(out, "economy.html")
    # 3-14: a unique blueprint's Price is its highest bid; equal bids: the earlier is the higher
    assert rows(economy.find(".//section[@aria-labelledby='blueprints']/table")) == [
        ("Crown", "unique", "m30", "", "")]
    auction = economy.find(".//section[@aria-labelledby='auctions']")
    assert [words(auction.find("h3")), words(auction.find("p"))] == [
        "Crown", "Bidding ends at the start of nday 11 (Zarpint)."]
    assert rows(auction.find("table")) == [("Bob", "m30"), ("Carol", "m25"), ("Dave", "m30")]
    assert items(main(out, "clock.html").find(".//section[@aria-labelledby='next']")) == [
        "Crown: bidding ends at the start of nday 11 (Zarpint)"]


def test_the_ministries_page_shows_holders_miniministries_obligations_and_victory_conditions(game):
    play, site = game
    play.send(ALICE, "Tea", 'Create miniministry "Tea": Brews the tea\nTake Tea', "2026-01-05T03:00:00Z")
    play.send(CAROL, "Proposal: Duties", 'Obligation of Registrar: Publish the roster\n'
              'Create victory condition "Tea party":\nTrigger: Everyone drinks tea\nVictors: Everyone\n'
              "Cleanup: Wash the cups\nPrize: A trophy", "2026-01-05T04:00:00Z")
    play.tick("2026-01-13T00:00:00Z")  # Ballotday
    play.send(ALICE, "Votes", "FOR 2\nClock on", "2026-01-13T01:00:00Z")
    out = site.build()
    page = main(out, "ministries.html")
    assert rows(page.find(".//section[@aria-labelledby='held']/table"))[-2:] == [
        ("Ministry of Ministry", "MetaMin", "Alice", ""), ("Tea", "MiniMin", "Alice", "Brews the tea")]
    assert words(page.find(".//section[@aria-labelledby='held']/p")).endswith("The last MetaMin: Alice.")
    assert words(page.find(".//section[@aria-labelledby='obligations']/p")).startswith("No obligation")

    play.tick("2026-01-17T00:00:00Z")  # proposal 2 passes; every Ministry Vacant, Alice paid m50
    play.send(ALICE, "Again", "Take Registrar\nFulfilled obligation 1: Posted on the list", "2026-01-17T01:00:00Z")
    out = site.build()
    assert broken_links(out) == []
    page = main(out, "ministries.html")
    assert [r[2] for r in rows(page.find(".//section[@aria-labelledby='held']/table"))] == ["Alice"] + ["Vacant"] * 7
    assert rows(page.find(".//section[@aria-labelledby='obligations']/table")) == [
        ("1", "Ministry of Society", "Publish the roster", "P2", "Posted on the list")]
    victory = page.find(".//section[@aria-labelledby='victory']/article")
    assert words(victory.find("h3")) == "Tea party"
    assert facts(victory.find("dl")) == {"Trigger": "Everyone drinks tea", "Victors": "Everyone",
                                         "Cleanup": "Wash the cups", "Prize": "A trophy"}


def test_player_text_on_the_b_nomic_pages_never_runs_as_script(game):
    play, site = game
    script, handler, link = PAYLOADS[0], PAYLOADS[1], PAYLOADS[10]
    play.send(CAROL, f"Consultation: {script}", f"{handler}\n\n{link}", "2026-01-05T03:00:00Z")
    play.send(ALICE, "Answer", f"Answer 1: NO\n{handler}\nOracularity:\nCarol gains 1 point", "2026-01-05T04:00:00Z")
    play.send(ALICE, "Faction: Guild", f"Parties: Alice\nAgreement: javascript:{script}", "2026-01-05T05:00:00Z")
    play.send(ALICE, "Mini", f'Create miniministry "Tea": {handler}', "2026-01-05T06:00:00Z")
    play.send(ALICE, "Blueprint: Lamp", f"Non-unique\nAttribute Colour: {handler}", "2026-01-05T07:00:00Z")
    play.send(BOB, f"Proposal: {script}", f"{handler}\n{link}", "2026-01-05T08:00:00Z")
    play.tick("2026-01-08T00:00:00Z")
    out = site.build()
    for name in ("consultations.html", "factions.html", "economy.html", "ministries.html"):
        html = (out / name).read_text()
        assert "&lt;script&gt;" in html or "&lt;img src=x" in html, name  # shown, as text
    for page in pages(out):
        doc = parse(page)
        ours = site_own(doc, page, out) | ({*doc.iter("form"), *doc.iter("input")} if page.name == "index.html"
                                           and page.parent.name == "list" else set())
        body = doc.find("body")
        assert body is not None
        assert not [el.tag for el in body.iter() if el not in ours and el.tag in FORBIDDEN_TAGS], page
        for el in doc.iter():
            for attr, value in el.attrib.items():
                assert not attr.lower().startswith("on"), f"{page}: {attr}={value!r}"
                if attr in ("href", "src", "action", "data"):
                    assert scheme(value) in ("", "http", "https", "mailto"), f"{page}: {attr}={value!r}"


@pytest.mark.parametrize("nday, on, says", [
    (8, True, "nday 9 (Ballotday): the Voting Period opens, Pending proposals become Open, the Clock stops"),
    (12, True, "Voting ends and nweek 1 with it; nweek 2 begins on nday 1 (Breakday), the Clock Off"),
    (5, False, "the Clock is Off: ndelay 1"),
])
def test_the_clock_page_says_what_the_next_midnight_does(nday, on, says):
    state = Game().state
    state.clock.nday, state.clock.on = nday, on
    assert timing.change(state) == says


def test_the_dependent_actions_name_players_and_ministries_never_addresses(game):
    play, site = game
    play.send(BOB, "Mine", "Usurp the Chairman", "2026-01-05T03:00:00Z")
    play.send("zed@b.test", "Hello", "Join as Zed", "2026-01-05T04:00:00Z")
    play.send(ERIN, "Out", "Expel Zed because he spams the forum", "2026-01-05T05:00:00Z")
    play.send(CAROL, "Support", "Support A2", "2026-01-05T06:00:00Z")
    play.send(DAVE, "Object", "Object to A1", "2026-01-05T07:00:00Z")
    out = site.build()
    page = main(out, "actions.html")
    assert rows(page.find(".//table")) == [
        ("A2", "expel", "Erin", "Zed: he spams the forum", "pending", "Carol", "", "Support A2, Object to A2"),
        ("A1", "usurp", "Bob", "Ministry of Change", "pending", "", "Dave", "Support A1, Object to A1")]
    assert "zed@b.test" not in (out / "actions.html").read_text()
