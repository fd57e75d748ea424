"""Rule 21: vandalism with a Proposal, defence, and bit-difference reports at the end of the day."""
from tests.engine.imperial_play import ALICE, BOB, join, ledger
from tests.engine.rule_support import officers, NOBODY, player, point_of_order, proposal, public, roll, top
from tests.support import at

# BOB 1011001101011101 (45917): section 1 raised, section 2 depressed
AIA, ONE, OUI = "aia@eau.io", "aiaeaub@eau.io", "oui@eau.io"  # Profiles 0, 512 (section 7), 0


def test_vandalism_succeeds_only_if_accepted_undefended_and_raised(make_play):
    play = make_play(first_it=NOBODY)
    play.propose(BOB, "Shield", "Defend")
    play.judge("Accept 1")
    play.propose(ALICE, "Smash", "Vandalize bob section 1")
    assert ("vandalism of bob section 1 failed: bob@builder.org's last Proposal was accepted with a Defend"
            in play.judge("Accept 2"))
    play.propose(BOB, "Shield again", "Defend")
    play.judge("Reject 3")
    play.propose(ALICE, "Smash again", f"Vandalize {BOB} section 1")
    assert (f"vandalism of {BOB} section 1 succeeded: Profile 1011001101011101 -> 0011001101011101; "
            "a wood chip goes to the pool") in play.judge("Accept 4")
    play.propose(ALICE, "Smash a hole", "Vandalize bob section 2")
    assert "vandalism of bob section 2 failed: the section is depressed" in play.judge("Accept 5")
    play.propose(ALICE, "Smash, rejected", "Vandalize bob section 3")
    out = play.judge("Reject 6")
    assert out.endswith("Proposal 6 rejected: -2 points (now 7); temperature 300 -> 295 K\n")
    assert public(play.state()) == {
        **top(temperature=295, woodchips=1, reject_streak=1),
        "players": [*officers(), player(BOB, 1, 0b0011001101011101, 1), player(ALICE, 7, 21942, 1)],
        "submissions": [proposal(1, BOB, "Shield", "accepted"), proposal(2, ALICE, "Smash", "accepted"),
                        proposal(3, BOB, "Shield again", "rejected"),
                        proposal(4, ALICE, "Smash again", "accepted"),
                        proposal(5, ALICE, "Smash a hole", "accepted"),
                        proposal(6, ALICE, "Smash, rejected", "rejected")],
    }
    play.verify()


def test_the_first_of_the_two_scores_and_each_reporter_scores_once_per_day(make_play):
    play = make_play(day_mode="fixed", first_it=NOBODY)
    join(play, AIA, ONE, OUI, at=at(1))
    assert "you cannot report yourself (rule 21); nothing done" in play.send(AIA, "r", f"Report {AIA}", at=at(1))
    assert "x@y.z is not a player; nothing done" in play.send(AIA, "r", "Report x@y.z", at=at(1))
    assert ("report recorded; it is judged on the Profiles at the end of day 1 (they differ in 1 section now)"
            in play.send(AIA, "r", f"Report {ONE}", at=at(1, 2)))
    play.send(ONE, "r", f"Report {AIA}", at=at(1, 3))   # second of the two: too late
    play.send(OUI, "r", "Report aia", at=at(1, 4))
    play.tick(at(2, 0))
    eligible = [AIA, ONE, OUI]
    potd = [eligible[roll(f"day:{d}:player-of-the-day", 0, 2)] for d in (1, 2)]
    assert potd == [OUI, AIA]
    assert [(r["number"], r["status"], r["reason"]) for r in play.state()["reports"]] == [
        (1, "awarded", f"the Profiles differ in exactly 1: {AIA} +3, {ONE} -3"),
        (2, "void", f"{AIA} pointed it out first"),
        (3, "void", "the Profiles differ in 0 sections")]
    assert (f"your last report was on {ONE}: not twice in succession on the same player (rule 21); "
            "nothing done") in play.send(AIA, "r", f"Report {ONE}", at=at(2))
    play.send(AIA, "r", f"Report {OUI}", at=at(2, 1))  # identical Profiles: no difference to report
    play.send(ONE, "r", f"Report {AIA}", at=at(2, 2))
    play.tick(at(3, 0))
    assert [(r["number"], r["status"], r["reason"]) for r in play.state()["reports"][3:]] == [
        (4, "void", "the Profiles differ in 0 sections"),
        (5, "awarded", f"the Profiles differ in exactly 1: {ONE} +3, {AIA} -3")]
    cause = "report {}: {} and {} differ in 1 (rule 21)"
    assert ledger(play) == [  # rule 18's point comes before rule 21's (rule 7: lowest first)
        (OUI, 1, 1, "Player of the Day 1 (rule 18)"),
        (AIA, 3, 3, cause.format(1, AIA, ONE)), (ONE, -3, -3, cause.format(1, AIA, ONE)),
        (AIA, 1, 4, "Player of the Day 2 (rule 18)"),
        (ONE, 3, 0, cause.format(5, ONE, AIA)), (AIA, -3, 1, cause.format(5, ONE, AIA))]
    t = 303 - roll("day:1:cooling", 0, 10) - roll("day:2:cooling", 0, 10)  # no Profile matches any AND
    assert public(play.state()) == {
        **top(game_day=3, temperature=t),
        "players": [*officers(), player(AIA, 1, 0, 8), player(ONE, 0, 512, 7), player(OUI, 1, 0, 8)],
        "submissions": [point_of_order(n, who) for n, who in enumerate(eligible, 1)],
    }
    play.verify()


def test_once_per_day_is_each_reporters_like_not_twice_in_succession(make_play):
    """Rule 21's two limits read alike, per reporter: aia and oui each score a report on the
    same day; aia's second report that day, though it holds, is void."""
    two = "ei@eaub.io"  # Profile 1028: sections 6 and 14, two sections from aia's 0
    play = make_play(day_mode="fixed", first_it=NOBODY)
    join(play, AIA, ONE, OUI, two, at=at(1))
    play.send(AIA, "r", f"Report {ONE}", at=at(1, 2))
    play.send(OUI, "r", f"Report {ONE}", at=at(1, 3))
    play.send(AIA, "r", f"Report {two}", at=at(1, 4))
    play.tick(at(2, 0))
    assert [(r["number"], r["status"], r["reason"]) for r in play.state()["reports"]] == [
        (1, "awarded", f"the Profiles differ in exactly 1: {AIA} +3, {ONE} -3"),
        (2, "awarded", f"the Profiles differ in exactly 1: {OUI} +3, {ONE} -3"),
        (3, "void", f"a report by {AIA} was already performed today")]
    potd = [AIA, ONE, OUI, two][roll("day:1:player-of-the-day", 0, 3)]
    assert potd == OUI
    assert [(p, d) for p, d, _, cause in ledger(play) if "(rule 21)" in cause] == [
        (AIA, 3), (ONE, -3), (OUI, 3), (ONE, -3)]
    t = 303 - roll("day:1:cooling", 0, 10)  # no Profile matches 303 K
    assert public(play.state()) == {
        **top(game_day=2, temperature=t),
        "players": [*officers(), player(AIA, 3, 0, 8), player(ONE, -6, 512, 7), player(OUI, 4, 0, 8),
                    player(two, 0, 1028, 6)],
        "submissions": [point_of_order(n, who) for n, who in enumerate([AIA, ONE, OUI, two], 1)],
    }
    play.verify()
