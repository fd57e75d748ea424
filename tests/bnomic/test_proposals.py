"""Proposals (2-2, 2-6, 2-7): submission and numbering, revision and withdrawal while Pending,
Votes by line and by reply with the Final Vote, and the end of Voting's seven steps with 2-6's
scoring, exact."""
from __future__ import annotations

from engine.bnomic import voting
from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, ERIN, Game, said

SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"


def ballot(g: Game) -> None:
    """Alice takes every Ministry and runs the Clock to Ballotday."""
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.to_nday(9)


def end_voting(g: Game) -> None:
    g.send(ALICE, "x", "Publish ballot\nClock on")
    g.to_nday(1)


def test_the_end_of_votings_steps_are_2_2s_in_order():
    assert voting.STEPS == ("quorum", "won_or_lost", "dependency_culling", "conflict_culling",
                            "dependency_culling", "pass", "historical")


def test_without_a_chairman_a_proposal_waits_for_its_number_then_gets_the_next_in_order():
    g = Game()
    assert said(g.send(BOB, "Proposal: Tea", "Tea for all.")) == [
        '  "Proposal: Tea": a proposal, to be numbered by the Chairman, Pending; 0 change lines']
    g.send(CAROL, "Proposal: Cake", "Cake.")
    assert [p["number"] for p in g.json()["proposals"]] == [None, None]
    g.send(DAVE, "x", "Take the Chairman")
    assert [p["number"] for p in g.json()["proposals"]] == [1, 2]
    assert said(g.send(ERIN, "Proposal: Pie", "Pie.")) == ['  "Proposal: Pie": proposal 3, Pending; 0 change lines']


def test_with_number_proposals_chairman_the_chairman_numbers_them():
    g = Game(number_proposals="chairman")
    g.send(DAVE, "x", "Take the Chairman")
    g.send(BOB, "Proposal: Tea", "Tea for all.")
    assert g.json()["proposals"][0]["number"] is None
    assert said(g.send(DAVE, "x", "Number proposals")) == ['  "Number proposals": numbered: 1']


def test_a_proposal_needs_a_body_and_existing_conflicts_and_takes_no_number_when_refused():
    g = Game()
    g.send(DAVE, "x", "Take Chairman")
    assert said(g.send(BOB, "Proposal: Empty", "")) == [
        '! "Proposal: Empty": a proposal needs a Body (2-2, Reading 15) (rule 2-2); nothing done, no number given']
    assert said(g.send(BOB, "Proposal: Tea", "Tea.\nConflicts: 4")) == [
        '! "Proposal: Tea": there is no proposal 4 (Reading 15) (rule 2-2); nothing done, no number given']
    g.send(BOB, "Proposal: Tea", "Tea.")
    assert g.json()["proposals"][0]["number"] == 1


def test_revise_and_withdraw_only_the_authors_pending_proposal():
    g = Game()
    g.send(DAVE, "x", "Take Chairman")
    g.send(BOB, "Proposal: Tea", "Tea.")
    assert said(g.send(CAROL, "Revise proposal 1: Coffee", "Coffee.")) == [
        '! "Revise proposal 1: Coffee": proposal 1 is bob@b.test\'s (rule 2-2); nothing done']
    assert said(g.send(BOB, "Revise proposal 1: Green tea", "Green tea.\nBob gains 2 points")) == [
        '  "Revise proposal 1: Green tea": proposal 1 revised; its number and votes stay; 1 change line '
        '(Bob gains 2 points)']
    p = g.json()["proposals"][0]
    assert (p["number"], p["title"], p["body"]) == (1, "Green tea", "Green tea.\nBob gains 2 points")
    assert said(g.send(BOB, "x", "Withdraw 1")) == [
        '  "Withdraw 1": proposal 1 withdrawn: Historical and Lost, scored (2-6)']
    p = g.json()["proposals"][0]
    assert (p["status"], p["success"], p["passed"], p["ever_won"]) == ("historical", "lost", False, False)
    assert said(g.send(BOB, "x", "Withdraw 1")) == ['! "Withdraw 1": proposal 1 is Historical, not Pending (rule 2-2); nothing done']


