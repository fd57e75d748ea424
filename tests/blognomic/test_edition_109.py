"""Edition "109" (blognomic-109.txt): Captains and a Potentate, and its own conditions."""
from __future__ import annotations

from datetime import timedelta

from engine import machine
from tests.blognomic.support import ADMIN, ALICE, BOB, CAROL, DAVE, FIVE, answers, at, new_game, of

POTENTATE = "pot@blog.test"


def test_109_speaks_of_captains_and_parses_its_rules():
    game = new_game(edition="109")
    assert answers(game.mail(ALICE, "Join", name="Alice")) == [
        "Join: Alice (alice@blog.test) is a Captain; Quorum is now 2"]
    view = game.json()
    assert view["edition"] == "109"
    assert [r["name"] for r in view["rules"][:4]] == ["Ruleset and Gamestate", "Captains", "Idle Captains", "Dynasties"]


def test_109_proposal_enacts_with_quorum_after_12_hours():
    game = new_game(FIVE, edition="109")
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "v", "FOR 1", hours=2)
    game.mail(CAROL, "v", "FOR 1", hours=2)
    assert machine.next_due(game.state, game.config) == at(13)
    game.tick(at(13))
    assert game.state.matters[0].tally_line == "Enacted 3-0 (Quorum 3)"


def test_109_proposal_fails_when_it_could_not_be_enacted_without_against_votes_changing():
    game = new_game(FIVE, edition="109")
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "v", "AGAINST 1", hours=2)
    game.mail(CAROL, "v", "AGAINST 1", hours=2)
    assert game.state.matters[0].status == "pending"  # everyone else FOR would still make Quorum
    assert answers(game.mail(DAVE, "v", "AGAINST 1", hours=3))[-1] == 'Proposal 1 "A": Failed 1-3 (Quorum 3)'


def test_109_proposal_that_cannot_be_enacted_after_48_hours_times_out():
    game = new_game(FIVE, edition="109")
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "v", "AGAINST 1", hours=2)
    assert machine.next_due(game.state, game.config) == at(49)
    game.tick(at(49))
    assert game.state.matters[0].tally_line == "Timed out 1-1"


def test_109_cfj_resolves_on_a_quorum_either_way_or_after_more_than_48_hours():
    game = new_game(FIVE, edition="109")
    game.mail(ALICE, "Call for Judgement: A", hours=1)
    game.mail(ALICE, "Call for Judgement: B", hours=1)
    for voter in (BOB, CAROL, DAVE):
        game.mail(voter, "v", "AGAINST 1", hours=2)
    assert game.state.matters[0].tally_line == "Failed 1-3 (Quorum 3)"
    assert machine.next_due(game.state, game.config) == at(49) + timedelta(seconds=1)
    game.tick(at(50))
    assert (game.state.matters[1].tally_line, game.matter(2)["resolved_at"]) == (
        "Enacted 1-0 (Quorum 3)", "2026-01-07T01:00:01Z")


def test_109_deferential_follows_the_potentate_on_proposals_only():
    game = new_game(FIVE, edition="109", seraphims=(POTENTATE,))
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(ALICE, "Call for Judgement: B", hours=1)
    game.mail(BOB, "v", "DEFERENTIAL 1\nDEFERENTIAL 2", hours=2)
    game.mail(POTENTATE, "v", "AGAINST 1\nAGAINST 2", hours=2)
    assert game.matter(1)["tally"] == {"for": 1, "against": 2, "deferential": 0}
    assert game.matter(2)["tally"] == {"for": 1, "against": 1, "deferential": 1}


def test_109_the_potentate_makes_no_dov_and_lockout_needs_more_against_than_quorum():
    game = new_game(FIVE, edition="109", seraphims=(POTENTATE,))
    assert answers(game.mail(POTENTATE, "Declaration of Victory: Me", hours=1)) == [
        "Declaration of Victory: Me: the Potentate may not make a DoV (rule Victory and Ascension); no Declaration of Victory made"]
    game.mail(ALICE, "Declaration of Victory: Me", hours=1)
    for voter in (BOB, CAROL, DAVE):
        game.mail(voter, "v", "AGAINST 1", hours=2)
    game.tick(at(13))
    assert game.state.matters[0].tally_line == "Failed 1-3 (Quorum 4)"
    assert game.state.dov_lockout == {}  # 3 AGAINST do not exceed Quorum 4
    assert of(game.events, "hiatus")[-1] == {"on": False, "why": "Declaration of Victory 1 failed"}
    assert ADMIN in [p.email for p in game.state.players]


def test_109_knows_no_co_victors():
    game = new_game(FIVE, edition="109")
    game.mail(ALICE, "Declaration of Victory: Us", "Co-Victors: Bob", hours=1)
    assert of(game.events, "matter_opened")[0]["co_victors"] == []
