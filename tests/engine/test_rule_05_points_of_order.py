"""Rule 5: Points of Order; scoring claims are checked against the ledger, fixed and rewarded."""
from __future__ import annotations

from tests.engine.imperial_play import ALICE, BOB, CAROL, ledger, scores, sub, IDLE_OFFICERS


def alice_has_6(play) -> None:
    play.propose(ALICE, "One")
    play.propose(ALICE, "Two")
    play.judge("Accept 1\nAccept 2")


def test_a_valid_non_scoring_point_of_order_earns_one_point(play):
    play.send(BOB, "Point of Order: Typo", "Rule 4 says 'recieve'.")
    assert "Point of Order 1 accepted: bob@builder.org +1 point (now 1)" in play.judge("Accept 1")
    play.send(BOB, "Point of Order: Another", "Rule 5 too.")
    play.judge("Reject 2")
    assert ledger(play) == [(BOB, 1, 1, "Point of Order 1: a valid non-scoring error (rule 5)")]
    play.verify()


def test_a_claim_is_checked_against_the_ledger_on_arrival(play):
    alice_has_6(play)
    out = play.send(BOB, "Point of Order: Alice's score", "Score of alice should be 4")
    assert ("recorded as Point of Order 3, pending before the Emperor; the ledger gives "
            "alice@wonder.land 6 points; the claim of 4 disagrees") in out
    assert sub(play, 3)["claims"] == [{"player": ALICE, "score": 4, "recorded": 6}]
    out = play.send(BOB, "Point of Order: Nobody", "Score of nobody@x.org should be 4")
    assert "claim about nobody@x.org: there is no such player" in out
    play.verify()


def test_a_malformed_claim_is_refused_with_the_form_expected_not_taken_as_text(play):
    """Issue 28: "Score of x should be banana" is no claim and no prose: the Point of Order is refused."""
    out = play.send(BOB, "Point of Order: Bad claim", "Score of x should be banana")
    assert out.endswith(": 'Score of x should be banana' is not a scoring claim of the form 'Score of PLAYER "
                        "should be N' (N a whole number; rule 5); nothing submitted\n"), out
    assert play.state()["submissions"] == []
    assert BOB not in [p["email"] for p in play.state()["players"]]
    play.verify()


def test_an_error_that_benefits_another_player_is_fixed_and_the_reporter_gains_the_error(play):
    alice_has_6(play)
    play.send(BOB, "Point of Order: Alice's score", "Score of alice@wonder.land should be 4")
    out = play.judge("Accept 3")
    assert ("Point of Order 3 accepted: alice@wonder.land's score is fixed to 4; "
            "bob@builder.org +2 points (now 2)") in out
    assert ledger(play)[-2:] == [(ALICE, -2, 4, "Point of Order 3: score fixed (rule 5)"),
                                 (BOB, 2, 2, "Point of Order 3: pointed out an error of 2 (rule 5)")]
    play.verify()


def test_points_taken_away_are_restored_and_added_to_the_reporter(play):
    alice_has_6(play)
    play.send(CAROL, "Point of Order: Alice lost points", "Score of Alice should be 9")
    play.judge("Accept 3")
    assert scores(play) == {**IDLE_OFFICERS, ALICE: 9, CAROL: 3}
    play.verify()


def test_an_error_affecting_only_the_reporter_is_fixed_without_reward(make_play):
    play = make_play(first_it=CAROL)  # rule 22: It could not raise a Point of Order
    alice_has_6(play)
    play.send(ALICE, "Point of Order: My score", "Score of alice@wonder.land should be 8")
    out = play.judge("Accept 3")
    assert "Point of Order 3 accepted: alice@wonder.land's score is fixed to 8" in out
    assert scores(play) == {**IDLE_OFFICERS, ALICE: 8}
    play.verify()


def test_a_rejected_or_ignored_claim_changes_nothing(play):
    alice_has_6(play)
    play.send(BOB, "Point of Order: A", "Score of alice should be 4")
    play.send(BOB, "Point of Order: B", "Score of alice should be 2")
    out = play.judge("Reject 3\nIgnore 4")  # rule 3's reason is for Proposals only
    assert "Point of Order 4 ignored" in out
    assert scores(play) == {**IDLE_OFFICERS, ALICE: 6, BOB: 0}
    assert [s["status"] for s in play.state()["submissions"]] == ["accepted", "accepted", "rejected", "ignored"]
    play.verify()
