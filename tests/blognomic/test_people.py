"""Idling and unidling, an unidled player's old vote, seasonal downtime, CfJs and dice."""
from __future__ import annotations

from datetime import datetime, timezone

from engine import machine
from engine.blognomic.state import BlogState
from engine.inputs import Message
from tests.blognomic.support import ADMIN, ALICE, BOB, CAROL, DAVE, FIVE, Game, answers, config, new_game, of


def test_idling_oneself_is_at_once_and_unidling_waits_four_days():
    game = new_game(FIVE)
    assert answers(game.mail(BOB, "Idle", hours=1)) == ["Idle: Bob is Idle; Quorum is now 3"]
    assert game.json()["players"][2]["idle"] is True
    assert answers(game.mail(BOB, "Unidle", days=3)) == [
        "Unidle: Bob went Idle at 2026-01-05T01:00:00Z, within the previous four days and this dynasty: "
        "they may be unidled from 2026-01-09T01:00:00Z (rule Idle Pactmakers); nothing done"]
    assert answers(game.mail(BOB, "Unidle", days=4, hours=1)) == ["Unidle: Bob is no longer Idle; Quorum is now 3"]


def test_an_admin_idles_a_pactmaker_silent_for_seven_days_and_unidles_one_who_asked():
    game = new_game(FIVE)
    game.mail(BOB, "Proposal: A", hours=1)
    assert answers(game.mail(ADMIN, "x", "Idle Bob", days=7)) == [
        "Idle Bob: Bob asked for nothing and last wrote at 2026-01-05T01:00:00Z: an Admin may idle them from "
        "2026-01-12T01:00:00Z (rule Idle Pactmakers); nothing done"]
    assert answers(game.mail(CAROL, "x", "Idle Bob", days=8)) == [
        "Idle Bob: only an Admin may idle or unidle another (rule Idle Pactmakers); nothing done"]
    assert answers(game.mail(ADMIN, "x", "Idle Bob", days=8)) == ["Idle Bob: Bob is Idle; Quorum is now 3"]
    assert answers(game.mail(ADMIN, "x", "Unidle Bob", days=8)) == [
        "Unidle Bob: Bob has not asked to become Unidle in the past four days (rule Idle Pactmakers); nothing done"]
    game.mail(BOB, "x", "Unidle", days=9)  # not within four days of asking to idle: at once
    assert game.json()["players"][2]["idle"] is False


def test_an_admin_unidles_one_who_asked_once_the_four_days_are_over():
    game = new_game(FIVE)
    game.mail(BOB, "Idle", hours=1)
    game.mail(BOB, "Unidle", days=2)
    assert answers(game.mail(ADMIN, "x", "Unidle Bob", days=4, hours=2)) == [
        "Unidle Bob: Bob is no longer Idle; Quorum is now 3"]


def test_an_idle_pactmaker_has_no_vote_and_an_unidled_one_has_their_old_vote_back():
    """docs/rulings-blognomic.md, "An unidled player's old vote"."""
    game = new_game(FIVE, auto=False)  # the matter stays pending while Bob is away
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "v", "AGAINST 1", hours=2)
    game.mail(BOB, "Idle", hours=3)
    assert game.matter(1)["votes"] == {ALICE: "FOR"}
    assert answers(game.mail(BOB, "v", "FOR 1", hours=4)) == [
        "FOR 1: an Idle Pactmaker has no Vote (send Unidle first) (rule Idle Pactmakers); no Vote cast"]
    game.mail(BOB, "Unidle", days=4, hours=4)
    assert game.matter(1)["votes"] == {ALICE: "FOR", BOB: "AGAINST"}


def test_votes_of_one_who_left_are_gone_and_quorum_follows():
    game = new_game(FIVE)
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "v", "FOR 1", hours=2)
    game.mail(BOB, "Leave", hours=3)
    assert game.matter(1)["votes"] == {ALICE: "FOR"} and game.json()["quorum"] == 3


