"""A game that nothing moves on says every day whom it waits for, and rule 105's vote has the
operator's way out (``[suber] vote_days``; docs/rulings-suber.md, "A player who never votes")."""
from __future__ import annotations

from datetime import datetime, timedelta

from engine import machine
from engine.events import Event
from engine.inputs import ClockStep
from engine.suber import RULESET
from tests.suber.support import ALICE, BOB, CAROL, START, Game, vote_all

ZED = "zed@stranger.test"
VOTE = "a vote on proposal 301 ('Vote yes 301' or 'Vote no 301')"


def tick(game: Game, at: datetime) -> list[Event]:
    return machine.apply(game.state, ClockStep(at=at), game.config)


def owed(events: list[Event]) -> list[tuple[str, str]]:
    [daily] = [e.data for e in events if e.kind == "daily"]
    return [(w["name"], w["owes"]) for w in daily["owed"]]


def stranger_holds_the_vote(**options: object) -> Game:
    """Zed joins before the first proposal and never votes; the three others vote yes on 301."""
    game = Game(daily_mail=True, **options)
    game.send(ZED, "Join", name="Zed Zimmer")
    game.send(ALICE, "Proposal: Hello", "Enact rule: Hello.")
    game.send(ALICE, "Call vote 301")
    vote_all(game, 301, {ALICE: "Yes", BOB: "Yes", CAROL: "Yes"})
    return game


def test_a_stranger_who_never_votes_holds_the_vote_and_is_named_every_day():
    game = stranger_holds_the_vote()
    assert [p.email for p in game.state.players] == [ALICE, BOB, CAROL, ZED]
    for day in range(1, 31):
        assert owed(tick(game, START + timedelta(days=day))) == [("Zed Zimmer", VOTE)]
    assert game.json()["proposals"][0]["status"] == "voting" and game.json()["turn"] == ALICE
    assert RULESET.next_due(game.state, game.config) == START + timedelta(days=31)  # only the daily mail


def test_with_vote_days_the_vote_completes_with_the_votes_cast_when_they_run_out():
    game = stranger_holds_the_vote(vote_days=7)
    called = game.state.proposals[0].called_at
    assert called is not None and RULESET.next_due(game.state, game.config) == START + timedelta(days=1)
    tick(game, START + timedelta(days=7))  # the last daily before the deadline
    assert RULESET.next_due(game.state, game.config) == called + timedelta(days=7)
    events = tick(game, called + timedelta(days=7))
    assert [(e.data["command"], e.data["result"]) for e in events if e.kind == "outcome"] == [
        ("proposal 301", "7 days since the vote was called: it completes with the votes cast; not voted, "
                         "counted as absent: Zed Zimmer"),
        ("proposal 301", "adopted, 3 of 3 votes in favour")]
    view = game.json()
    assert (view["proposals"][0]["status"], view["proposals"][0]["points"], view["turn"]) == ("adopted", 10, BOB)
    assert game.scores() == {ALICE: 10, BOB: 0, CAROL: 0, ZED: 0}
    assert owed(tick(game, START + timedelta(days=8))) == [("Bob Brown", "this turn's proposal ('Proposal: NAME')")]


def test_a_vote_no_one_cast_is_defeated_when_its_days_run_out():
    game = Game(vote_days=2)
    game.send(ALICE, "Proposal: Hello", "Enact rule: Hello.")
    game.send(ALICE, "Call vote 301")
    tick(game, START + timedelta(days=3))
    assert game.json()["proposals"][0]["status"] == "defeated" and game.scores()[ALICE] == -10


def test_what_each_owes_in_debate_and_to_a_judgment():
    game = Game(daily_mail=True)
    game.send(ALICE, "Proposal: Hello", "Enact rule: Hello.")
    game.send(BOB, "Invoke judgment: Is hello a rule?")
    game.send(BOB, "Vote yes 301")
    assert owed(tick(game, START + timedelta(days=1))) == [
        ("Alice Adams", "the call of the vote on proposal 301 ('Call vote 301')"),
        ("Carol Clark", "an answer to Judgment 1 ('Judgment 1: TEXT')")]
