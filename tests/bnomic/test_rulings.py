"""The readings of B Nomic that the contract leaves open, each as docs/rulings-bnomic.md states it."""
from __future__ import annotations

from engine.events import Event
from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, Game, said

SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"


def run_voting(g: Game) -> None:
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.to_nday(9)


def close_voting(g: Game) -> list[Event]:
    g.send(ALICE, "x", "Publish ballot\nClock on")
    return g.to_nday(1)


def test_conflict_culling_touches_only_open_proposals():
    """A Won proposal that Conflicts with a Historical one leaves that one as it was."""
    g = Game()
    g.send(DAVE, "x", "Take Chairman")
    g.send(BOB, "Proposal: Tea", "Tea.")
    run_voting(g)
    g.send(BOB, "x", "FOR 1")
    close_voting(g)
    g.send(DAVE, "x", "Take Chairman")
    g.send(CAROL, "Proposal: Coffee", "Coffee.\nConflicts: 1")
    run_voting(g)
    g.send(CAROL, "x", "FOR 2")
    g.send(BOB, "x", "FOR 2")
    close_voting(g)
    assert [(p["success"], p["passed"]) for p in g.json()["proposals"]] == [("won", True), ("won", True)]


def test_an_author_who_left_is_not_scored_and_the_voters_still_are():
    g = Game()
    g.send(DAVE, "x", "Take Chairman")
    g.send(BOB, "Proposal: Tea", "Tea.")
    run_voting(g)
    g.send(CAROL, "x", "AGAINST 1")
    g.send(BOB, "x", "Forfeit")
    close_voting(g)
    assert g.points() == {ALICE: 0, CAROL: 1, DAVE: 0, "erin@b.test": 0}


def test_the_ballot_is_published_only_in_the_voting_period():
    g = Game()
    g.send(ALICE, "x", "Take Chairman")
    assert said(g.send(ALICE, "x", "Publish ballot")) == [
        '! "Publish ballot": the Ballot is published in the Voting Period (nday 9 on) (rule 2-2); nothing done']


def test_a_player_cannot_expel_himself():
    g = Game()
    assert said(g.send(BOB, "x", "Expel Bob because tired")) == [
        '! "Expel Bob because tired": to leave, send \'Forfeit\' (rule 1-4); nothing done']


def test_a_loss_of_mackerel_stops_at_m0_and_a_change_line_that_cannot_apply_is_skipped():
    g = Game()
    g.send(DAVE, "x", "Take Chairman")
    g.send(BOB, "Proposal: Fish", "Fish.\nBob loses m70.5\nZed gains 3 points\nCarol gains m0.25")
    run_voting(g)
    g.send(BOB, "x", "FOR 1")
    events = close_voting(g)
    assert (g.player(BOB)["mackerel"], g.player(CAROL)["mackerel"]) == ("m0", "m50.25")
    assert [(e.data["line"], e.data["ok"], e.data["result"]) for e in events if e.kind == "changed"] == [
        ("Bob loses m70.5", True, "Bob has m0"), ("Zed gains 3 points", False, "skipped: there is no Player Zed"),
        ("Carol gains m0.25", True, "Carol has m50.25")]


def test_an_unnumbered_proposal_opens_at_ballotday_and_is_decided_after_the_numbered_ones():
    g = Game(number_proposals="chairman")
    g.send(BOB, "Proposal: Tea", "Tea.")
    g.send(CAROL, "Proposal: Cake", "Cake.")
    run_voting(g)
    g.send(ALICE, "x", "Number proposals")  # numbers 1 (Tea) and 2 (Cake)
    g.send(DAVE, "Proposal: Pie", "Pie.")  # key 3, never numbered: it waits for the next Voting
    g.send(BOB, "Re: Tea", "FOR", reply_to=1)
    events = close_voting(g)
    [ended] = [e for e in events if e.kind == "voting_ended"]
    assert [(r["key"], r["number"], r["result"]) for r in ended.data["results"]] == [
        (1, 1, "PASSED"), (2, 2, "PENDING")]
    g.send(ALICE, "x", "Take Chairman")
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.to_nday(9)
    g.send(ALICE, "x", "Resign Chairman")
    g.send(DAVE, "Proposal: Tart", "Tart.")  # key 4: unnumbered, opens next Ballotday
    assert [(p["key"], p["number"], p["status"]) for p in g.json()["proposals"]] == [
        (1, 1, "historical"), (2, 2, "open"), (3, None, "open"), (4, None, "pending")]
    g.send(CAROL, "Re: Pie", "FOR", reply_to=3)
    g.send(CAROL, "x", "FOR 2")
    g.send(ALICE, "x", "Take Chairman\nPublish ballot\nClock on")
    events = g.to_nday(1)
    [ended] = [e for e in events if e.kind == "voting_ended"]
    assert [(r["key"], r["number"], r["result"]) for r in ended.data["results"]] == [
        (2, 2, "PASSED"), (3, None, "PASSED")]


def test_the_ledger_has_one_entry_per_player_for_his_votes_of_a_voting_then_each_authors():
    g = Game()
    g.send(DAVE, "x", "Take Chairman")
    g.send(BOB, "Proposal: Tea", "Tea.")
    g.send(CAROL, "Proposal: Cake", "Cake.")
    run_voting(g)
    g.send(BOB, "x", "FOR 1\nFOR 2")
    g.send(CAROL, "x", "AGAINST 1\nFOR 2")
    close_voting(g)
    assert [(e.player, e.delta, e.score, e.cause) for e in g.state.ledger] == [
        (BOB, 2, 2, "2-6: voted FOR or AGAINST on 2 proposals"),
        (CAROL, 2, 2, "2-6: voted FOR or AGAINST on 2 proposals"),
        (BOB, -1, 1, "2-6: proposal 1: Failed, never Won"),  # he had 1 when 1 was scored: 2 came after
        (CAROL, 4, 6, "2-6: proposal 2: 2 FOR, Passed")]
