"""Mackerel (3-10, 3-11): exact gifts between Players and the exchange of points; refused ones
change nothing."""
from __future__ import annotations

from tests.bnomic.support import ALICE, BOB, CAROL, Game, said


def balances(g: Game) -> dict[str, str]:
    return {p["email"]: p["mackerel"] for p in g.json()["players"]}


def test_gifts_are_exact_decimals_and_kept_in_the_money_ledger():
    g = Game()
    events = g.send(ALICE, "x", "Give m10.15 to Bob\nPay carol 0.3 mackerel\nGive m19.55 to \"BOB\"")
    assert said(events) == ['  "Give m10.15 to Bob": Bob has m60.15, you have m39.85',
                            '  "Pay carol 0.3 mackerel": Carol has m50.3, you have m39.55',
                            '  "Give m19.55 to "BOB"": Bob has m79.7, you have m20']
    assert [(e.data["player"], e.data["delta"], e.data["balance"]) for e in events if e.kind == "mackerel"] == [
        (ALICE, "-m10.15", "m39.85"), (BOB, "m10.15", "m60.15"), (ALICE, "-m0.3", "m39.55"),
        (CAROL, "m0.3", "m50.3"), (ALICE, "-m19.55", "m20"), (BOB, "m19.55", "m79.7")]
    assert balances(g)[ALICE] == "m20" and balances(g)[BOB] == "m79.7" and balances(g)[CAROL] == "m50.3"


def test_a_gift_must_be_positive_within_the_balance_and_to_a_player_reading_36():
    g = Game()
    events = g.send(ALICE, "x", "Give m0 to Bob\nGive m50.01 to Bob\nGive m5 to Zed\nGive m5 to Alice\n"
                                "Give m-5 to Bob\nGive m1234567890123 to Bob\nGive m50 to Bob\nGive m0.01 to Bob")
    assert said(events) == [  # the lines not understood are answered first
        '! "Give m-5 to Bob": not understood; nothing done',
        '! "Give m1234567890123 to Bob": not understood; nothing done',
        '! "Give m0 to Bob": a gift must be more than m0 (3-10); nothing done',
        '! "Give m50.01 to Bob": you have m50: you cannot give more (3-10); nothing done',
        '! "Give m5 to Zed": there is no Player Zed; nothing done',
        '! "Give m5 to Alice": you cannot give mackerel to yourself; nothing done',
        '  "Give m50 to Bob": Bob has m100, you have m0',
        '! "Give m0.01 to Bob": you have m0: you cannot give more (3-10); nothing done']
    assert balances(g)[ALICE] == "m0" and balances(g)[BOB] == "m100"


def test_points_are_exchanged_for_m5_each_from_0_to_all_held_reading_37():
    g = Game()
    g.state.player(BOB).score = 4  # type: ignore[union-attr]
    events = g.send(BOB, "x", "Exchange 5 points for mackerel\nExchange 0 points for mackerel\n"
                              "Exchange 3 points for mackerel\nExchange 1 point for macks")
    assert said(events) == [
        '! "Exchange 5 points for mackerel": you have 4 points: you cannot exchange more (3-10); nothing done',
        '  "Exchange 0 points for mackerel": you have 4 points and m50',
        '  "Exchange 3 points for mackerel": you have 1 points and m65',
        '  "Exchange 1 point for macks": you have 0 points and m70']
    assert g.player(BOB)["points"] == 0 and g.player(BOB)["mackerel"] == "m70"
    assert [(e.data["delta"], e.data["cause"]) for e in events if e.kind == "score"] == [
        (-3, "exchanged for mackerel (3-10)"), (-1, "exchanged for mackerel (3-10)")]


def test_a_gift_in_a_failed_transaction_moves_no_mackerel():
    g = Game()
    events = g.send(ALICE, "x", "BEGIN TRANSACTION\nGive m30 to Bob\nGive m30 to Carol\nEND TRANSACTION")
    assert said(events)[-1].startswith('! "BEGIN TRANSACTION": line 2, \'Give m30 to Carol\', failed: you have m20')
    assert balances(g)[ALICE] == "m50" and balances(g)[BOB] == "m50"
