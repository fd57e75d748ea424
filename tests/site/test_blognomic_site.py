"""The site of a BlogNomic game played through the command line: the queue's live vote boards and
when each matter may resolve, every ballot of a matter, the ruleset by section, dynasties,
Pactmakers, mailto: links that fill in a vote; every rebuild a check build, and the same bytes as a
build from scratch."""
from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.cli.ruleset_play import RulesetPlay
from tests.site.checks import Rebuilds, broken_links, facts, pages, parse, rows, site_own, words

ADMIN, ALICE, BOB, CAROL, DAVE = (f"{n}@blog.test" for n in ("admin", "alice", "bob", "carol", "dave"))
CAKE = 'Cake for all.\nEnact rule "Cake": Every Pactmaker may eat *cake*.'


def board(page: Path, scope: str = ".//") -> list[tuple[str, ...]]:
    """A vote board's rows (icon, count, names) as a reader sees them."""
    body = parse(page).find(f"{scope}table[@class='board']/tbody")
    assert body is not None
    return [(words(tr.find("th")), *(words(td) for td in tr.findall("td"))) for tr in body]


def in_queue(number: int) -> str:
    return f".//article[@id='matter-{number}']//"


@pytest.fixture
def game(tmp_path, new_database_url) -> tuple[RulesetPlay, Rebuilds]:
    play = RulesetPlay(tmp_path / "blog", "blognomic", new_database_url(),
                       {"offices": {"seraphims": f'["{CAROL}"]'}, "blognomic": {"daily_mail": "false", "admission": '"auto"'}})
    for i, name in enumerate(("Alice", "Bob", "Dave")):
        play.send(f"{name.lower()}@blog.test", "Join", at=f"2026-01-05T00:1{i}:00Z", name=name)
    return play, Rebuilds(play.dir, tmp_path / "public")


def test_the_queue_shows_each_pending_matter_with_its_live_vote_board(game):
    play, site = game
    play.send(ALICE, "Proposal: Free *cake*", CAKE, at="2026-01-05T01:00:00Z")
    play.send(BOB, "Proposal: Tea", "Tea too.", at="2026-01-05T02:00:00Z")
    play.send(BOB, "votes", "FOR 1", at="2026-01-05T03:00:00Z")
    play.send(DAVE, "votes", "DEFERENTIAL 1", at="2026-01-05T03:10:00Z")
    out = site.build()
    assert board(out / "index.html", in_queue(1)) == [
        ("FOR", "2", "Alice, Bob"), ("DEF→", "0", ""), ("AGAINST", "0", ""), ("DEFERENTIAL", "1", "Dave"),
        ("VETO", "0", ""), ("not yet voted", "2", "Admin, carol")]
    queue = parse(out / "index.html")
    assert words(queue.find(".//article[@id='matter-1']/p[@class='tally']")) == \
        "Valid Votes: 2 FOR, 0 AGAINST; Quorum 3."
    # issue 31: the page says why Alice is FOR without a ballot, and what the DEF→ row is
    assert words(queue.find(".//article[@id='matter-1']/p[@class='board-notes']")) == (
        "Alice has used no FOR or AGAINST: the author's Vote is FOR until they do. DEF→: DEFERENTIAL Votes "
        "count as the Vote of a quorum of the Seraphims once there is one; until then they are not valid.")
    assert [words(li) for li in queue.find(".//article[@id='matter-1']/ul[@class='outlook']")] == [
        "Now: neither Enacted nor Failed: it is not Popular (2 FOR, Quorum 3).",
        "Enactable from: 2026-01-07 01:00 UTC.",  # 48 hours: more than one valid Vote, more FOR than AGAINST
        "May be Failed from: 2026-01-12 01:00 UTC."]  # pending over 7 days
    assert [words(li) for li in queue.find(".//article[@id='matter-2']/ul[@class='outlook']")] == [
        "Now: neither Enacted nor Failed: it is not the oldest pending Proposal (Proposal 1 is).",
        "Resolved after Proposal 1, the oldest pending Proposal."]

    # The Seraphim (a Pactmaker from the start, named by her address) votes FOR: Dave's DEFERENTIAL follows her; Popular, so Enactable at 12 hours.
    play.send(CAROL, "votes", "FOR 1\nVETO 2", at="2026-01-05T04:00:00Z")
    out = site.build()
    assert board(out / "index.html", in_queue(1)) == [
        ("FOR", "3", "carol, Alice, Bob"), ("DEF→FOR", "1", "Dave"), ("AGAINST", "0", ""),
        ("DEFERENTIAL", "0", ""), ("VETO", "0", ""), ("not yet voted", "1", "Admin")]
    assert words(parse(out / "index.html").find(".//article[@id='matter-1']/ul[@class='outlook']/li[2]")) == \
        "Enactable from: 2026-01-05 13:00 UTC."
    assert board(out / "index.html", in_queue(2))[4] == ("VETO", "1", "carol")
    assert words(parse(out / "index.html").find(".//article[@id='matter-2']/p[@class='meta']")) == \
        "By Bob, 2026-01-05 02:00 UTC. Vetoed."


