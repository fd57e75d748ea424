"""Rule 14: two consenting players swap exactly four contiguous sections."""
from tests.engine.imperial_play import ALICE, BOB, CAROL, join
from tests.engine.rule_support import officers, NOBODY, player, point_of_order, public, top
from tests.support import at

# ALICE 0101 0101 1011 0110 (21942), BOB 1011 0011 0101 1101 (45917)


def test_an_agreed_swap_exchanges_the_four_sections(make_play):
    play = make_play(first_it=NOBODY)
    join(play, ALICE, BOB)
    out = play.send(ALICE, "swap", f"Swap sections 1-4 with {BOB} sections 13-16")
    assert f"swap offer 1 recorded; it happens when {BOB} sends 'Agree swap 1'" in out
    assert public(play.state())["players"] == [*officers(), player(ALICE, 0, 21942, 1), player(BOB, 0, 45917, 2)]
    out = play.send(BOB, "Re: swap", "Agree swap 1")
    assert (f"swap 1 done: {ALICE} Profile 0101010110110110 -> 1101010110110110; "
            f"{BOB} Profile 1011001101011101 -> 1011001101010101") in out
    st = play.state()
    assert public(st) == {
        **top(), "players": [*officers(), player(ALICE, 0, 0b1101010110110110, 2), player(BOB, 0, 0b1011001101010101, 1)],
        "submissions": [point_of_order(1, ALICE), point_of_order(2, BOB)],
    }
    assert [(s["number"], s["status"], s["done_day"]) for s in st["swaps"]] == [(1, "done", 1)]
    assert "swap 1 was already done on day 1; nothing done" in play.send(BOB, "again", "Agree swap 1")
    play.verify()


def test_bad_swaps_are_refused_and_change_nothing(make_play):
    play = make_play(first_it=NOBODY)
    join(play, ALICE, BOB, CAROL)
    refusals = {
        f"Swap sections 1-3 with {BOB} sections 1-4":
            "sections 1-3 are not exactly 4 contiguous sections between 1 and 16 (rule 14)",
        f"Swap sections 14-17 with {BOB} sections 1-4":
            "sections 14-17 are not exactly 4 contiguous sections between 1 and 16 (rule 14)",
        "Swap sections 1-4 with nobody@x.org sections 1-4": "nobody@x.org is not a player",
        f"Swap sections 1-4 with {ALICE} sections 5-8": "a swap takes two players (rule 14)",
    }
    for line, why in refusals.items():
        assert f"{why}; nothing done" in play.send(ALICE, "swap", line)
    play.send(ALICE, "swap", "Swap sections 5-8 with bob sections 9-12")  # a name works too
    assert f"swap offer 1 awaits the consent of {BOB}, not yours (rule 14); nothing done" in play.send(
        CAROL, "me", "Agree swap 1")
    assert "there is no swap offer 2; nothing done" in play.send(BOB, "me", "Agree swap 2")
    st = play.state()
    assert [p["profile"] for p in st["players"]] == [36151, 60727, 21942, 45917, 44502]
    assert [(s["number"], s["proposer"], s["partner"], s["first"], s["partner_first"], s["status"])
            for s in st["swaps"]] == [(1, ALICE, BOB, 5, 9, "offered")]
    play.verify()


def test_a_sealed_profile_takes_no_part_in_a_swap(make_play):
    play = make_play(day_mode="fixed", first_it=NOBODY)
    join(play, ALICE, at=at(1))
    play.propose(BOB, "Seal me", "Sealant", at=at(1))
    play.judge("Accept 2", at=at(1, 2))
    play.send(ALICE, "swap", f"Swap sections 1-4 with {BOB} sections 13-16", at=at(1, 3))  # not sealed yet
    play.tick(at(2, 0))
    sealed = f"{BOB}'s Profile is sealed: its sections may not change (rule 14); nothing done"
    assert sealed in play.send(BOB, "ok", "Agree swap 1", at=at(2))
    assert sealed in play.send(ALICE, "swap", f"Swap sections 5-8 with {BOB} sections 1-4", at=at(2))
    st = play.state()
    assert [(p["profile"], p["sealed"]) for p in st["players"]] == [(36151, False), (60727, False), (21942, False), (45917, True)]
    assert [s["status"] for s in st["swaps"]] == ["offered"]
    play.verify()