def test_only_open_proposals_take_votes_and_the_last_vote_is_final():
    g = Game()
    g.send(DAVE, "x", "Take Chairman")
    g.send(BOB, "Proposal: Tea", "Tea.")
    assert said(g.send(CAROL, "x", "FOR 1")) == [
        '! "FOR 1": proposal 1 is Pending: only an Open proposal takes Votes (rule 2-2); nothing done']
    ballot(g)
    assert said(g.send(CAROL, "x", "Vote AGAINST 1")) == [
        '  "Vote AGAINST 1": AGAINST on proposal 1 is your Final Vote (Vote Power 1)']
    assert said(g.send(CAROL, "Re: Tea", "for", reply_to=1)) == [
        '  "for": FOR on proposal 1 is your Final Vote (Vote Power 1)']
    assert said(g.send(DAVE, "x", "MAYBE 1")) == ['! "MAYBE 1": not understood; nothing done']  # Reading 20
    assert said(g.send(DAVE, "x", "Set my vote power to 1/3")) == ['  "Set my vote power to 1/3": your Vote Power is 1/3']
    assert said(g.send(DAVE, "x", "Set my vote power to 0.5")) == [
        '! "Set my vote power to 0.5": your Vote Power is 1/3: it may only be lowered (rule 2-2); nothing done']
    g.send(DAVE, "x", "AGAINST 1")
    p = g.json()["proposals"][0]
    assert (p["votes"], p["stamina"], p["strength"]) == ({CAROL: "FOR", DAVE: "AGAINST"}, "4/3", "2/3")


def test_the_end_of_voting_quorum_culling_passing_and_scoring_exactly():
    g = Game()
    g.send(DAVE, "x", "Take Chairman")
    # nweek 1: make Alice, Bob, Carol and Dave Active (4 Active: the Quorum is Stamina above 2)
    g.send(ERIN, "Proposal: Warm-up", "Nothing.")
    ballot(g)
    for who in (ALICE, BOB, CAROL, DAVE):
        g.send(who, "x", "ABSTAIN 1")
    end_voting(g)
    assert (g.json()["active_players"], g.points()) == (4, dict.fromkeys((ALICE, BOB, CAROL, DAVE, ERIN), 0))
    g.send(DAVE, "x", "Take Chairman")  # the end of the nweek vacated it; Dependencies name numbers
    g.send(ALICE, "Proposal: Tea", "Tea.\nAlice gains 5 points")  # 2
    g.send(BOB, "Proposal: Coffee", "Coffee.\nConflicts: 2\nBob gains 5 points")  # 3: conflicts with 2
    g.send(CAROL, "Proposal: Milk", "Milk.\nDepends on: 3")  # 4: depends on 3
    g.send(DAVE, "Proposal: Quiet", "Hush.")  # 5: too few votes: back to Pending
    g.send(ERIN, "Proposal: Bad", "No.")  # 6: Lost on Strength
    ballot(g)
    votes = {ALICE: "FOR 2\nFOR 3\nFOR 4\nFOR 5\nAGAINST 6", BOB: "FOR 2\nFOR 3\nFOR 4\nAGAINST 6",
             CAROL: "FOR 2\nAGAINST 3\nFOR 4\nFOR 6", DAVE: "AGAINST 3\nABSTAIN 4"}
    for who, lines in votes.items():
        g.send(who, "x", lines)
    end_voting(g)
    got = {p["number"]: (p["status"], p["success"], p["passed"], p["ever_won"], p["stamina"], p["strength"])
           for p in g.json()["proposals"]}
    assert got == {
        1: ("pending", "undecided", False, False, "0", "0"),  # only ABSTAIN, twice: Pending again
        2: ("historical", "won", True, True, "3", "3"),  # Strength 3 beats 3's 0: culls 3
        3: ("historical", "lost", False, False, "4", "0"),  # Strength 0: Lost anyway (Reading 21)
        4: ("historical", "lost", False, True, "3", "3"),  # Won, then culled: it depends on 3
        5: ("pending", "undecided", False, False, "1", "1"),  # Stamina 1 is not above 2
        6: ("historical", "lost", False, False, "3", "-1"),
    }
    # 2-6, in number order: +1 per Player voting FOR or AGAINST on each Historical one; the author of 2
    # (Passed and Won) +2 per FOR (+6), and +5 from its own change line; of 4 (Won, culled) +1 per FOR
    # (+3); of 3 and 6 (never Won) -3, the score going to 0 at most: Bob has 2 when 3 is scored, so
    # he loses 2, then gains 1 for 4 and 1 for 6
    assert g.points() == {ALICE: 4 + 6 + 5, BOB: 2, CAROL: 4 + 3, DAVE: 1, ERIN: 0}
    # 5 went back to Pending with its votes, and opens again at the next Ballotday
    assert g.json()["proposals"][4]["votes"] == {ALICE: "FOR"}