def test_the_vote_links_fill_in_a_vote_on_the_matter(game):
    play, site = game
    play.send(ALICE, "Proposal: Free *cake*", CAKE, at="2026-01-05T01:00:00Z")
    out = site.build()
    links = parse(out / "index.html").findall(".//article[@id='matter-1']//p[@class='vote-links']/a")
    assert [(a.text, a.get("href")) for a in links] == [
        (icon, f"mailto:ths@blog.test?subject=Vote%20on%20Proposal%201&body={icon}%201")
        for icon in ("FOR", "AGAINST", "DEFERENTIAL", "VETO")]
    rows = parse(out / "how-to-play.html").findall(".//table[@class='commands']/tbody/tr")
    assert any(a.get("href", "").startswith("mailto:ths@blog.test") for tr in rows for a in tr.iter("a"))


def test_a_resolved_matter_keeps_every_ballot_and_its_final_board(game):
    play, site = game
    play.send(ALICE, "Proposal: Free *cake*", CAKE, at="2026-01-05T01:00:00Z")
    play.send(BOB, "Proposal: Tea", "Tea too.", at="2026-01-05T02:00:00Z")
    play.send(BOB, "votes", "AGAINST 1", at="2026-01-05T03:00:00Z")
    play.send(DAVE, "votes", "DEFERENTIAL 1", at="2026-01-05T03:10:00Z")
    play.send(BOB, "votes", "FOR 1", at="2026-01-05T03:20:00Z")
    play.send(CAROL, "votes", "FOR 1\nVETO 2", at="2026-01-05T04:00:00Z")
    site.build()
    play.tick("2026-01-05T13:00:00Z")
    out = site.build()

    page = out / "matters" / "1.html"
    doc = parse(page)
    assert words(doc.find(".//h1")) == "Proposal 1: Free cake"
    assert facts(doc.find(".//dl[@class='meta-list']")) == {
        "By": "Alice", "Opened": "2026-01-05 01:00 UTC",
        "Status": "enacted: Enacted 4-0 (Quorum 3), 1 DEF→FOR via the Seraphim",
        "Resolved": "2026-01-05 13:00 UTC by the game, automatically"}
    assert [tuple(words(td) for td in tr.findall("td")) for tr in doc.find(".//table[@class='ballots']/tbody")] == [
        ("1", "2026-01-05 03:00 UTC", "Bob", "AGAINST"), ("2", "2026-01-05 03:10 UTC", "Dave", "DEFERENTIAL"),
        ("3", "2026-01-05 03:20 UTC", "Bob", "FOR"), ("4", "2026-01-05 04:00 UTC", "carol", "FOR")]
    assert board(page) == [("FOR", "3", "carol, Alice, Bob"), ("DEF→FOR", "1", "Dave"), ("AGAINST", "0", ""),
                           ("DEFERENTIAL", "0", ""), ("VETO", "0", "")]
    assert words(doc.find(".//p[@class='board-notes']")) == (
        "Alice has used no FOR or AGAINST: the author's Vote is FOR until they do. "
        "DEF→FOR: DEFERENTIAL Votes, valid and counted as FOR, the Vote of a quorum of the Seraphims.")
    change = doc.find(".//section[@aria-labelledby='text']/ul/li")
    assert (change.text, words(change.find("div"))) == ("Enact rule “Cake” (dynastic):", "Every Pactmaker may eat cake.")
    assert doc.find(".//p[@class='vote-links']") is None

    assert facts(parse(out / "matters" / "2.html").find(".//dl[@class='meta-list']")) == {
        "By": "Bob", "Opened": "2026-01-05 02:00 UTC", "Status": "failed: Vetoed",
        "Resolved": "2026-01-05 13:00 UTC by the game, automatically", "Vetoed": "yes"}
    assert words(parse(out / "index.html").find(".//main")).endswith("Nothing is pending.")
    assert rows(parse(out / "matters" / "index.html").find(".//table")) == [
        ("2", "Tea", "Bob", "Proposal", "failed Vetoed"),
        ("1", "Free cake", "Alice", "Proposal", "enacted Enacted 4-0 (Quorum 3), 1 DEF→FOR via the Seraphim")]

    # "Cake for all." is prose no change line applies: the Admin's mail applying it is on the page
    play.send(ADMIN, "applied", "Applied 1: cake served on *Sunday*", at="2026-01-05T14:00:00Z")
    applied = parse(site.build() / "matters" / "1.html").find(".//ul[@class='by-hand-applied']")
    assert [words(li) for li in applied] == ["2026-01-05 14:00 UTC, Admin: cake served on *Sunday*"]


