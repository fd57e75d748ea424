"""Declarations of Victory, Hiatus, a new Dynasty, the Ascension Address, the 120-hour lockout."""
from __future__ import annotations

from tests.blognomic.support import ADMIN, ALICE, BOB, CAROL, DAVE, FIVE, answers, at, new_game, of


def victorious_game(co: str = ""):
    """Alice's DoV enacted at 12h (everyone FOR, no AGAINST)."""
    game = new_game(FIVE)
    game.mail(BOB, "Proposal: Pending one", hours=0.5)
    game.mail(ALICE, "Declaration of Victory: I won", f"Co-Victors: {co}" if co else "I did.", hours=1)
    for voter in (BOB, CAROL, DAVE):
        game.mail(voter, "v", "FOR 2", hours=2)
    game.tick(at(13))
    return game


def test_a_dov_puts_the_game_into_hiatus_and_refuses_proposals():
    game = new_game(FIVE)
    game.mail(ALICE, "Declaration of Victory: I won", hours=1)
    assert game.json()["hiatus"] is True
    assert answers(game.mail(BOB, "Proposal: X", hours=2)) == [
        "Proposal: X: the game is in Hiatus (rule Victory and Ascension); no Proposal made"]
    assert answers(game.mail(BOB, "Call for Judgement: Y", hours=2)) == [
        'Call for Judgement: Y: Call for Judgement 2 "Y" is open for voting; Quorum is 3']


def test_an_enacted_dov_begins_a_dynasty_with_the_victor_as_seraphim():
    game = victorious_game()
    assert [(r["number"], r["tally"]) for r in of(game.events, "resolved")] == [(2, "Enacted 4-0 (Quorum 3)")]
    assert of(game.events, "dynasty") == [{"number": 2, "seraphims": [ALICE], "victor": ALICE, "co_victors": [],
                                           "dov": 2}]
    view = game.json()
    assert (view["dynasty"], view["hiatus"]) == (2, True)
    assert [p["email"] for p in view["players"] if p["seraphim"]] == [ALICE]
    assert answers(game.mail(BOB, "Declaration of Victory: Me too", hours=14)) == [
        "Declaration of Victory: Me too: no DoV may be made between an enacted DoV and its Ascension Address (rule Victory and Ascension); "
        "no Declaration of Victory made"]


def test_the_ascension_address_keeps_repeals_fails_and_renames():
    game = victorious_game()
    assert answers(game.mail(BOB, "Ascension Address: Pirates", hours=14)) == [
        "Ascension Address: Pirates: only a Seraphim of the new Dynasty may do that (rule Victory and Ascension); nothing done"]
    events = game.mail(ALICE, "Ascension Address: Pirates",
                       'Keep rule "Tags"\nRename Pactmaker to Pirate\nRename Seraphim to Captain', hours=14)
    assert answers(events) == [
        "Ascension Address: Pirates: Dynasty 2 begins: Pirates; 15 dynastic rules repealed, 1 Proposal failed"]
    assert of(events, "resolved")[0]["tally"] == "Failed: not kept by the Ascension Address"
    view = game.json()
    assert view["hiatus"] is False
    dynastic = [r["name"] for r in view["rules"] if r["section"] == "dynastic" and not r["repealed"]]
    assert dynastic == ["Tags"]
    votes = next(r for r in view["rules"] if r["name"] == "Votes")
    assert votes["text"].startswith("Each Pirate may cast one Vote") and "the Captains" in votes["text"]
    assert any(r["name"] == "Idle Pirates" for r in view["rules"])
    assert answers(game.mail(BOB, "Join", hours=15)) == ["Join: bob@blog.test is already a Pirate; nothing changed"]


def test_pass_victory_and_stepping_down():
    game = victorious_game()
    assert answers(game.mail(BOB, "x", "Pass victory to Carol", hours=14)) == [
        "Pass victory to Carol: only a Seraphim of the new Dynasty may do that (rule Victory and Ascension); nothing done"]
    assert answers(game.mail(ALICE, "x", "Step down", hours=14)) == [
        "Step down: only a Victor or co-Victor of a collective victory may step down (rule Victory and Ascension); nothing done"]
    assert answers(game.mail(ALICE, "x", "Pass victory to Carol", hours=14)) == [
        "Pass victory to Carol: Carol now heads Dynasty 2"]
    assert [p["email"] for p in game.json()["players"] if p["seraphim"]] == [CAROL]


def test_co_victors_who_all_step_down_make_a_metadynasty():
    game = victorious_game(co="Bob")
    assert of(game.events, "dynasty")[0]["seraphims"] == [ALICE, BOB]
    assert answers(game.mail(ALICE, "x", "Step down", hours=14)) == [
        "Step down: you have stepped down; 1 still heads the Dynasty"]
    assert answers(game.mail(BOB, "x", "Step down", hours=14)) == [
        "Step down: you have stepped down; Dynasty 2 is a Metadynasty and every dynastic rule is repealed"]
    view = game.json()
    assert view["hiatus"] is False
    assert not [r for r in view["rules"] if r["section"] == "dynastic" and not r["repealed"]]


def test_a_failed_dov_with_an_against_vote_locks_its_author_out_for_120_hours():
    game = new_game(FIVE)
    game.mail(ALICE, "Declaration of Victory: I won", hours=1)
    for voter in (BOB, CAROL, DAVE):
        game.mail(voter, "v", "AGAINST 1", hours=2)
    assert game.state.matters[0].status == "pending"  # Unpopular, but not yet open 12 hours
    game.tick(at(13))
    assert game.state.matters[0].tally_line == "Failed 1-3 (Quorum 3)"
    assert game.json()["hiatus"] is False
    assert answers(game.mail(ALICE, "Declaration of Victory: Again", hours=14)) == [
        "Declaration of Victory: Again: your last DoV failed with AGAINST Votes: you may make another after "
        "2026-01-10T13:00:00Z (rule Victory and Ascension); no Declaration of Victory made"]
    assert answers(game.mail(ALICE, "Declaration of Victory: Again", hours=133.5))[0].startswith(
        'Declaration of Victory: Again: Declaration of Victory 2 "Again" is open')


def test_a_dov_with_against_votes_needs_24_hours_unless_the_seraphims_are_for_it():
    game = new_game(FIVE, seraphims=("sera@blog.test",))
    game.mail(ALICE, "Declaration of Victory: I won", hours=1)
    for voter in (BOB, CAROL, DAVE):
        game.mail(voter, "v", "FOR 1", hours=2)
    game.mail(ADMIN, "v", "AGAINST 1", hours=2)
    game.tick(at(13))
    assert game.state.matters[0].status == "pending"
    game.tick(at(25))
    assert (game.state.matters[0].tally_line, game.matter(1)["resolved_at"]) == (
        "Enacted 4-1 (Quorum 4)", "2026-01-06T01:00:00Z")
