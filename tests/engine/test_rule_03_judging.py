"""Rule 3: the Emperor judges; ignoring needs a reason; Probation, exactly."""
from __future__ import annotations

from tests.engine.imperial_play import ALICE, BOB, contract_state, ledger, scores, sub, with_variables, IDLE_OFFICERS, OFFICER_ROWS


def test_ignore_needs_a_reason_and_records_it(play):
    play.propose(ALICE, "Cake")
    out = play.judge("Ignore 1")
    assert ("ignoring a Proposal needs its reason from the ruleset (rule 3): "
            "write 'Ignore 1 because ...'; nothing done") in out
    assert sub(play, 1)["status"] == "pending"
    play.judge("Ignore 1 because rule 4 limits the queue")
    s = sub(play, 1)
    assert (s["status"], s["reason"]) == ("ignored", "the Emperor: rule 4 limits the queue (rule 4)")
    play.verify()


def test_bad_judgments_change_nothing(play):
    play.propose(ALICE, "Cake")
    assert "there is no submission 7; nothing done" in play.judge("Accept 7")
    play.judge("Accept 1")
    assert "submission 1 was already accepted; nothing done" in play.judge("Reject 1")
    assert scores(play) == {**IDLE_OFFICERS, ALICE: 3}
    play.verify()


def test_two_consecutive_rejections_put_a_player_on_probation(play):
    play.propose(BOB, "One")
    play.propose(BOB, "Two")
    play.judge("Reject 1")
    out = play.judge("Reject 2")
    assert "bob@builder.org is placed on Probation" in out
    bob = play.player(BOB)
    assert (bob["probation"], bob["score"]) == (True, -4)
    play.verify()


def test_an_ignored_proposal_between_rejections_breaks_the_run(play):
    play.propose(BOB, "One")
    play.propose(BOB, "Two")
    play.judge("Reject 1")
    play.judge("Ignore 2 because it is off topic")
    play.propose(BOB, "Three")
    play.judge("Reject 3")
    assert play.player(BOB)["probation"] is False
    play.verify()


def test_on_probation_a_rejection_is_ignored_with_prejudice_and_changes_nothing(play):
    for n in (1, 2):
        play.propose(BOB, f"P{n}")
        play.judge(f"Reject {n}")
    before = play.state()
    play.propose(BOB, "Three")
    out = play.judge("Reject 3")
    assert ("Proposal 3 ignored (ignored with prejudice: its author was on Probation when it was made (rule 3))") in out
    after = play.state()
    for key in ("temperature", "accept_streak", "reject_streak", "ledger"):
        assert after[key] == before[key]
    assert after["players"] == before["players"]
    assert after["submissions"][2]["status"] == "ignored"
    assert contract_state(play) == {
        "game_day": 1, "temperature": 293, "woodchips": 0, "accept_streak": 0, "reject_streak": 2,
        "it": BOB, "winner": None, "directive": None,
        "players": [*OFFICER_ROWS, {"email": BOB, "name": "bob", "score": -4, "profile": 45917, "entropy": 2,
                     "category": "GP", "probation": True, "active": True, "sealed": False}],
        "submissions": [
            {"number": 1, "kind": "proposal", "author": BOB, "title": "P1", "status": "rejected", "reason": None},
            {"number": 2, "kind": "proposal", "author": BOB, "title": "P2", "status": "rejected", "reason": None},
            {"number": 3, "kind": "proposal", "author": BOB, "title": "Three", "status": "ignored",
             "reason": "ignored with prejudice: its author was on Probation when it was made (rule 3)"}]}
    play.verify()