def test_no_proposals_in_the_seasonal_downtime_but_cfjs_go_on():
    cfg = config()
    state = machine.new_game(cfg, "Core Rules\n\nVotes\n\nText.")
    assert isinstance(state, BlogState)
    game = Game(cfg, state)
    game.mail(ALICE, "Join")
    christmas = datetime(2026, 12, 25, 10, tzinfo=timezone.utc)
    events = machine.apply(state, _mail(ALICE, "Proposal: Cake", christmas), cfg)
    assert answers(events) == [
        "Proposal: Cake: it is the Seasonal Downtime (24 to 26 December) (rule Seasonal Downtime); no Proposal made"]
    events = machine.apply(state, _mail(ALICE, "Call for Judgement: Cake", christmas), cfg)
    assert of(events, "matter_opened")[0]["kind"] == "cfj"
    assert [r.title for r in state.rules] == ["Votes"]


def test_a_cfj_is_enacted_as_soon_as_it_is_popular():
    game = new_game(FIVE)
    game.mail(ALICE, "Call for Judgement: Fix it", 'Amend rule "Tags": No tags.', hours=1)
    game.mail(BOB, "v", "FOR 1", hours=1.5)
    events = game.mail(CAROL, "v", "FOR 1", hours=2)
    assert answers(events)[-1] == 'Call for Judgement 1 "Fix it": Enacted 3-0 (Quorum 3)'
    assert of(events, "amended") == [{"number": 1, "changes": [{"action": "amend", "rule": "Tags",
                                                                  "result": "amended"}], "by_hand": False}]
    assert game.state.rules[17].text == "No tags." and game.state.rules[17].amended_by == ["CfJ1"]


def test_dice_are_seeded_labelled_draws():
    game = new_game(FIVE)
    events = game.mail(ALICE, "x", "Roll DICE6\nRoll FRUIT\nRoll DICE0\nRoll VEGGIE", hours=1)
    draws = of(events, "draw")
    assert [d["label"] for d in draws] == ["roll 1: alice@blog.test DICE6", "roll 2: alice@blog.test FRUIT"]
    rolls = of(events, "roll")
    assert [r["result"] for r in rolls][2] == "0"
    assert answers(events)[3] == "Roll VEGGIE: there is no VEGGIE generator in this ruleset; nothing rolled"
    again = new_game(FIVE)
    assert of(again.mail(ALICE, "x", "Roll DICE6\nRoll FRUIT", hours=1), "roll") == rolls[:2]


def test_a_message_from_a_stranger_or_unauthenticated_changes_nothing():
    game = new_game(FIVE)
    msg = _mail(DAVE, "Proposal: X", datetime(2026, 1, 5, 3, tzinfo=timezone.utc), authenticated=False)
    assert of(machine.apply(game.state, msg, game.config), "unauthenticated")
    assert game.json()["matters"] == []


def _mail(sender: str, subject: str, when: datetime, authenticated: bool = True) -> Message:
    from tests.blognomic.support import GRAMMAR
    reading = GRAMMAR.read(subject, "")
    return Message(at=when, message_id=f"{subject}@x", sender=sender, authenticated=authenticated,
                   subject=subject, commands=reading.commands)


def test_messages_and_state_round_trip_through_json_and_replay_alike():
    from engine.blognomic import RULESET
    from engine.inputs import load_message
    game = new_game(FIVE)
    game.mail(ALICE, "Proposal: A", 'Enact rule "Cake": Cake.', hours=1)
    game.mail(BOB, "v", "FOR 1\nRoll DICE6", hours=2)
    snapshot = BlogState.model_validate_json(game.state.model_dump_json())
    msg = _mail(CAROL, "Re: Proposal: A", datetime(2026, 1, 5, 3, tzinfo=timezone.utc))
    msg.commands = RULESET.command_models.validate_python([{"kind": "vote", "icon": "FOR", "number": 1,
                                                            "line": "FOR 1"}])
    again = load_message(msg.model_dump_json(), RULESET.message_model)
    first = machine.apply(game.state, msg, game.config)
    second = machine.apply(snapshot, again, game.config)
    assert first == second and game.state.public_json() == snapshot.public_json()
