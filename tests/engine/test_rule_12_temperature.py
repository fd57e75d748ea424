"""Rule 12: the game temperature, exactly."""
from __future__ import annotations
from tests.support import EMPEROR, SCRIBE

from tests.engine.imperial_play import (
    ALICE, BOB, CAROL, ZED, die, join, ledger, rule_ledger, scores, with_variables, IDLE_OFFICERS
)

DAVE = "dave@d.org"


def accept_in_pairs(play, author: str, count: int, first: int, hour: int = 2) -> list[str]:
    """``count`` Proposals by ``author``, submitted and accepted two at a time (rule 4's queue)."""
    answers = []
    for n in range(first, first + count):
        play.propose(author, f"P{n}", at=f"2026-01-05T{hour:02d}:00:00Z")
        answers.append(play.judge(f"Accept {n}", at=f"2026-01-05T{hour:02d}:30:00Z"))
    return answers


def test_accepted_streak_heats_by_the_streak_up_to_10(make_play):
    play = with_variables(make_play(), overheat_limit=1000, meltdown_limit=2000)
    answers = accept_in_pairs(play, ALICE, 12, 1)
    # previously accepted in an unbroken streak: 0, 1, ..., 11 -> min(streak, 10)
    assert "temperature stays 303 K" in answers[0]
    assert "temperature 303 -> 304 K" in answers[1]
    assert "temperature 358 -> 368 K" in answers[11]
    st = play.state()
    assert (st["temperature"], st["accept_streak"], st["reject_streak"]) == (368, 12, 0)
    assert scores(play) == {**IDLE_OFFICERS, ALICE: 36}
    play.verify()


def test_rejections_cool_by_the_reject_streak_but_at_least_5(play):
    players = [ALICE, BOB, CAROL, DAVE]
    n = 0
    for round_ in range(2):  # two rejections each: the Probation limit
        for p in players:
            n += 1
            play.propose(p, f"P{n}")
            play.judge(f"Reject {n}")
    st = play.state()
    # streaks before each rejection 0..7: -5 six times, then -6, -7
    assert st["temperature"] == 303 - 5 * 6 - 6 - 7 == 260
    assert (st["reject_streak"], st["accept_streak"]) == (8, 0)
    play.verify()


def test_an_ignored_proposal_cools_and_breaks_both_streaks(play):
    play.propose(ALICE, "One")
    play.propose(ALICE, "Two")
    play.judge("Accept 1")
    play.judge("Accept 2")
    play.propose(BOB, "Three")
    play.judge("Reject 3")
    play.propose(CAROL, "Four")
    out = play.judge("Ignore 4 because it is a duplicate")
    assert "temperature 299 -> 294 K" in out  # 303, 304 (+1), 299 (-5), 294 (-max(1, 5))
    st = play.state()
    assert (st["accept_streak"], st["reject_streak"]) == (0, 0)
    play.propose(BOB, "Five")
    assert "temperature 294 -> 289 K" in play.judge("Reject 5")  # the reject streak starts again at 0
    play.verify()


def test_a_player_whose_proposal_overheats_the_game_gains_100(make_play):
    play = with_variables(make_play(), overheat_limit=305)
    answers = accept_in_pairs(play, ALICE, 3, 1)
    assert answers[2].count("temperature 304 -> 306 K; the game overheated: +100 points to "
                            "alice@wonder.land; it vents back to 303 K") == 1
    assert ledger(play)[-2:] == [(ALICE, 3, 9, "Proposal 3 accepted"),
                                 (ALICE, 100, 109, "overheating (rule 12)")]
    assert play.state()["temperature"] == 303
    play.verify()


def test_overheating_not_caused_by_a_player_resets_every_score(make_play):
    play = with_variables(make_play(), overheat_limit=305)
    play.propose(ALICE, "One")
    play.judge("Accept 1")
    join(play, ZED)
    swing = die("day:1:and", -10, 10)
    cool = die("day:1:cooling", 0, 10)
    assert (swing, cool) == (7, 4)
    play.judge("New day", at="2026-01-06T00:00:00Z")
    # day end: Z matches 303 (+5), the AND swing +7 overheats (310): every score to 0, back to 303, cooling -4
    assert rule_ledger(play, 12) == [
        (ZED, 5, "Profile AND 303 K (rule 12)"),
        (ALICE, 0, "overheating reset every score (rule 12)"),
        (ZED, 0, "overheating reset every score (rule 12)"),
    ]
    assert scores(play) == {**IDLE_OFFICERS, ALICE: 0, ZED: 0}
    assert play.state()["temperature"] == 299
    play.verify()


def test_above_the_meltdown_limit_the_culprit_drops_to_0_and_the_game_to_280(make_play):
    play = with_variables(make_play(), meltdown_limit=305)
    answers = accept_in_pairs(play, ALICE, 3, 1)
    assert ("temperature 304 -> 306 K; meltdown: alice@wonder.land is set to 0 points; "
            "the temperature resets to 280 K") in answers[2]
    assert scores(play) == {**IDLE_OFFICERS, ALICE: 0}
    assert play.state()["temperature"] == 280
    play.verify()


def test_the_and_check_gives_5_to_every_match_and_moves_the_temperature_once(make_play):
    play = with_variables(make_play(), start_temperature=304)
    join(play, ALICE, BOB, ZED)  # 304: TIE, THS (rule 1), alice (21942) and Z match, bob (45917) not
    play.judge("New day", at="2026-01-06T00:00:00Z")
    assert [(p, d) for p, d, _, cause in ledger(play) if cause.startswith("Profile AND")] == [
        (EMPEROR, 5), (SCRIBE, 5), (ALICE, 5), (ZED, 5)]
    assert play.state()["temperature"] == 304 + 7 - 4 == 307
    play.verify()


def test_the_day_cools_by_a_draw_from_0_to_10(make_play):
    play = make_play(day_mode="fixed")
    join(play, ALICE)  # matches none of 303, 299, 298
    assert [die(f"day:{d}:cooling", 0, 10) for d in (1, 2, 3)] == [4, 1, 9]
    out = play.tick("2026-01-08T00:00:00Z")
    assert "day_end" in out
    st = play.state()
    assert (st["game_day"], st["temperature"]) == (4, 303 - 4 - 1 - 9)
    play.verify()


def test_at_0_k_the_last_player_with_an_accepted_proposal_is_tew(make_play):
    play = with_variables(make_play(), start_temperature=5)
    play.propose(ALICE, "Mine")
    play.judge("Accept 1")
    play.propose(BOB, "His")
    out = play.judge("Reject 2")
    assert ("temperature 5 -> 0 K; the temperature reached 0 K: alice@wonder.land is "
            "The Exalted Winner") in out
    st = play.state()
    assert st["winner"] == ALICE and st["ranking"] == [ALICE, SCRIBE, EMPEROR, BOB]  # TIE, THS: 0, by Profile
    play.verify()