def test_three_accepted_proposals_end_probation(play):
    for n in (1, 2):
        play.propose(BOB, f"P{n}")
        play.judge(f"Reject {n}")
    answers = []
    for n in (3, 4, 5):
        play.propose(BOB, f"P{n}")
        answers.append(play.judge(f"Accept {n}"))
    assert "bob@builder.org is off Probation" in answers[2]
    assert "Probation" not in answers[1]
    bob = play.player(BOB)
    assert (bob["probation"], bob["score"]) == (False, -4 + 9)
    assert [d for _, d, _, _ in ledger(play)] == [-2, -2, 3, 3, 3]
    play.propose(BOB, "Six")
    play.propose(BOB, "Seven")
    play.judge("Reject 6")
    assert play.player(BOB)["score"] == 3  # a plain rejection again
    play.verify()


def test_the_emperor_may_give_reasons_for_accepting_and_rejecting(play):
    play.propose(ALICE, "Cake")
    out = play.judge("Accept 1 because cake is good")
    assert "Proposal 1 accepted (the Emperor: cake is good): +3 points (now 3)" in out
    assert sub(play, 1)["reason"] == "the Emperor: cake is good"
    play.verify()


def test_consecutive_means_in_the_order_the_proposals_were_made(play):
    """R, A, R by number is no run, though TIE rejected 1 and 3 one after the other."""
    with_variables(play, queue_limit=3)
    for n in (1, 2, 3):
        play.propose(BOB, f"P{n}")
    play.judge("Reject 1")
    out = play.judge("Reject 3")
    assert "Probation" not in out
    play.judge("Accept 2")
    bob = play.player(BOB)
    assert (bob["probation"], bob["score"]) == (False, -2 - 2 + 3)
    play.verify()


def test_rejections_judged_out_of_order_that_are_adjacent_by_number_make_a_run(play):
    """P1 and P2 rejected, in the order 2 then 1: consecutive as made, so Probation."""
    with_variables(play, queue_limit=3)
    for n in (1, 2, 3):
        play.propose(BOB, f"P{n}")
    assert "Probation" not in play.judge("Reject 2")
    out = play.judge("Reject 1")
    assert "bob@builder.org is placed on Probation (Proposals 1, 2 rejected)" in out
    assert "Proposal 3 rejected: -2 points (now -6)" in play.judge("Reject 3")  # made before Probation
    assert [(s["number"], s["status"], s["reason"]) for s in play.state()["submissions"]] == [
        (1, "rejected", None), (2, "rejected", None), (3, "rejected", None)]
    assert play.player(BOB)["probation"] is True
    play.verify()


def test_only_a_proposal_made_on_probation_is_ignored_with_prejudice(play):
    """P3 made before Probation and rejected after it is an ordinary rejection; P4, made on
    Probation, is ignored with prejudice and changes nothing."""
    with_variables(play, queue_limit=3)
    for n in (1, 2, 3):
        play.propose(BOB, f"P{n}")
    play.judge("Reject 1")
    play.judge("Reject 2")
    play.propose(BOB, "P4", at="2026-01-05T03:00:00Z")
    play.judge("Reject 3", at="2026-01-05T04:00:00Z")
    before = play.state()
    out = play.judge("Reject 4", at="2026-01-05T05:00:00Z")
    assert ("Proposal 4 ignored (ignored with prejudice: its author was on Probation when it was "
            "made (rule 3))") in out
    after = play.state()
    assert contract_state(play) == {
        "game_day": 1, "temperature": 288, "woodchips": 0, "accept_streak": 0, "reject_streak": 3,
        "it": BOB, "winner": None, "directive": None,
        "players": [*OFFICER_ROWS, {"email": BOB, "name": "bob", "score": -6, "profile": 45917,
                                    "entropy": 2, "category": "GP", "probation": True, "active": True,
                                    "sealed": False}],
        "submissions": [
            {"number": n, "kind": "proposal", "author": BOB, "title": f"P{n}", "status": "rejected",
             "reason": None} for n in (1, 2, 3)] + [
            {"number": 4, "kind": "proposal", "author": BOB, "title": "P4", "status": "ignored",
             "reason": "ignored with prejudice: its author was on Probation when it was made (rule 3)"}]}
    for key in ("temperature", "accept_streak", "reject_streak", "ledger", "players"):
        assert after[key] == before[key]
    play.verify()
