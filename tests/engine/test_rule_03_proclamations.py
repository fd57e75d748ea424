"""Rules 3 and 7: Proclamations enact, amend and repeal rules and set game variables,
for submissions numbered from the next free number on."""
from __future__ import annotations

from tests.support import EMPEROR

from tests.engine.imperial_play import ALICE, BOB, scores, IDLE_OFFICERS


def proclaim(play, title: str, body: str, at: str = "2026-01-05T01:30:00Z") -> str:
    return play.send(EMPEROR, f"Proclamation: {title}", body, at=at)


def test_a_new_number_applies_from_the_next_submission_on(play):
    play.propose(ALICE, "Before")
    out = proclaim(play, "Bigger prizes", "Set accept_points = 4")
    assert "Proclamation 1 (Bigger prizes) applies to submissions from 2 on: accept_points 3 -> 4" in out
    play.propose(BOB, "After")
    play.judge("Accept 1\nAccept 2")
    assert scores(play) == {**IDLE_OFFICERS, ALICE: 3, BOB: 4}
    st = play.state()
    assert st["variables"]["accept_points"] == 4
    assert [(p["number"], p["from_number"], p["changes"]) for p in st["proclamations"]] == [
        (1, 2, ["accept_points 3 -> 4"])]
    play.verify()


def test_a_proclamation_may_say_from_which_submission_it_applies(play):
    play.propose(ALICE, "Pending")
    out = proclaim(play, "Bigger prizes now", "From submission 1\nSet accept_points = 5")
    assert "applies to submissions from 1 on: accept_points 3 -> 5" in out
    play.judge("Accept 1")
    assert scores(play) == {**IDLE_OFFICERS, ALICE: 5}
    assert "submissions are numbered from 1" in proclaim(play, "Zero", "From submission 0\nSet win_score = 9")
    assert "it changes nothing" in proclaim(play, "Only from", "From submission 1")
    play.verify()


def test_enact_amend_and_repeal_keep_every_version(play):
    body = ("Enact rule 23: Cake\nEvery player gets cake.\nOn Sundays.\n"
            "Amend rule 4: Queue\nA player may have at most 3 undecided proposals.\n"
            "Repeal rule 20")
    out = proclaim(play, "Spring cleaning", body)
    assert ("rule 23 enacted; rule 4 amended; rule 20 (Every Game Should Have A Tivol) repealed "
            "(switches off whapping Tivol)") in out
    rules = {r["number"]: r for r in play.state()["rules"]}
    assert (rules[23]["title"], rules[23]["text"]) == ("Cake", "Every player gets cake.\nOn Sundays.")
    assert rules[4]["text"] == "A player may have at most 3 undecided proposals."
    assert [v["by"] for v in rules[4]["history"]] == [None, "Proclamation 1"]
    assert rules[4]["history"][0]["text"].startswith("A player may have at most 2 undecided")
    assert rules[4]["amended_by"] == ["Proclamation 1"]
    assert (rules[20]["repealed"], rules[20]["repealed_from"]) == (True, 1)
    assert [r["number"] for r in play.state()["rules"]][-2:] == [22, 23]
    play.verify()


def test_repealing_a_rule_switches_its_mechanics_off_for_later_submissions(play):
    play.propose(ALICE, "Under rule 12")
    proclaim(play, "No more heat", "Repeal rule 12")
    play.propose(BOB, "After the repeal")
    out = play.judge("Reject 1\nReject 2")
    assert "Proposal 1 rejected: -2 points (now -2); temperature 303 -> 298 K" in out
    assert "Proposal 2 rejected: -2 points (now -2)" in out
    assert play.state()["temperature"] == 298
    play.verify()


def test_a_bad_proclamation_changes_nothing(play):
    out = proclaim(play, "Typo", "Repel rule 20")
    assert ("Proclamation refused: 'Repel rule 20' is not 'Enact rule N: TITLE', 'Amend rule N', "
            "'Repeal rule N' or 'Set NAME = VALUE' (rule 3); nothing changed") in out
    assert "there is no game variable 'prize'" in proclaim(play, "Unknown", "Set prize = 4")
    assert "rule 11 exists; amend it instead" in proclaim(play, "Twice", "Enact rule 11: X\ntext")
    assert "there is no rule 99 in force" in proclaim(play, "Nothing", "Repeal rule 99")
    assert "day_hours cannot be less than 1" in proclaim(play, "Endless", "Set day_hours = 0")
    assert "amend rule 5 has no text" in proclaim(play, "Empty", "Set win_score = 60\nAmend rule 5")
    st = play.state()
    assert st["proclamations"] == [] and st["variables"]["win_score"] == 50
    out = play.send(ALICE, "Proclamation: Mine", "Set accept_points = 100")
    assert ": only the Emperor may do that (rules 3 and 7)" in out
    play.verify()
