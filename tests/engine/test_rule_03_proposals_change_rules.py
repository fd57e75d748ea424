"""Rules 3 and 7: a Proposal is a rule change. Its change lines are read on arrival and take
effect, all or nothing, when TIE accepts it, for every submission numbered at or above its own
that is decided from then on, itself included."""
from __future__ import annotations

from tests.engine.imperial_play import ALICE, BOB, CAROL, OFFICER_ROWS, contract_state, scores, IDLE_OFFICERS
from tests.support import EMPEROR

NEW_11 = ("- The Exalted Winner (TEW) shall be the player who first aquires exactly 50 points.\n"
          "Every accepted proposal shall gain its proposer 4 points.")


def row(email: str, score: int, profile: int, entropy: int) -> dict:
    return {"email": email, "name": email.split("@")[0], "score": score, "profile": profile,
            "entropy": entropy, "category": "GP", "probation": False, "active": True, "sealed": False}


def proposal(number: int, author: str, title: str, status: str = "accepted") -> dict:
    return {"number": number, "kind": "proposal", "author": author, "title": title, "status": status,
            "reason": None}


def test_accepted_proposals_amend_rule_11_and_set_accept_points_from_their_own_number_on(play):
    """P2 sets accept_points = 4 and P3 amends rule 11; P1, pending when P2 is accepted, keeps
    the old 3 points (rule 7); P2 itself, P3 and P4 are scored with 4."""
    play.propose(ALICE, "Plain", "Nothing to change.")
    out = play.propose(BOB, "Four points", "Proposals deserve more.\n\nSet accept_points = 4")
    assert ("recorded as Proposal 2, pending before the Emperor; if accepted it will set "
            "accept_points = 4 (now 3) (rule 7: from this Proposal on)") in out
    out = play.propose(CAROL, "Ground rules", f"Say so in rule 11.\nAmend rule 11\n{NEW_11}")
    assert ("recorded as Proposal 3, pending before the Emperor; if accepted it will amend rule 11 "
            "(Some Ground Rules): 2 lines of text (rule 7: from this Proposal on)") in out

    out = play.judge("Accept 2")
    assert ("Proposal 2 accepted: rule changes: accept_points 3 -> 4; +4 points (now 4); "
            "temperature stays 303 K") in out
    assert "Proposal 1 accepted: +3 points (now 3)" in play.judge("Accept 1")  # submitted before P2
    out = play.judge("Accept 3")
    assert ("Proposal 3 accepted: rule changes: rule 11 amended; +4 points (now 4); "
            "temperature 304 -> 306 K") in out
    play.propose(ALICE, "Later", "After both.", at="2026-01-05T03:00:00Z")
    assert "Proposal 4 accepted: +4 points (now 7)" in play.judge("Accept 4", at="2026-01-05T04:00:00Z")

    st = play.state()
    assert contract_state(play) == {
        "game_day": 1, "temperature": 303 + 0 + 1 + 2 + 3, "woodchips": 0, "accept_streak": 4,
        "reject_streak": 0, "it": ALICE, "winner": None, "directive": None,
        "players": [*OFFICER_ROWS, row(ALICE, 7, 21942, 1), row(BOB, 4, 45917, 2), row(CAROL, 4, 44502, 2)],
        "submissions": [proposal(1, ALICE, "Plain"), proposal(2, BOB, "Four points"),
                        proposal(3, CAROL, "Ground rules"), proposal(4, ALICE, "Later")]}
    assert st["variables"]["accept_points"] == 4
    assert st["variable_history"] == [
        {"name": "accept_points", "old": 3, "new": 4, "from_number": 2, "by": "P2"}]
    assert [(s["number"], s["changes"], s["changes_invalid"]) for s in st["submissions"]] == [
        (1, [], None), (2, ["set accept_points = 4 (now 3)"], None),
        (3, ["amend rule 11 (Some Ground Rules): 2 lines of text"], None), (4, [], None)]
    rule_11 = next(r for r in st["rules"] if r["number"] == 11)
    assert (rule_11["title"], rule_11["text"], rule_11["repealed"]) == ("Some Ground Rules", NEW_11, False)
    assert rule_11["amended_by"] == ["P4", "P12", "P29", "P30", "P3"]
    assert [(v["title"], v["by"], v["at"]) for v in rule_11["history"]] == [
        ("Some Ground Rules", None, None), ("Some Ground Rules", "P3", "2026-01-05T02:00:00Z")]
    assert rule_11["history"][-1]["text"] == NEW_11
    assert [e["delta"] for e in st["ledger"]] == [4, 3, 4, 4]
    play.verify()


def test_a_rejected_or_pending_proposal_changes_no_rule(play):
    play.propose(ALICE, "Bell", "Repeal rule 19")
    play.propose(BOB, "Prize", "Set accept_points = 9")
    assert "Proposal 1 rejected: -2 points (now -2)" in play.judge("Reject 1")
    st = play.state()
    assert next(r for r in st["rules"] if r["number"] == 19)["repealed"] is False
    assert st["variables"]["accept_points"] == 3 and st["variable_history"] == []
    assert scores(play) == {**IDLE_OFFICERS, ALICE: -2, BOB: 0}
    play.verify()


