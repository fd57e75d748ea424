"""Repealing a rule switches off every mechanic the engine runs for it (engine/imperial/mechanics.py).

One test per entry of ``MECHANICS``, named ``test_repealing_rule_N_...`` (the second rule 8:
``test_repealing_rule_8_second_...``); each shows what a player notices, against the game with
the rule in force where the difference is not obvious.
"""
from __future__ import annotations

import json
import re
import sys

from sqlmodel import Session, select

from engine.imperial.mechanics import MECHANICS
from nomic.game import Game
from storage import EventRow
from tests.engine.imperial_play import ALICE, BOB, join, scores, with_variables, IDLE_OFFICERS
from tests.engine.rule_support import NOBODY, roll
from tests.support import EMPEROR, SCRIBE, Play, at

AIA = "aia@eau.io"  # Profile 0, entropy 8


def repeal(play: Play, rule: str, when: str = "2026-01-05T00:10:00Z") -> str:
    out = play.send(EMPEROR, f"Proclamation: Repeal {rule}", f"Repeal rule {rule}", at=when)
    assert f"Proclamation {len(play.state()['proclamations'])} (Repeal {rule}) applies" in out
    return out


def day_notes(play: Play) -> list[list[str]]:
    with Session(Game(play.dir).db) as s:
        rows = s.exec(select(EventRow).where(EventRow.kind == "day_end").order_by(EventRow.id)).all()
        return [json.loads(r.data)["summary"]["notes"] for r in rows]


def test_every_mechanic_has_a_repeal_test():
    here = {m[1] for name in dir(sys.modules[__name__])
            if (m := re.match(r"test_repealing_rule_(\d+(?:_second)?)_", name))}
    assert here == {f"{m.rule}_second" if m.nth else str(m.rule) for m in MECHANICS}


def test_repealing_rule_1_leaves_tie_and_ths_players_only_by_rule_2_and_enacting_it_brings_them_back(play):
    play.send(EMPEROR, "Point of Order: Me", "TIE makes a submission.")
    out = repeal(play, "1", "2026-01-05T01:30:00Z")
    assert ("rule 1 (Minimal Office Holders) repealed (switches off TIE and THS as players from the start: "
            "ths@imperial.test is no longer a player)") in out
    assert [p["email"] for p in play.state()["players"]] == [EMPEROR]
    out = play.send(EMPEROR, "Proclamation: Offices", "Enact rule 1: Minimal Office Holders\nTIE and THS play.",
                    at="2026-01-05T01:40:00Z")
    assert "rule 1 enacted (switches on TIE and THS as players from the start: ths@imperial.test is a player again)" in out
    assert [p["email"] for p in play.state()["players"]] == [EMPEROR, SCRIBE]
    play.verify()


def test_repealing_rule_2_makes_no_new_players(play):
    join(play, ALICE)
    repeal(play, "2", "2026-01-05T00:40:00Z")
    out = play.propose(BOB, "Let me in")
    assert "rule 2 is repealed: nobody new becomes a player, and only players submit; nothing done" in out
    assert "recorded as Proposal 2" in play.propose(ALICE, "Still here")
    st = play.state()
    assert [p["email"] for p in st["players"]] == [EMPEROR, SCRIBE, ALICE]
    assert [s["number"] for s in st["submissions"]] == [1, 2]
    play.verify()


def test_repealing_rule_3_ends_probation(play):
    repeal(play, "3")
    play.propose(BOB, "One")
    play.propose(BOB, "Two")
    out = play.judge("Reject 1\nReject 2")
    assert "Probation" not in out
    assert play.player(BOB)["probation"] is False and play.player(BOB)["score"] == -4
    play.verify()


def test_repealing_rule_4_ends_the_queue(play):
    repeal(play, "4")
    for title in ("One", "Two", "Three"):
        assert "pending before the Emperor" in play.propose(ALICE, title)
    assert [s["status"] for s in play.state()["submissions"]] == ["pending"] * 3
    play.verify()


def test_repealing_rule_5_ends_rewards_for_points_of_order(play):
    repeal(play, "5")
    play.send(ALICE, "Point of Order: Typo", "Rule 4 has a typo.")
    assert "Point of Order 1 accepted" in play.judge("Accept 1")
    assert scores(play) == {**IDLE_OFFICERS, ALICE: 0}
    play.verify()


