"""Rule 22: Tag. It, what It and Inactive players may not do, tagging, time-outs, restoring."""
from tests.engine.imperial_play import ALICE, BOB, join, ledger
from tests.engine.rule_support import officers, NOBODY, player, point_of_order, proposal, public, roll, top
from tests.support import EMPEROR, SCRIBE, at

AIA, OUI, IOU = "aia@eau.io", "oui@eau.io", "iou@eau.io"  # Profile 0: never in the AND check
IT_ONLY = ("you are It: It may not perform any game action other than submitting Proposals (rule 22); "
           "nothing done")
INACTIVE = ("you are on Inactive status: an Inactive player may not perform any game action other than "
            "submitting Proposals (rule 22); nothing done")


def test_it_comes_from_first_it_and_may_only_submit_proposals(make_play):
    play = make_play(first_it=ALICE)
    assert play.state()["it"] == ALICE  # before Alice has even joined
    join(play, BOB)
    assert "recorded as Proposal 2" in play.propose(ALICE, "I may propose")
    refused = {"Report bob": IT_ONLY, "Whap Tivol": IT_ONLY, "Agree swap 1": IT_ONLY,
               f"Swap sections 1-4 with {BOB} sections 1-4": IT_ONLY}
    for line, why in refused.items():
        assert why in play.send(ALICE, "action", line)
    assert IT_ONLY in play.send(ALICE, "Point of Order: scores", "A Point of Order is a game action too.")
    st = play.state()
    assert (len(st["submissions"]), st["reports"], st["swaps"], st["whaps"]) == (2, [], [], 0)
    play.verify()


def test_the_first_player_to_join_is_it_when_first_it_is_empty(play):
    play.propose(ALICE, "Hello")
    play.propose(BOB, "Hello too")
    assert play.state()["it"] == ALICE
    play.verify()


def test_tags_time_outs_inactive_status_and_the_wrap_to_the_top(make_play):
    play = make_play(day_mode="fixed", first_it=NOBODY)
    join(play, AIA, OUI, IOU, at=at(1))
    eligible = [AIA, OUI, IOU]
    potd = {d: eligible[roll(f"day:{d}:player-of-the-day", 0, 2)] for d in range(1, 17)}
    changes_of_it = {5, 10, 11, 16}
    temperature = {0: 303}
    and_points = {EMPEROR: 0, SCRIBE: 0}  # rule 1: TIE and THS are players, in the AND check
    for d in range(1, 17):
        heat = 1 if d == 11 else 0  # day 11: two accepted Proposals heat by +0 then +1
        drop = 15 if d in changes_of_it else 0
        t = temperature[d - 1] + heat
        matched = [who for who, p in ((EMPEROR, 36151), (SCRIBE, 60727)) if p & t == t]
        for who in matched:
            and_points[who] += 5
        t += roll(f"day:{d}:and", -10, 10) if matched else 0
        temperature[d] = t - drop - roll(f"day:{d}:cooling", 0, 10)  # the AND check, It, cooling
    assert and_points == {EMPEROR: 5, SCRIBE: 5}  # the seed's path meets one match for both

    play.tick(at(6, 0))  # nobody@it.test, It since day 1, proposed nothing by the end of day 5
    st = play.state()
    assert (st["it"], st["temperature"]) == (AIA, temperature[5])
    assert IT_ONLY in play.send(AIA, "r", f"Report {OUI}", at=at(6))

    play.tick(at(11, 0))  # AIA, It since day 6, proposed nothing by the end of day 10
    st = play.state()
    assert (st["it"], st["temperature"]) == (OUI, temperature[10])
    assert [p["active"] for p in st["players"]] == [True, True, False, True, True]
    assert INACTIVE in play.send(AIA, "r", f"Report {OUI}", at=at(11))

    play.propose(OUI, "Run", at=at(11, 1))
    assert ("It may tag only on the game day one of its Proposals is accepted (rule 22); nothing done"
            in play.send(OUI, "t", f"Tag {IOU}", at=at(11, 1)))
    play.judge("Accept 4", at=at(11, 2))
    assert (f"only It may tag, and It is {OUI} (rule 22); nothing done"
            in play.send(IOU, "t", f"Tag {OUI}", at=at(11, 2)))
    assert (f"{AIA} is on Inactive status and may not be tagged It by an active player (rule 22); "
            "nothing done"
            in play.send(OUI, "t", "Tag aia", at=at(11, 2)))
    assert f"{IOU} becomes It at the end of day 11" in play.send(OUI, "t", "Tag iou", at=at(11, 2))
    play.propose(AIA, "Back", at=at(11, 3))
    assert (f"{AIA} is active again, without points for this Proposal (rule 22); no points (still "
            in play.judge("Accept 5", at=at(11, 4)))

    play.tick(at(17, 0))  # day 11 ends: IOU is It from day 12, and proposes nothing by the end of day 16
    points = {email: sum(1 for d in range(1, 17) if potd[d] == email) for email in eligible}
    assert public(play.state()) == {
        **top(game_day=17, temperature=temperature[16], accept_streak=2, it=AIA),  # wrapped to the top
        "players": [*officers(and_points[EMPEROR], and_points[SCRIBE]), player(AIA, points[AIA], 0, 8), player(OUI, points[OUI] + 3, 0, 8),
                    player(IOU, points[IOU], 0, 8, active=False)],
        "submissions": [point_of_order(1, AIA), point_of_order(2, OUI), point_of_order(3, IOU),
                        proposal(4, OUI, "Run", "accepted"), proposal(5, AIA, "Back", "accepted")],
    }
    assert [c for _, _, _, c in ledger(play)].count("Proposal 5 accepted") == 0
    play.verify()


def test_it_may_not_tag_tie_itself_or_twice(make_play):
    play = make_play(first_it=ALICE)
    join(play, EMPEROR, BOB)
    play.propose(ALICE, "Run")
    play.judge("Accept 3")
    assert "TIE may not be It (rule 22); nothing done" in play.send(ALICE, "t", f"Tag {EMPEROR}")
    assert "you cannot tag yourself (rule 22); nothing done" in play.send(ALICE, "t", "Tag alice")
    assert "nobody@x.org is not a player; nothing done" in play.send(ALICE, "t", "Tag nobody@x.org")
    assert f"{BOB} becomes It at the end of day 1" in play.send(ALICE, "t", "Tag bob")
    assert f"you have already tagged {BOB} today (rule 22); nothing done" in play.send(ALICE, "t", "Tag bob")
    st = play.state()
    assert (st["it"], st["it_next"], st["temperature"]) == (ALICE, BOB, 303)
    play.verify()