def test_an_invalid_change_line_is_named_on_arrival_and_changes_nothing_when_accepted(play):
    out = play.propose(ALICE, "Typo", "Please.\nSet prize = 4")
    assert ("its rule changes cannot be read: there is no game variable 'prize' (known: ") in out
    assert "accepted, it would change no rule" in out
    out = play.propose(BOB, "Stray line", "Repeal rule 19\nand the chimes too")
    assert "its rule changes cannot be read: 'and the chimes too' is not 'Enact rule N: TITLE'" in out
    out = play.judge("Accept 1\nAccept 2")
    assert "Proposal 1 accepted: +3 points (now 3); temperature stays 303 K" in out
    assert "rule changes" not in out
    st = play.state()
    assert [s["changes_invalid"] for s in st["submissions"]] == [
        "there is no game variable 'prize' (known: " + ", ".join(sorted(st["variables"])) + ")",
        "'and the chimes too' is not 'Enact rule N: TITLE', 'Amend rule N', 'Repeal rule N' "
        "or 'Set NAME = VALUE'"]
    assert next(r for r in st["rules"] if r["number"] == 19)["repealed"] is False
    play.verify()


def test_changes_that_no_longer_fit_when_accepted_take_no_effect_all_or_nothing(play):
    """P2 amends rule 20 and sets accept_points = 5; P1 repeals rule 20 first, so P2's changes
    all fail, the variable included, and P2 scores the usual 3."""
    play.propose(ALICE, "No Tivol", "Repeal rule 20")
    play.propose(BOB, "Tivol and prizes", "Set accept_points = 5\nAmend rule 20\nTivol stays.")
    out = play.judge("Accept 1")
    assert ("rule changes: rule 20 (Every Game Should Have A Tivol) repealed (switches off whapping "
            "Tivol)") in out
    out = play.judge("Accept 2")
    assert ("Proposal 2 accepted: its rule changes do not take effect: there is no rule 20 in force; "
            "+3 points (now 3); temperature 303 -> 304 K") in out
    st = play.state()
    assert st["variables"]["accept_points"] == 3 and st["variable_history"] == []
    rule_20 = next(r for r in st["rules"] if r["number"] == 20)
    assert (rule_20["repealed"], rule_20["repealed_from"], rule_20["amended_by"]) == (True, 1, ["P1"])
    play.verify()


def test_the_second_rule_8_is_named_by_its_title(play):
    play.propose(ALICE, "Winning", "Amend rule 8 (Winning the Game): Winning\nThe game ends at TEW.")
    out = play.propose(BOB, "Wrong title", "Repeal rule 8 (Losing the Game)")
    assert "its rule changes cannot be read: there is no rule 8 (Losing the Game) in force" in out
    play.judge("Accept 1")
    eights = [r for r in play.state()["rules"] if r["number"] == 8]
    assert [(r["title"], r["text"], r["amended_by"]) for r in eights] == [
        ("Titular Consistency", "Proposals not containing a title will be ignored.", []),
        ("Winning", "The game ends at TEW.", ["P1"])]
    play.verify()


def test_a_proclamation_and_a_proposal_share_one_syntax_but_only_a_proclamation_says_from(play):
    out = play.propose(ALICE, "Early", "From submission 1\nSet accept_points = 5")
    assert ("its rule changes cannot be read: a Proposal applies from its own number on (rule 7): "
            "'From submission N' is for Proclamations") in out
    out = play.send(EMPEROR, "Proclamation: Same words", "Amend rule 8 (Winning the Game)\nTEW ends it.")
    assert "Proclamation 1 (Same words) applies to submissions from 2 on: rule 8 amended" in out
    play.verify()


def test_an_accepted_proposal_enacts_a_new_rule_from_its_own_number_on(play):
    out = play.propose(ALICE, "Cake rule", "We need cake.\nEnact rule 23: Cake\nEvery player gets cake.")
    assert "if accepted it will enact rule 23: Cake (1 line of text) (rule 7: from this Proposal on)" in out
    assert "rule changes: rule 23 enacted" in play.judge("Accept 1")
    rule = play.state()["rules"][-1]
    assert {k: rule[k] for k in ("number", "title", "text", "amended_by", "repealed", "enacted_from",
                                 "repealed_from")} == {
        "number": 23, "title": "Cake", "text": "Every player gets cake.", "amended_by": ["P1"],
        "repealed": False, "enacted_from": 1, "repealed_from": None}
    assert [(v["title"], v["text"], v["by"]) for v in rule["history"]] == [("Cake", "Every player gets cake.", "P1")]
    play.verify()


def test_a_change_line_not_in_form_is_refused_with_the_form_expected_not_read_as_prose(play):
    """Issue 28: "Amend rule banana" means a change and is not one: the answer names the form."""
    out = play.propose(ALICE, "Bananas", "Bananas for all.\nAmend rule banana\nBananas twice.")
    assert (": recorded as Proposal 1, pending before the Emperor; its rule changes cannot be "
            "read: 'Amend rule banana' is not 'Enact rule N: TITLE', 'Amend rule N', 'Repeal rule N' or "
            "'Set NAME = VALUE' (rule 3); accepted, it would change no rule") in out
    play.verify()