def test_repealing_rule_6_ends_the_day_in_rule_7_order_cooling_before_the_tag(make_play):
    def tagged_day(play: Play) -> list[str]:
        play.propose(ALICE, "Run", at=at(1))
        play.judge("Accept 2", at=at(1, 2))
        play.send(ALICE, "t", f"Tag {BOB}", at=at(1, 3))
        play.tick(at(2, 0))
        return [n.split(":")[0].split(" (")[0] for n in day_notes(play)[0]]

    with_rule_6 = make_play(day_mode="fixed", first_it=ALICE)
    join(with_rule_6, BOB, at=at(1))
    assert tagged_day(with_rule_6)[-3:] == [f"{BOB} is It", f"cooling by {roll('day:1:cooling', 0, 10)} K",
                                            "Player of the Day for day 2"]
    without = make_play(day_mode="fixed", first_it=ALICE)
    join(without, BOB, at=at(1))
    repeal(without, "6", at(1))
    assert tagged_day(without)[-3:] == [f"cooling by {roll('day:1:cooling', 0, 10)} K", f"{BOB} is It",
                                        "Player of the Day for day 2"]
    without.verify()


def test_repealing_rule_7_lets_a_later_change_govern_pending_lower_numbers(play):
    play.propose(ALICE, "Pending")
    repeal(play, "7", "2026-01-05T01:10:00Z")
    play.send(EMPEROR, "Proclamation: Prizes", "Set accept_points = 4", at="2026-01-05T01:20:00Z")
    assert "Proposal 1 accepted: +4 points (now 4)" in play.judge("Accept 1")  # with rule 7: +3
    play.verify()


def test_repealing_rule_8_accepts_proposals_without_a_title(play):
    out = repeal(play, "8")
    assert "rule 8 (Titular Consistency) repealed (switches off ignoring Proposals without a title)" in out
    assert "recorded as Proposal 1, pending before the Emperor" in play.send(ALICE, "Proposal:", "No title.")
    play.verify()


def test_repealing_rule_8_second_lets_the_game_go_on_after_tew(make_play):
    play = with_variables(make_play(), win_score=3)
    out = repeal(play, "8 (Winning the Game)")
    assert "rule 8 (Winning the Game) repealed (switches off the end of the game at TEW)" in out
    play.propose(ALICE, "Win")
    play.judge("Accept 1")
    assert play.state()["winner"] == ALICE
    assert "recorded as Proposal 2" in play.propose(BOB, "Go on", at="2026-01-05T03:00:00Z")
    assert "Proposal 2 accepted: +3 points (now 3)" in play.judge("Accept 2", at="2026-01-05T04:00:00Z")
    assert play.state()["winner"] == ALICE  # the first TEW stays TEW
    out = play.send(EMPEROR, "Proclamation: The end", "Enact rule 8: Winning the Game\nThe game ends at TEW.",
                    at="2026-01-05T05:00:00Z")
    assert "rule 8 enacted (switches on the end of the game at TEW)" in out
    out = play.propose(BOB, "Too late", at="2026-01-05T06:00:00Z")
    assert "the game has ended: alice@wonder.land is The Exalted Winner (rule 8); nothing done" in out
    play.verify()


def test_repealing_rule_10_ends_no_more_days(make_play):
    play = make_play(day_mode="fixed")
    repeal(play, "10")
    play.tick(at(4))
    assert play.state()["game_day"] == 1
    emperor_days = make_play()
    repeal(emperor_days, "10")
    assert ("rule 10 is repealed: game days no longer end; nothing done"
            in emperor_days.send(EMPEROR, "day", "New day", at=at(3)))
    assert emperor_days.state()["game_day"] == 1
    play.verify()


def test_repealing_rule_11_ends_points_for_proposals(play):
    repeal(play, "11")
    play.propose(ALICE, "One")
    assert "Proposal 1 accepted: no points (still 0)" in play.judge("Accept 1")
    play.verify()


def test_repealing_rule_12_ends_the_temperatures_effects(play):
    repeal(play, "12")
    play.propose(ALICE, "One")
    play.judge("Reject 1")
    assert play.state()["temperature"] == 303
    play.verify()


