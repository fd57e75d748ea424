"""Rules 8 (the second) and 11: points for Proposals, inversion above 50, TEW, the final ranking."""
from __future__ import annotations

from tests.engine.imperial_play import ALICE, BOB, CAROL, die, join, ledger, scores, with_variables, IDLE_OFFICERS
from tests.support import EMPEROR, SCRIBE


def test_accepted_rejected_and_ignored_proposals_score_3_minus_2_and_0(play):
    play.propose(ALICE, "Cake")
    play.propose(ALICE, "Pie")
    assert "Proposal 1 accepted: +3 points (now 3); temperature stays 303 K" in play.judge("Accept 1")
    out = play.judge("Reject 2")
    assert "Proposal 2 rejected: -2 points (now 1); temperature 303 -> 298 K" in out
    play.propose(ALICE, "Tart")
    out = play.judge("Ignore 3 because it repeats Proposal 1")
    assert ("Proposal 3 ignored (the Emperor: it repeats Proposal 1): no points (still 1); "
            "temperature 298 -> 293 K") in out
    assert ledger(play) == [(ALICE, 3, 3, "Proposal 1 accepted"), (ALICE, -2, 1, "Proposal 2 rejected")]
    st = play.state()
    assert [(e["rule"], e["submission"], e["day"]) for e in st["ledger"]] == [(11, 1, 1), (11, 2, 1)]
    assert st["players"][2]["score"] == 1 and st["temperature"] == 293
    play.verify()


def test_the_first_player_with_exactly_win_score_is_tew_and_the_game_ends(make_play):
    play = with_variables(make_play(), win_score=6)
    play.propose(ALICE, "One")
    play.propose(ALICE, "Two")
    play.judge("Accept 1")
    out = play.judge("Accept 2")
    assert "Proposal 2 accepted: +3 points (now 6)" in out
    st = play.state()
    assert st["winner"] == ALICE and st["ranking"] == [ALICE, SCRIBE, EMPEROR]  # rule 1: players, by Profile
    out = play.propose(BOB, "Too late")
    assert "the game has ended: alice@wonder.land is The Exalted Winner (rule 8); nothing done" in out
    assert len(play.state()["submissions"]) == 2
    play.verify()


def test_nothing_follows_the_step_that_makes_tew(make_play):
    play = with_variables(make_play(), win_score=6, overheat_limit=303)
    play.propose(ALICE, "One")
    play.propose(ALICE, "Two")
    play.judge("Accept 1")  # streak 0: the temperature stays 303
    out = play.judge("Accept 2")  # +3 makes TEW; the streak heat (+1, an overheat) never comes
    assert out.rstrip().endswith("Proposal 2 accepted: +3 points (now 6)")
    st = play.state()
    assert (st["winner"], st["temperature"], st["accept_streak"]) == (ALICE, 303, 1)
    play.verify()


def test_above_win_score_gains_and_losses_are_inverted(make_play):
    play = with_variables(make_play(), win_score=5)
    for n, title in enumerate(["One", "Two"], 1):
        play.propose(ALICE, title)
        play.judge(f"Accept {n}")
    assert scores(play) == {**IDLE_OFFICERS, ALICE: 6}  # jumped over 5: not TEW
    play.propose(ALICE, "Three")
    play.propose(ALICE, "Four")
    assert "Proposal 3 accepted: -3 points (now 3)" in play.judge("Accept 3")
    assert "Proposal 4 rejected: -2 points (now 1)" in play.judge("Reject 4")
    st = play.state()
    assert st["winner"] is None
    assert [e["delta"] for e in st["ledger"]] == [3, 3, -3, -2]
    play.verify()


def test_others_rank_by_score_then_profile_then_a_seeded_draw(make_play):
    play = with_variables(make_play(), win_score=3)
    twins = ["ann@x.org", "ann@y.org"]  # x and y are both consonants: the same Profile
    join(play, CAROL, BOB, *twins)
    play.propose(ALICE, "Win")
    play.propose(CAROL, "Lose")
    play.judge("Reject 6")
    play.judge("Accept 5")
    st = play.state()
    profiles = {p["email"]: p["profile"] for p in st["players"]}
    assert profiles[twins[0]] == profiles[twins[1]] == 30445
    draws = {t: die(f"rank:{t}", 0, 2**32 - 1) for t in twins}
    twins.sort(key=draws.get, reverse=True)
    # carol has -2; bob (45917) and the twins (30445) have 0
    assert st["winner"] == ALICE
    # rule 1: TIE (36151) and THS (60727) are players with 0 points and rank among them
    assert st["ranking"] == [ALICE, SCRIBE, BOB, EMPEROR, *twins, CAROL]
    play.verify()
