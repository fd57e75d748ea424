"""Mackerel (3-10, 3-11): exact gifts between Players and the exchange of points; refused ones
change nothing."""
from __future__ import annotations

from engine.events import Event
from tests.bnomic.support import ALICE, BOB, CAROL, DAVE, ERIN, Game, said


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
        '! "Give m0 to Bob": a gift must be more than m0 (rule 3-10); nothing done',
        '! "Give m50.01 to Bob": you have m50: you cannot give more (rule 3-10); nothing done',
        '! "Give m5 to Zed": there is no Player Zed; nothing done',
        '! "Give m5 to Alice": you cannot give mackerel to yourself (rule 3-10); nothing done',
        '  "Give m50 to Bob": Bob has m100, you have m0',
        '! "Give m0.01 to Bob": you have m0: you cannot give more (rule 3-10); nothing done']
    assert balances(g)[ALICE] == "m0" and balances(g)[BOB] == "m100"


def test_points_are_exchanged_for_m5_each_from_0_to_all_held_reading_37():
    g = Game()
    g.state.player(BOB).score = 4  # type: ignore[union-attr]
    events = g.send(BOB, "x", "Exchange 5 points for mackerel\nExchange 0 points for mackerel\n"
                              "Exchange 3 points for mackerel\nExchange 1 point for macks")
    assert said(events) == [
        '! "Exchange 5 points for mackerel": you have 4 points: you cannot exchange more (rule 3-10); nothing done',
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


SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"
LAMP = "Non-unique\nPrice: m12.50\nAttribute colour: red\nProperty Bright\nA lamp to read by."


def artisan_game() -> Game:
    """Alice holds every Ministry (the Artisan too) and the Clock is On, so that ndays pass."""
    g = Game()
    g.send(ALICE, "x", SEVEN + "\nClock on")
    return g


def test_a_blueprint_is_created_without_2_objections_in_2_ndays_once_per_nweek():
    g = artisan_game()
    assert said(g.send(BOB, "Blueprint: Kite", "Unique")) == [
        '! "Blueprint: Kite": only the Artisan may do that, and you do not hold the Ministry now (rule 3-14); nothing done']
    assert said(g.send(ALICE, "Blueprint: Lamp", LAMP)) == [
        '  "Blueprint: Lamp": A1: the blueprint Lamp (non-unique, m12.5) exists unless 2 Players object within '
        '2 ndays (3-14)']
    assert said(g.send(ALICE, "Blueprint: Kite", "Unique")) == [
        '! "Blueprint: Kite": the Ministry of Goods has created a blueprint this nweek, or is awaiting one (rule 3-14); '
        'nothing done']
    g.send(BOB, "x", "Object to A1")
    assert said(g.send(BOB, "x", "Buy Lamp")) == ['! "Buy Lamp": there is no blueprint Lamp; nothing done']
    g.to_nday(3)
    assert g.json()["blueprints"] == [] and g.json()["actions"][0]["status"] == "pending"
    g.to_nday(4)  # the window closes at the end of nday 1 + 2 with 1 objection
    assert g.json()["actions"][0]["status"] == "occurred"
    assert g.json()["blueprints"] == [{"name": "Lamp", "unique": False, "price": "m12.5", "bids": [],
                                       "attributes": {"colour": "red"}, "properties": ["Bright"]}]


def test_the_artisan_creates_no_blueprint_after_corvette_nor_one_without_unique_or_non_unique_reading_33():
    g = artisan_game()
    assert said(g.send(ALICE, "Blueprint: Lamp", "Price: m5")) == [
        '! "Blueprint: Lamp": the body must say \'Unique\' or \'Non-unique\' (rule 3-14); nothing done']
    g.to_nday(6)
    assert said(g.send(ALICE, "Blueprint: Lamp", LAMP)) == [
        '! "Blueprint: Lamp": the Ministry of Goods creates blueprints no later than Corvette, nday 5 (rule 3-14); '
        'nothing done']
    assert g.json()["actions"] == []


def test_devices_are_bought_at_the_price_given_and_destroyed_by_their_owner_and_repriced_without_2_objections():
    g = artisan_game()
    g.send(ALICE, "Blueprint: Lamp", LAMP)
    g.to_nday(4)
    assert said(g.send(BOB, "x", "Buy Lamp\nBuy a lamp\nGive device 1 to Carol\nDestroy device 2\n"
                                 "Give device 2 to Bob\nDestroy device 9")) == [
        '  "Buy Lamp": you own device 1, a Lamp; you have m37.5',
        '  "Buy a lamp": you own device 2, a Lamp; you have m25',
        '  "Give device 1 to Carol": Carol owns device 1, a Lamp',
        '  "Destroy device 2": device 2, a Lamp, is destroyed',
        '! "Give device 2 to Bob": there is no device 2; nothing done',
        '! "Destroy device 9": there is no device 9; nothing done']
    assert said(g.send(BOB, "x", "Destroy device 1")) == ['! "Destroy device 1": device 1 is not yours (rule 3-12); nothing done']
    assert said(g.send(CAROL, "x", "Buy Lamp")) == ['  "Buy Lamp": you own device 3, a Lamp; you have m37.5']
    assert g.json()["devices"] == [
        {"number": 1, "blueprint": "Lamp", "owner": CAROL, "attributes": {"colour": "red"}, "properties": ["Bright"]},
        {"number": 3, "blueprint": "Lamp", "owner": CAROL, "attributes": {"colour": "red"}, "properties": ["Bright"]}]
    assert said(g.send(ALICE, "x", "Set price of Lamp to m60\nSet price of Kite to m1")) == [
        '  "Set price of Lamp to m60": A2: the price of Lamp is m60 unless 2 Players object within 2 ndays (3-14)',
        '! "Set price of Kite to m1": there is no blueprint Kite (rule 3-14); nothing done']
    g.send(BOB, "x", "Object to A2")
    g.send(CAROL, "x", "Object to A2")
    assert g.json()["actions"][1]["status"] == "failed"
    g.send(ALICE, "x", "Set price of lamp to 25.25 mackerel")
    g.to_nday(7)
    assert g.json()["blueprints"][0]["price"] == "m25.25"
    assert said(g.send(BOB, "x", "Buy Lamp")) == [
        '! "Buy Lamp": Lamp costs m25.25 and you have m25 (rule 3-14); nothing done']
    assert g.player(BOB)["mackerel"] == "m25" and len(g.json()["devices"]) == 2


def crown_game() -> Game:
    """A unique blueprint Crown exists from nday 4 of nweek 1."""
    g = artisan_game()
    g.send(ALICE, "Blueprint: Crown", "Unique\nAttribute shine: gold")
    g.to_nday(4)
    return g


def to_zarpint(g: Game) -> list[Event]:
    events = g.to_nday(9)
    events += g.send(ALICE, "x", "Publish ballot\nClock on")  # the Chairman, after his Ballot (2-1)
    return events + g.to_nday(11)


def auction(events: list[Event]) -> list[tuple[str, str | None, str | None]]:
    return [(e.data["what"], e.data["bidder"], e.data["amount"]) for e in events if e.kind == "auction"]


def test_an_auction_is_won_by_the_second_bidder_after_the_first_fails_his_grace_nday_and_is_penalized():
    g = crown_game()
    g.state.player(BOB).score = 30  # type: ignore[union-attr]
    assert said(g.send(BOB, "x", "Bid m80 on Crown\nBid m70 on crown")) == [
        '  "Bid m80 on Crown": your bid of m80 on Crown is recorded; the highest is m80 by bob@b.test',
        '  "Bid m70 on crown": your bid of m70 on Crown is recorded; the highest is m80 by bob@b.test']
    g.send(CAROL, "x", "Bid m60 on Crown")
    g.send(DAVE, "x", "Bid 60 mackerel on Crown")  # equal to Carol's: hers is the earlier, so higher
    assert g.json()["blueprints"][0]["price"] == "m80"
    assert [b["amount"] for b in g.json()["blueprints"][0]["bids"]] == ["m80", "m70", "m60", "m60"]
    events = to_zarpint(g)
    assert auction(events) == [("grace", BOB, "80")]
    assert [e.data["lines"][1:] for e in events if e.kind == "daily"][-1] == [
        "Auction of Crown: grace (bob@b.test, m80)", "It is the Voting Period: no proposal is Open"]
    assert said(g.send(ERIN, "x", "Bid m90 on Crown")) == [
        '! "Bid m90 on Crown": bidding on Crown ended at the start of Zarpint (rule 3-14); nothing done']
    assert g.player(BOB)["vote_power"] == "1"
    assert auction(g.to_nday(12)) == [("penalty", BOB, "80")]
    assert (g.player(BOB)["vote_power"], g.player(BOB)["points"], g.player(BOB)["mackerel"]) == ("0", 5, "m50")
    g.send(ALICE, "x", "Give m10 to Carol")
    assert auction(g.to_nday(1)) == [("bought", CAROL, "60")]
    assert g.json()["blueprints"] == []
    assert g.json()["devices"] == [{"number": 1, "blueprint": "Crown", "owner": CAROL,
                                    "attributes": {"shine": "gold"}, "properties": []}]
    assert g.player(CAROL)["mackerel"] == "m0" and g.player(DAVE)["mackerel"] == "m50"


def test_the_highest_bidder_who_can_pay_buys_at_the_start_of_zarpint_and_an_unbid_blueprint_ceases():
    g = crown_game()
    assert said(g.send(BOB, "x", "Bid m0.5 on Crown\nBid m5 on Lamp\nBuy Crown")) == [
        '  "Bid m0.5 on Crown": your bid of m0.5 on Crown is recorded; the highest is m0.5 by bob@b.test',
        '! "Bid m5 on Lamp": there is no blueprint Lamp; nothing done',
        '! "Buy Crown": Crown is unique: \'Bid mX on Crown\' (rule 3-14); nothing done']
    assert auction(to_zarpint(g)) == [("bought", BOB, "0.5")]
    assert g.player(BOB)["mackerel"] == "m49.5" and g.json()["devices"][0]["owner"] == BOB
    h = crown_game()
    assert auction(to_zarpint(h)) == [("ceased", None, None)] and h.json()["blueprints"] == [] and h.json()["devices"] == []