def test_repealing_rule_13_issues_no_profile(play):
    repeal(play, "13")
    join(play, ALICE)
    assert play.player(ALICE)["profile"] == 0  # with rule 13: 21942
    play.verify()


def test_repealing_rule_14_ends_retooling_and_swaps(play):
    join(play, BOB)
    repeal(play, "14", "2026-01-05T00:40:00Z")
    play.propose(ALICE, "Trim", "Shave section 2")
    assert "Proposal 2 accepted: +3 points (now 3); temperature stays 303 K" in play.judge("Accept 2")
    assert play.player(ALICE)["profile"] == 21942 and play.state()["woodchips"] == 0
    out = play.send(ALICE, "swap", f"Swap sections 1-4 with {BOB} sections 1-4")
    assert "rule 14 is not in force; nothing done" in out
    play.verify()


def test_repealing_rule_15_leaves_rule_16_no_entropy_to_subtract(make_play):
    play = make_play(first_it=NOBODY)
    repeal(play, "15")
    play.propose(AIA, "Float", "Become FF")
    out = play.judge("Accept 1")
    assert f"{AIA} is now FF: 303 K + 1^3 - entropy 0 = 304 >= 300" in out  # with rule 15: 8, 296 < 300
    assert play.player(AIA)["category"] == "FF"
    play.verify()


def test_repealing_rule_16_ends_become_ff_and_its_forfeit(play):
    repeal(play, "16")
    play.propose(ALICE, "Float", "Become FF")
    assert "Proposal 1 accepted: +3 points (now 3)" in play.judge("Accept 1")
    assert play.player(ALICE)["category"] == "GP"
    play.verify()


def test_repealing_rule_17_leaves_no_game_profile_so_anyone_may_whap_tivol(make_play):
    play = make_play(first_it=NOBODY)
    join(play, ALICE)
    assert "only FF players may whap Tivol (rule 20)" in play.send(ALICE, "whap", "Whap Tivol")
    repeal(play, "17", "2026-01-05T01:10:00Z")
    assert "Tivol is whapped" in play.send(ALICE, "whap", "Whap Tivol", at="2026-01-05T01:20:00Z")
    play.verify()


def test_repealing_rule_18_ends_player_of_the_day(make_play):
    play = make_play(day_mode="fixed", first_it=NOBODY)
    join(play, AIA, at=at(1))
    repeal(play, "18", at(1))
    play.tick(at(3))
    st = play.state()
    assert st["player_of_the_day"] is None and [e["rule"] for e in st["ledger"]] == []
    play.verify()


def test_repealing_rule_19_by_an_accepted_proposal_silences_the_chimes(make_play):
    play = make_play(day_mode="fixed", first_it=NOBODY)
    play.send(AIA, "Subscribe", at=at(1))
    play.propose(ALICE, "Quiet", "The bells keep us awake.\nRepeal rule 19", at=at(1))
    out = play.judge("Accept 1", at=at(1, 2))
    assert ("rule changes: rule 19 (For Whom The Bell Tolls) repealed (switches off the chime of the "
            "Bell Tower)") in out
    play.tick(at(3))
    assert play.state()["game_day"] == 3
    assert [m for m in play.outbox() if m["kind"] == "chime"] == []
    play.verify()


def test_repealing_rule_20_ends_whapping_tivol(make_play):
    play = make_play(first_it=NOBODY)
    repeal(play, "20")
    join(play, ALICE)
    assert "rule 20 is not in force; nothing done" in play.send(ALICE, "whap", "Whap Tivol")
    play.verify()


def test_repealing_rule_21_ends_reports(make_play):
    play = make_play(first_it=NOBODY)
    join(play, ALICE, BOB)
    repeal(play, "21", "2026-01-05T00:40:00Z")
    assert "rule 21 is not in force; nothing done" in play.send(ALICE, "r", f"Report {BOB}")
    play.verify()


def test_repealing_rule_22_lets_it_act(make_play):
    play = make_play(first_it=ALICE)
    join(play, BOB)
    play.propose(ALICE, "Here")
    assert "you are It" in play.send(ALICE, "r", f"Report {BOB}")
    repeal(play, "22", "2026-01-05T01:10:00Z")
    assert "report recorded" in play.send(ALICE, "r", f"Report {BOB}", at="2026-01-05T01:20:00Z")
    play.verify()
