"""Rule 15: Profile Entropy is |raised - depressed| / 2 = |ones - 8|, and follows the Profile."""
from tests.engine.imperial_play import ALICE, join
from tests.engine.rule_support import officers, NOBODY, player, point_of_order, proposal, public, top

ALL_RAISED = "bcd@fgh.jk"   # consonants only: 65535
ALL_DEPRESSED = "aia@eau.io"  # vowels only: 0
HALF = "ba@ba.ba"           # b a b a ...: 1010101010101010


def test_entropy_of_extreme_and_balanced_profiles(make_play):
    play = make_play(first_it=NOBODY)
    join(play, ALL_RAISED, ALL_DEPRESSED, HALF)
    assert public(play.state()) == {
        **top(),
        "players": [*officers(), player(ALL_RAISED, 0, 65535, 8), player(ALL_DEPRESSED, 0, 0, 8),
                    player(HALF, 0, 0b1010101010101010, 0)],
        "submissions": [point_of_order(1, ALL_RAISED), point_of_order(2, ALL_DEPRESSED),
                        point_of_order(3, HALF)],
    }
    play.verify()


def test_entropy_follows_a_retooled_profile(make_play):
    play = make_play(first_it=NOBODY)
    play.propose(ALICE, "Trim", "Shave section 2")  # nine raised -> eight raised
    assert play.player(ALICE)["entropy"] == 1
    play.judge("Accept 1")
    assert public(play.state()) == {
        **top(accept_streak=1, woodchips=1),
        "players": [*officers(), player(ALICE, 2, 0b0001010110110110, 0)],
        "submissions": [proposal(1, ALICE, "Trim", "accepted")],
    }
    play.verify()
