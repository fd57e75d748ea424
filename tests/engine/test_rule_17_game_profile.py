"""Rule 17: the Game Profile stacks the GP players' Profiles in list order, alternating orientation."""
from engine.imperial.game_profile import game_profile
from tests.engine.imperial_play import ALICE, BOB, CAROL, join
from tests.engine.rule_support import NOBODY, engine_state
from tests.support import EMPEROR, SCRIBE


def rows(play) -> list[tuple]:
    return [(r.email, r.fat_end, "".join(map(str, r.sections))) for r in game_profile(engine_state(play))]


def test_gp_profiles_stack_in_list_order_alternating_and_ff_ones_leave_the_stack(make_play):
    play = make_play(first_it=NOBODY)
    join(play, ALICE, BOB, CAROL)
    assert rows(play) == [
        (EMPEROR, "left", "1000110100110111"),  # rule 1: TIE and THS are players from the start
        (SCRIBE, "right", "1110110010110111"),
        (ALICE, "left", "0101010110110110"),
        (BOB, "right", "1011101011001101"),   # 1011001101011101 read from its fat end on the right
        (CAROL, "left", "1010110111010110"),
    ]
    play.propose(BOB, "Float", "Become FF")
    play.judge("Accept 4")
    assert play.player(BOB)["category"] == "FF"
    assert rows(play)[2:] == [(ALICE, "left", "0101010110110110"), (CAROL, "right", "0110101110110101")]
    play.verify()
