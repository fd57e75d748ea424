"""Rule 14: sealant: -6, applied at the beginning of the next game day, four game days, no section changes."""
from tests.engine.imperial_play import ALICE, ledger
from tests.engine.rule_support import officers, day_end, player, proposal, public, top
from tests.support import EMPEROR, SCRIBE, at


def test_sealant_costs_six_starts_tomorrow_lasts_four_days_and_blocks_retooling(make_play):
    play = make_play(day_mode="fixed")
    play.propose(ALICE, "Seal me", "Sealant", at=at(1))
    out = play.judge("Accept 1", at=at(1, 2))
    assert ("Proposal 1 accepted: +3 points (now 3); temperature stays 303 K; sealant granted: "
            "-6 points (now -3); sealed from day 2 to the end of day 5") in out
    assert public(play.state())["players"] == [*officers(), player(ALICE, -3, 21942, 1)]  # not sealed yet today
    play.tick(at(2, 0))
    t, _ = day_end(303, 1, {ALICE: 21942})
    assert play.player(ALICE)["sealed"] is True
    play.propose(ALICE, "Trim", "Shave section 2", at=at(2))
    out = play.judge("Accept 2", at=at(2, 2))
    assert (f"Proposal 2 accepted: +2 points (now 0); temperature {t} -> {t + 1} K; "
            "the Profile is sealed: it does not change") in out
    play.propose(ALICE, "Seal again", "Sealant", at=at(2, 3))
    out = play.judge("Accept 3", at=at(2, 4))
    assert "sealant not granted: already sealed until the end of day 5" in out
    t += 3
    expected = [(ALICE, 3, "Proposal 1 accepted"), (ALICE, -6, "sealant (rule 14), Proposal 1"),
                (ALICE, 1, "Player of the Day 1 (rule 18)"), (ALICE, 2, "Proposal 2 accepted"),
                (ALICE, 3, "Proposal 3 accepted")]
    for day in (2, 3, 4, 5):
        assert play.player(ALICE)["sealed"] is True
        play.tick(at(day + 1, 0))
        expected.append((ALICE, 1, f"Player of the Day {day} (rule 18)"))  # the only eligible player
        expected += [(who, 5, f"Profile AND {t} K (rule 12)") for who in day_end(t, day, {ALICE: 21942})[1]]
        t, _ = day_end(t, day, {ALICE: 21942})
    assert (ALICE, 5, "Profile AND 292 K (rule 12)") in expected  # the seed's path meets one match, on day 4
    assert [(p, d, c) for p, d, _, c in ledger(play)] == expected
    total = {who: sum(d for p, d, _ in expected if p == who) for who in (EMPEROR, SCRIBE, ALICE)}
    assert public(play.state()) == {
        **top(game_day=6, temperature=t, accept_streak=3, it=ALICE),
        "players": [*officers(total[EMPEROR], total[SCRIBE]), player(ALICE, total[ALICE], 21942, 1)],
        "submissions": [proposal(1, ALICE, "Seal me", "accepted"), proposal(2, ALICE, "Trim", "accepted"),
                        proposal(3, ALICE, "Seal again", "accepted")],
    }
    play.verify()
