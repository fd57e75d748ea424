"""Rule 10: game days. "emperor" mode: a day ends at the first announcement of TIE at least
24 hours after it began (New day included); "fixed" mode: every 24 hours at the clock."""
from __future__ import annotations

from tests.support import EMPEROR

from tests.engine.imperial_play import ALICE, BOB, CAROL, sub


def test_a_day_ends_at_the_first_announcement_24_hours_after_it_began(play):
    play.propose(ALICE, "One")
    play.propose(ALICE, "Two")
    play.judge("Accept 1", at="2026-01-05T23:59:00Z")
    assert play.state()["game_day"] == 1
    out = play.judge("Accept 2", at="2026-01-06T01:00:00Z")
    assert "day 1 ended at 2026-01-06 01:00:00 UTC; day 2 begins; " in out
    assert "cooling by 4 K: temperature 311 -> 307 K" in out
    st = play.state()
    assert (st["game_day"], st["day_started"]) == (2, "2026-01-06T01:00:00Z")
    # the announcement's judgments belong to the day it ends
    assert (sub(play, 2)["judged_day"], st["ledger"][1]["day"]) == (1, 1)
    play.judge("Directive: Food", at="2026-01-07T00:59:00Z")
    assert play.state()["game_day"] == 2
    play.judge("Revoke directive", at="2026-01-07T01:00:00Z")
    assert play.state()["game_day"] == 3
    play.verify()


def test_mail_that_is_not_an_announcement_does_not_end_the_day(play):
    play.propose(ALICE, "One", at="2026-01-07T00:00:00Z")
    play.judge("Accept 9", at="2026-01-07T01:00:00Z")  # nothing done: not an announcement
    play.send(EMPEROR, "Proclamation: Nothing", "Repel rule 4", at="2026-01-07T02:00:00Z")
    assert play.state()["game_day"] == 1
    assert play.tick("2026-01-08T00:00:00Z").strip() == "nothing due"
    play.verify()


def test_new_day_ends_a_day_that_is_at_least_24_hours_old(play):
    out = play.judge("New day", at="2026-01-05T20:00:00Z")
    assert ("day 1 began at 2026-01-05 00:00:00 UTC and lasts at least 24 hours (rule 10): "
            "it cannot end before 2026-01-06 00:00:00 UTC; nothing done") in out
    assert play.state()["game_day"] == 1
    assert "day 1 ends now; day 2 begins" in play.judge("New day", at="2026-01-06T00:00:00Z")
    st = play.state()
    assert (st["game_day"], st["day_started"]) == (2, "2026-01-06T00:00:00Z")
    play.verify()


def test_fixed_days_end_every_24_hours_at_the_clock(make_play):
    play = make_play(day_mode="fixed")
    play.propose(ALICE, "One")
    assert play.tick("2026-01-05T23:59:59Z").strip() == "nothing due"
    out = play.tick("2026-01-08T12:00:00Z")  # three boundaries missed: three day ends
    assert "day_end" in out
    st = play.state()
    assert (st["game_day"], st["day_started"]) == (4, "2026-01-08T00:00:00Z")
    assert "in this game a day ends every 24 hours at the clock (rule 10); nothing done" in play.judge(
        "New day", at="2026-01-08T13:00:00Z")
    play.verify()


def test_fixed_days_catch_up_before_a_late_message(make_play):
    play = make_play(day_mode="fixed")
    play.propose(BOB, "One")
    play.propose(CAROL, "Late", at="2026-01-07T05:00:00Z")  # no tick since day 1
    st = play.state()
    assert st["game_day"] == 3 and sub(play, 2)["day"] == 3
    assert play.tick("2026-01-07T23:00:00Z").strip() == "nothing due"
    play.verify()
