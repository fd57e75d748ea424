"""The Clock (2-1, 3-8): every 00:00 UTC in the contract's order, nday names, On and Off, ndelay,
the Clock stopping itself at Ballotday and at the wrap, the Ministers' power over it, and
``next_due`` landing exactly on each midnight."""
from __future__ import annotations

from datetime import timedelta

from engine import machine
from engine.bnomic import clock
from engine.inputs import ClockStep
from tests.bnomic.support import ALICE, BOB, START, Game, kinds, said

SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"


def test_the_midnight_pipeline_is_the_contracts_order():
    assert [name for name, _ in clock.MIDNIGHT] == [
        "1.1 the end of Voting", "1.2 dependent actions whose window closes",
        "1.3 auctions: the end-of-Zarpint purchase or penalty, the end-of-Thirnight second bidder",
        "1.4 consultations: claim tallies, then Pondering", "1.5 scheduled actions at the end of the nday",
        "1.6 Victory Conditions cease to be Fulfilled; Ministers paid, then all Ministries Vacant", "2 the Clock changes", "3.1 Hit Points",
        "3.2 nday 1: Active, Faction Vote Power x3/4, consultations reassigned (also after every 10th ndelay)", "3.3 nday 9: Clock Off, Pending proposals Open, Vote Power",
        "3.4 nday 11: bidding ends, the highest bidder buys if he can", "3.5 scheduled actions at the start of the nday", "4 scheduled actions at this absolute time", "the daily mail"]


def test_next_due_is_each_midnight_after_the_start_and_the_start_is_no_change():
    g = Game()
    assert machine.next_due(g.state, g.config) == START + timedelta(days=1)
    assert g.json()["clock"]["ndelay"] == 0
    g.midnight(1)
    assert machine.next_due(g.state, g.config) == START + timedelta(days=2)
    assert g.json()["clock"] == {"nweek": 1, "nday": 1, "nday_name": "Breakday", "on": False, "ndelay": 1,
                                 "voting": False, "nday_changes": 0, "ndelay_changes": 1, "rdays": 1}


def test_a_step_a_second_before_midnight_does_nothing_and_a_late_one_catches_up_every_midnight():
    g = Game()
    machine.apply(g.state, ClockStep(at=START + timedelta(days=1, seconds=-1)), g.config)
    assert g.state.midnights == 0
    g.midnight(3)
    assert (g.state.midnights, g.state.clock.ndelay, g.state.clock.rdays) == (3, 3, 3)


def test_the_mom_starts_the_clock_only_with_no_vacant_ministry_and_it_stops_at_ballotday():
    g = Game()
    assert said(g.send(BOB, "x", "Clock on")) == [
        '! "Clock on": only the MoM, or the Chairman after publishing a Ballot in the Voting Period, starts the '
        'Clock (rule 2-1); nothing done']
    g.send(ALICE, "x", "Take MoM")
    assert said(g.send(ALICE, "x", "Start the clock")) == [
        '! "Start the clock": the Ministry of Society is Vacant: the MoM starts the Clock only with no Vacant '
        'Ministry (rule 2-1); nothing done']
    g.midnight(2)
    g.send(ALICE, "x", SEVEN.replace("Take MoM", ""))
    assert said(g.send(ALICE, "x", "Clock on")) == ['  "Clock on": the Clock is On: nweek 1, nday 1 (Breakday)']
    assert g.json()["clock"]["ndelay"] == 0
    for n in range(3, 11):
        g.midnight(n)
    assert g.json()["clock"] == {"nweek": 1, "nday": 9, "nday_name": "Ballotday", "on": False, "ndelay": 0,
                                 "voting": True, "nday_changes": 8, "ndelay_changes": 2, "rdays": 10}
    g.midnight(11)
    assert (g.state.clock.nday, g.state.clock.ndelay) == (9, 1)


def test_the_chairman_starts_the_clock_after_his_ballot_and_the_wrap_stops_it():
    g = Game()
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.to_nday(9)
    assert said(g.send(BOB, "x", "Publish ballot")) == [
        '! "Publish ballot": only the Chairman may do that, and you do not hold the Ministry now (rule 2-2); nothing done']
    g.send(ALICE, "x", "Resign MoM")
    assert said(g.send(ALICE, "x", "Clock on"))[0].startswith('! "Clock on": only the MoM, or the Chairman')
    g.send(ALICE, "x", "Publish ballot")
    assert said(g.send(ALICE, "x", "Clock on")) == ['  "Clock on": the Clock is On: nweek 1, nday 9 (Ballotday)']
    events = g.to_nday(1)
    assert g.json()["clock"] == {"nweek": 2, "nday": 1, "nday_name": "Breakday", "on": False, "ndelay": 0,
                                 "voting": False, "nday_changes": 12, "ndelay_changes": 0, "rdays": 12}
    assert "voting_ended" in kinds(events)
    # 6-5: each Minister gains m50 once, then every Ministry is Vacant
    assert g.player(ALICE)["mackerel"] == "m100" and g.player(BOB)["mackerel"] == "m50"
    assert [m["holder"] for m in g.json()["ministries"]] == [None] * 7
    assert g.json()["last_metamin"] == ALICE


def test_the_mom_stops_the_clock_and_a_stopped_clock_counts_ndelays():
    g = Game()
    g.send(ALICE, "x", SEVEN + "\nClock on")
    g.midnight(1)
    assert said(g.send(ALICE, "x", "Clock off")) == ['  "Clock off": the Clock is Off: nweek 1, nday 2 (Winday)']
    assert said(g.send(ALICE, "x", "Stop the clock")) == ['! "Stop the clock": the Clock is Off already; nothing done']
    g.midnight(2)
    assert (g.state.clock.nday, g.state.clock.ndelay, g.state.clock.nday_changes) == (2, 1, 1)
