"""Rule 20: FF players whap Tivol instead of making a Proposal."""
from engine.imperial.profiles import raised_sections
from tests.engine.imperial_play import ALICE, BOB, join, ledger, with_variables
from tests.engine.rule_support import officers, NOBODY, player, point_of_order, proposal, public, roll, top
from tests.support import Play

SEED = "tivol-23"  # the 1-in-5 chance misses on the first whap of day 1 and comes up on the second
TIVOL = "tivol@mit.edu"


def float_alice(play: Play) -> None:
    play.propose(ALICE, "Float", "Become FF")
    play.judge("Accept 1")
    assert play.player(ALICE)["category"] == "FF"


def test_whaps_cost_a_point_cool_like_a_rejection_and_may_depress_a_section(make_play):
    play = make_play(first_it=NOBODY, seed=SEED)
    float_alice(play)
    join(play, BOB)
    assert ("your Profile is part of the Game Profile (you are GP): only FF players may whap Tivol "
            "(rule 20); nothing done") in play.send(BOB, "whap", "Whap Tivol")
    assert roll("day:1:tivol:1:chance", 1, 5, SEED) != 1
    out = play.send(ALICE, "whap", "Whap Tivol")
    assert ("Tivol is whapped: alice@wonder.land -1 point (now -1); no section is depressed "
            "(the 1-in-5 chance did not come up); temperature 303 -> 298 K") in out
    assert roll("day:1:tivol:2:chance", 1, 5, SEED) == 1
    sections = raised_sections(21942)
    section = sections[roll("day:1:tivol:2:section", 1, len(sections), SEED) - 1]
    assert section == 4
    out = play.send(ALICE, "whap again", "Whap Tivol")
    assert ("Tivol is whapped: alice@wonder.land -1 point (now -2); section 4 is depressed: "
            "Profile 0101010110110110 -> 0100010110110110; a wood chip goes to the pool; "
            "temperature 298 -> 293 K") in out
    assert public(play.state()) == {
        **top(temperature=293, woodchips=1, reject_streak=2),
        "players": [*officers(), player(ALICE, -2, 0b0100010110110110, 0, category="FF"), player(BOB, 0, 45917, 2)],
        "submissions": [proposal(1, ALICE, "Float", "accepted"), point_of_order(2, BOB)],
    }
    assert ledger(play) == [(ALICE, -1, -1, "whapped Tivol (rule 20)"),
                            (ALICE, -1, -2, "whapped Tivol (rule 20)")]
    play.verify()


def test_no_whap_when_the_queue_is_full_and_tivol_whapping_himself_does_not_score(make_play):
    play = make_play(first_it=NOBODY)
    play.propose(TIVOL, "Float", "Become FF")
    play.judge("Accept 1")
    out = play.send(TIVOL, "whap", "Whap Tivol")
    assert "Tivol is whapped: Tivol whapping himself does not score;" in out
    play.propose(TIVOL, "One")
    play.propose(TIVOL, "Two")
    assert ("you have 2 undecided Proposals, so you cannot make one now, nor whap Tivol instead of one "
            "(rules 4 and 20); nothing done") in play.send(TIVOL, "whap", "Whap Tivol")
    st = play.state()
    assert (st["players"][0]["score"], st["temperature"], st["whaps"]) == (0, 298, 1)
    play.verify()


def test_at_exactly_fifty_a_whap_loses_one_and_gains_one_above_it_gains_one(make_play):
    play = with_variables(make_play(first_it=NOBODY), win_score=60)
    float_alice(play)
    play.send(ALICE, "Point of Order: my score", f"Score of {ALICE} should be 50")
    play.judge("Accept 2")
    assert ("alice@wonder.land at exactly 50 loses one point and gains one: no change"
            in play.send(ALICE, "whap", "Whap Tivol"))
    play.send(ALICE, "Point of Order: my score", f"Score of {ALICE} should be 51")
    play.judge("Accept 3")
    assert "alice@wonder.land +1 point (now 52)" in play.send(ALICE, "whap", "Whap Tivol")
    assert play.player(ALICE)["score"] == 52
    play.verify()


def test_an_ff_whap_that_cools_the_game_below_290_earns_the_ff_bonus(make_play):
    play = make_play(first_it=NOBODY)
    float_alice(play)
    assert [roll(f"day:1:tivol:{n}:chance", 1, 5) for n in (1, 2, 3)] == [4, 4, 3]  # no depression
    play.send(ALICE, "whap", "Whap Tivol")  # 303 -> 298
    play.send(ALICE, "whap", "Whap Tivol")  # 298 -> 293 (rejected streak 1: still 5)
    out = play.send(ALICE, "whap", "Whap Tivol")
    assert "temperature 293 -> 288 K" in out
    assert ("FF bonus for alice@wonder.land: the game cooled from 293 K to 288 K, 15 x entropy 1: "
            "+15 points (now 12) (rule 16)") in out
    assert "only players may whap Tivol (rule 20); nothing done" in play.send(BOB, "whap", "Whap Tivol")
    assert public(play.state())["players"] == [*officers(), player(ALICE, 12, 21942, 1, category="FF")]
    play.verify()
