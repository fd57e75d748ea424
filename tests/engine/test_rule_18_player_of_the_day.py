"""Rule 18: a Player of the Day drawn each day among players other than TIE and THS, +1 at its end."""
from engine.imperial.profiles import profile_from_email
from tests.engine.imperial_play import join, ledger
from tests.engine.rule_support import officers, NOBODY, day_end, player, point_of_order, public, roll, top
from tests.support import EMPEROR, at

AIA, OUI, IOU = "aia@eau.io", "oui@eau.io", "iou@eau.io"  # vowels only: Profile 0


def test_drawn_among_eligible_players_and_rewarded_at_the_end_of_the_day(make_play):
    play = make_play(day_mode="fixed", first_it=NOBODY)
    join(play, AIA, EMPEROR, OUI, IOU, at=at(1))
    eligible = [AIA, OUI, IOU]
    assert play.state()["player_of_the_day"] is None  # nobody was in the game when day 1 began
    profiles = {AIA: 0, EMPEROR: profile_from_email(EMPEROR), OUI: 0, IOU: 0}

    play.tick(at(2, 0))  # day 1 ends: drawn now among the players by then; day 2's drawn at its start
    first = eligible[roll("day:1:player-of-the-day", 0, 2)]
    second = eligible[roll("day:2:player-of-the-day", 0, 2)]
    assert (first, second) == (IOU, AIA)
    t, matched = day_end(303, 1, profiles)
    assert matched == [] and play.state()["player_of_the_day"] == second

    play.tick(at(3, 0))
    third = eligible[roll("day:3:player-of-the-day", 0, 2)]
    t, matched = day_end(t, 2, profiles)
    assert matched == [] and play.state()["player_of_the_day"] == third == AIA
    assert ledger(play) == [(IOU, 1, 1, "Player of the Day 1 (rule 18)"),
                            (AIA, 1, 1, "Player of the Day 2 (rule 18)")]
    assert public(play.state()) == {
        **top(game_day=3, temperature=t),
        "players": [*officers(), player(AIA, 1, 0, 8), player(OUI, 0, 0, 8), player(IOU, 1, 0, 8)],
        "submissions": [point_of_order(n, who) for n, who in enumerate([AIA, EMPEROR, OUI, IOU], 1)],
    }
    play.verify()