def test_the_ruleset_by_section_dynasties_and_pactmakers(game):
    play, site = game
    play.send(ALICE, "Proposal: Free *cake*", CAKE, at="2026-01-05T01:00:00Z")
    play.send(BOB, "votes", "FOR 1", at="2026-01-05T03:00:00Z")
    play.send(CAROL, "votes", "FOR 1", at="2026-01-05T04:00:00Z")
    play.send(DAVE, "Idle", at="2026-01-05T05:00:00Z")
    play.tick("2026-01-05T13:00:00Z")
    out = site.build()

    rules = parse(out / "rules" / "index.html")
    sections = [words(h) for h in rules.findall(".//main/section/h2")]
    assert sections == ["Core Rules", "Dynastic Rules", "Appendix"]
    dynastic = rules.find(".//main/section[@aria-labelledby='dynastic']")
    cake = dynastic.findall("article")[-1]
    assert words(cake) == "Cake Version 1; changed by P1. Every Pactmaker may eat cake."
    number = cake.get("id").removeprefix("rule-")
    assert words(parse(out / "rules" / f"{number}.html").find(".//article")) == \
        "Version 1 (current) By P1, 2026-01-05 13:00 UTC. Every Pactmaker may eat cake."
    tags = parse(out / "rules" / "18.html")  # rule Tags: its mechanic; rule Proposals: its numbers
    assert words(tags.find(".//p[@class='mechanics']")) == \
        "The game runs: the [Core] and [Appendix] tags a change to those rules needs."
    assert [words(li) for li in parse(out / "rules" / "8.html").findall(".//ul[@class='parameters']/li")] == [
        'max_pending_proposals = 2 ("unless the Pactmaker already has 2 Proposals pending")',
        'max_daily_proposals = 3 ("or has already made 3 Proposals that day")']
    assert [words(li) for li in parse(out / "rules" / "10.html").findall(".//ul[@class='parameters']/li")] == [
        'enact_hours = 12 ("It has been open for voting for at least 12 hours")',
        'stale_days = 7 ("pending for more than 7 days, it is ignored")']

    assert rows(parse(out / "dynasties.html").find(".//table")) == [("1", "2026-01-05 00:00 UTC", "carol", "", "")]
    assert rows(parse(out / "players" / "index.html").find(".//table")) == [
        ("Admin", "Admin", "2026-01-05 00:00 UTC", "2026-01-05 00:00 UTC"),
        ("carol", "Seraphim", "2026-01-05 04:00 UTC", "2026-01-05 00:00 UTC"),
        ("Alice", "", "2026-01-05 01:00 UTC", "2026-01-05 00:10 UTC"),
        ("Bob", "", "2026-01-05 03:00 UTC", "2026-01-05 00:11 UTC"),
        ("Dave", "idle", "2026-01-05 05:00 UTC", "2026-01-05 00:12 UTC")]
    assert words(parse(out / "players" / "index.html").find(".//main/p")) == \
        "Idle Pactmakers are not counted: Quorum is 3."


def test_every_page_is_valid_html5_with_working_links_and_player_text_escaped(game):
    play, site = game
    play.send(ALICE, 'Proposal: <script>alert(1)</script> "cake"', '<img src=x onerror=alert(1)>\n'
              'Enact rule "<b>Evil</b>": <script>x()</script>', at="2026-01-05T01:00:00Z")
    out = site.build()
    assert len(pages(out)) >= 15
    for page in pages(out):
        doc = parse(page)
        assert doc.findall(".//h1"), page
        own = site_own(doc, page, out)
        assert not [el for el in doc.iter() if el not in own and el.tag in ("script", "img")
                    or any(a.startswith("on") for a in el.keys())], page
    assert broken_links(out) == []
    root = ElementTree.parse(out / "feeds" / "matters.xml").getroot()
    assert root.tag == "{http://www.w3.org/2005/Atom}feed"


