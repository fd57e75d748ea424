"""Rule 16: Become FF (its conditions and forfeited points) and the FF bonus for cooling below 290 K."""
import subprocess
import sys

from tests.engine.imperial_play import ALICE, BOB, ledger
from tests.engine.rule_support import officers, NOBODY, player, proposal, public, top
from tests.support import EMPEROR, SCRIBE, Play, make_mail


def decide(play: Play, author: str, title: str, line: str, body: str = "") -> str:
    """Submit a Proposal and have the Emperor decide it ('Accept', 'Reject', 'Ignore ... because x')."""
    play.propose(author, title, body)
    number = len(play.state()["submissions"])
    verb, _, rest = line.partition(" ")
    return play.judge(f"{verb} {number} {rest}".strip())


def test_an_accepted_request_makes_a_gp_player_ff_without_points(make_play):
    play = make_play(first_it=NOBODY)
    out = decide(play, ALICE, "Float", "Accept", "Become FF")
    assert ("Proposal 1 accepted: no points for acceptance: Become FF forfeits them (rule 16); "
            "no points (still 0); temperature stays 303 K; "
            "alice@wonder.land is now FF: 303 K + 1^3 - entropy 1 = 303 >= 300") in out
    out = decide(play, ALICE, "Float on", "Accept", "Become FF")
    assert "+3 points (now 3); temperature 303 -> 304 K; Become FF: alice@wonder.land is FF already" in out
    assert public(play.state()) == {
        **top(temperature=304, accept_streak=2), "players": [*officers(), player(ALICE, 3, 21942, 1, category="FF")],
        "submissions": [proposal(1, ALICE, "Float", "accepted"), proposal(2, ALICE, "Float on", "accepted")],
    }
    assert ledger(play) == [(ALICE, 3, 3, "Proposal 2 accepted")]
    play.verify()


def test_below_300_the_change_fails_but_the_points_are_still_forfeited(make_play):
    play = make_play(first_it=NOBODY)
    decide(play, BOB, "Bad", "Reject")   # 303 -> 298
    decide(play, BOB, "Worse", "Reject")  # 298 -> 293
    out = decide(play, ALICE, "Float", "Accept", "Become FF")
    assert ("no points (still 0); temperature stays 293 K; "
            "Become FF not granted: 293 K + 1^3 - entropy 1 = 293 < 300 (rule 16)") in out
    assert public(play.state())["players"] == [*officers(), 
        player(BOB, -4, 45917, 2, probation=True), player(ALICE, 0, 21942, 1)]
    play.verify()


def test_a_rejected_request_costs_the_usual_penalty_and_tie_stays_gp(make_play):
    play = make_play(first_it=NOBODY)
    assert "-2 points (now -2)" in decide(play, ALICE, "Float", "Reject", "Become FF")
    out = decide(play, EMPEROR, "Me too", "Accept", "Become FF")
    assert "no points (still 0)" in out and "Become FF not granted: TIE and THS stay GP (rule 16)" in out
    assert [(p["email"], p["score"], p["category"]) for p in play.state()["players"]] == [
        (EMPEROR, 0, "GP"), (SCRIBE, 0, "GP"), (ALICE, -2, "GP")]  # rule 1: TIE a player from the start
    play.verify()


def test_an_ff_player_cooling_the_game_below_290_gains_fifteen_times_entropy(make_play):
    play = make_play(first_it=NOBODY)
    decide(play, ALICE, "Float", "Accept", "Become FF")
    decide(play, BOB, "B1", "Ignore because dull")   # 303 -> 298
    decide(play, BOB, "B2", "Ignore because dull")   # 298 -> 293
    out = decide(play, BOB, "B3", "Ignore because dull")  # 293 -> 288: a GP player, no bonus
    assert "temperature 293 -> 288 K" in out and "FF bonus" not in out
    for title in ("A1", "A2", "A3"):  # heat +0, +1, +2
        decide(play, ALICE, title, "Accept")
    assert play.state()["temperature"] == 291
    out = decide(play, ALICE, "A4", "Ignore because dull")
    assert ("FF bonus for alice@wonder.land: the game cooled from 291 K to 286 K, "
            "15 x entropy 1: +15 points (now 24) (rule 16)") in out
    assert ledger(play)[-1] == (
        ALICE, 15, 24, "cooled the game from 291 K to 286 K as an FF player (rule 16)")
    assert public(play.state())["players"] == [*officers(), 
        player(ALICE, 24, 21942, 1, category="FF"), player(BOB, 0, 45917, 2)]
    play.verify()


def test_the_ff_bonus_of_a_whap_holds_in_a_process_that_handled_nothing_else(make_play):
    """A whap mailed to a freshly started daemon (here ``nomic ingest`` in a new process) earns the
    bonus, and a replay in another new process agrees: nothing in the rules depends on which
    modules an earlier mail happened to import."""
    play = make_play(first_it=NOBODY, seed="tivol-23")  # the whap's 1-in-5 chance does not come up
    decide(play, ALICE, "Float", "Accept", "Become FF")   # 303 K, no points
    decide(play, BOB, "B1", "Reject")                     # 303 -> 298
    decide(play, BOB, "B2", "Reject")                     # 298 -> 293
    whap = play.dir.parent / "whap.eml"
    whap.write_bytes(make_mail(ALICE, "whap", "Whap Tivol", message_id="whap@test"))

    def nomic(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "nomic", *args, "--game", str(play.dir)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    out = nomic("ingest", "--at", "2026-01-05T03:00:00Z", str(whap))
    assert ("FF bonus for alice@wonder.land: the game cooled from 293 K to 288 K, "
            "15 x entropy 1: +15 points (now 14) (rule 16)") in out
    assert "matches the stored state" in nomic("replay", "--verify")
    assert ledger(play)[-2:] == [
        (ALICE, -1, -1, "whapped Tivol (rule 20)"),
        (ALICE, 15, 14, "cooled the game from 293 K to 288 K as an FF player (rule 16)")]
    assert play.player(ALICE)["score"] == 14