def test_every_roll_is_on_the_dice_page_as_its_answer_said(game):
    play, site = game
    said = [play.send(ALICE, "Dice", "Roll DICE6", at="2026-01-05T01:00:00Z"),
            play.send(BOB, "Fruit", "Roll FRUIT", at="2026-01-05T02:00:00Z")]
    results = [line.rsplit(" gives ", 1)[1].strip() for line in said]
    out = site.build()
    doc = parse(out / "dice.html")
    assert rows(doc.find(".//table[@class='rolls']")) == [
        ("1", "2026-01-05 01:00 UTC", "Alice", "DICE6", results[0]),
        ("2", "2026-01-05 02:00 UTC", "Bob", "FRUIT", results[1])]
    assert results[1] in ("Lemon", "Orange", "Kiwi", "Grape", "Cherry", "Tangelo")
    assert [r[1] for r in rows(doc.find(".//table[@class='draws']"))] == [
        f"roll 1: {ALICE} DICE6", f"roll 2: {BOB} FRUIT"]


def test_a_victory_shows_the_new_dynasty_and_its_ascension(game):
    play, site = game
    play.send(ALICE, "Declaration of Victory: I won", "I did.", at="2026-01-05T01:00:00Z")
    out = site.build()
    assert words(parse(out / "index.html").find(".//p[@class='winner']")) == \
        "The game is in Hiatus: Proposals wait until it ends."
    for voter in (BOB, CAROL, DAVE):
        play.send(voter, "v", "FOR 1", at="2026-01-05T02:00:00Z")
    play.tick("2026-01-05T13:00:00Z")
    out = site.build()
    assert rows(parse(out / "dynasties.html").find(".//table")) == [
        ("2", "2026-01-05 13:00 UTC", "Alice", "Alice", "awaiting the Ascension Address"),
        ("1", "2026-01-05 00:00 UTC", "carol", "", "")]
    assert facts(parse(out / "index.html").find(".//section[@class='facts']/dl"))["Seraphims"] == "Alice"

    play.send(ALICE, "Ascension Address: Pirates", "Rename Pactmaker to Pirate\nRename Seraphim to Captain",
              at="2026-01-05T14:00:00Z")
    out = site.build()
    assert rows(parse(out / "dynasties.html").find(".//table"))[0] == (
        "2", "2026-01-05 13:00 UTC", "Alice", "Alice", "Pirates")
    home = parse(out / "index.html")
    assert home.find(".//p[@class='winner']") is None
    assert {k: v for k, v in facts(home.find(".//section[@class='facts']/dl")).items()
            if k in ("Captains", "Pirates")} == {"Captains": "Alice", "Pirates": "5"}
    assert facts(parse(out / "matters" / "1.html").find(".//dl[@class='meta-list']"))["Status"] == \
        "enacted: Enacted 4-0 (Quorum 3)"


@pytest.mark.parametrize("admission", ["admin", "auto"])
def test_applications_wait_on_the_pactmakers_page_and_how_to_play_says_how_to_join(tmp_path, new_database_url,
                                                                                   admission):
    play = RulesetPlay(tmp_path / "blog", "blognomic", new_database_url(),
                       {"blognomic": {"daily_mail": "false", "admission": f'"{admission}"'}})
    play.send(ALICE, "Join", at="2026-01-05T00:10:00Z", name="Alice & Co")
    play.send(BOB, "Join", at="2026-01-05T00:20:00Z")
    play.cli("build", "--out", str(tmp_path / "public"))
    page = tmp_path / "public" / "players" / "index.html"
    join = words(parse(tmp_path / "public" / "how-to-play.html").find(".//main/p"))
    if admission == "auto":
        assert parse(page).find(".//h2[@id='applications']") is None
        assert "Mail Join to become a Pactmaker. Proposals" in join
        return
    assert parse(page).find(".//h2[@id='applications']") is not None
    assert rows(parse(page).findall(".//table")[-1]) == [
        ("Alice & Co", "2026-01-05 00:10 UTC"), ("bob", "2026-01-05 00:20 UTC")]
    assert ("Mail Join to apply: you become a Pactmaker when an Admin adds you to the roster (the answer says your "
            "application waits; you are told when you are admitted). Proposals") in join


def test_a_matters_page_shows_a_set_line_as_the_number_it_sets(game):
    play, site = game
    play.send(ALICE, "Call for Judgement: [Core] Three at once", "Set max_pending_proposals = 3",
              at="2026-01-05T01:00:00Z")
    out = site.build()
    shown = [words(li) for li in parse(out / "matters" / "1.html").iter("li")
             if li.get("class") is None and "max_pending_proposals" in words(li)]
    assert shown == ["Set max_pending_proposals = 3"]
