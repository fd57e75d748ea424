"""The issue's "done" game at engine level: three players play two full circuits and a third turn,
with the exact ``nomic state --json`` after every message (turn, numbers, statuses, scores, rules)."""
from __future__ import annotations

from typing import Any

from engine.events import Event
from engine.suber.ruletext import parse_rules
from engine.suber.state import SuberState
from tests.suber.support import ALICE, BOB, CAROL, DAN, RULES_TEXT, Game, kinds, refused

RULE_210 = "Players may consult on future rule-changes at any time."
HELLO = "Players may say hello."
HELLO_BYE = "Players may say hello and goodbye."
MAJORITY = "A rule-change is adopted if and only if a simple majority of the votes cast favour it."
# what each rule of the Initial Set runs (CONTRACT.md: "mechanics"), and the parameters at the start
MECHANICS = {201: ["the turn passing to the next player in alphabetical order by surname"],
             202: ["points to the proposer when the vote completes"],
             203: ["the change to a simple majority at the end of the second circuit"],
             204: ["points to those who voted against an adopted proposal"],
             205: ["an adopted rule-change in full effect before the points its completion brings"],
             206: ["the loss of points for a defeated proposal"],
             207: ["one vote each, never changed"],
             208: ["the win on reaching the winning score"],
             209: ["the limit on mutable rules"],
             212: ["Judgment: the Judge, overruling and consent to the next turn"],
             213: ["a Judge's rule 213 finding ending the game"]}
PARAMETERS = {"points_offset": 291, "adoption": "unanimity", "dissent_bonus": 10, "defeat_penalty": 10,
              "win_score": 200, "mutable_rule_limit": 25}


def initial() -> dict[str, Any]:
    return {
        "ruleset": "suber", "turn": ALICE, "circuit": 1, "unanimity": True, "winner": None,
        "players": [{"email": ALICE, "name": "Alice Adams", "score": 0, "away_until": None},
                    {"email": BOB, "name": "Bob Brown", "score": 0, "away_until": None},
                    {"email": CAROL, "name": "Carol Clark", "score": 0, "away_until": None}],
        "subscribers": [{"email": p, "digest": False, "plain": False, "since": "2026-01-05T00:00:00Z"}
                        for p in (ALICE, BOB, CAROL)],  # the players hear the game from the start
        "proposals": [], "parameters": dict(PARAMETERS),
        "rules": [{"number": r.number, "text": r.text, "mutable": r.number >= 200, "repealed": False,
                   "mechanics": MECHANICS.get(r.number, [])} for r in parse_rules(RULES_TEXT)],
    }


class Expect:
    """The state JSON the game must show, changed step by step as the rules say."""

    def __init__(self, game: Game) -> None:
        self.game, self.view = game, initial()

    def check(self) -> None:
        assert self.game.json() == self.view

    def score(self, email: str, score: int) -> None:
        next(p for p in self.view["players"] if p["email"] == email)["score"] = score

    def propose(self, number: int, author: str, title: str) -> None:
        self.view["proposals"].append({"number": number, "author": author, "title": title, "status": "debate",
                                       "votes": {}, "points": None})

    def proposal(self, number: int) -> dict[str, Any]:
        return self.view["proposals"][number - 301]

    def rule(self, number: int) -> dict[str, Any]:
        return next(r for r in self.view["rules"] if r["number"] == number)

    def renumber(self, old: int, new: int, **changed: Any) -> None:
        self.rule(old).update(number=new, **changed)
        self.view["rules"].sort(key=lambda r: r["number"])

    def enact(self, number: int, text: str) -> None:
        self.view["rules"].append({"number": number, "text": text, "mutable": True, "repealed": False,
                                   "mechanics": []})


def play_turn(game: Game, want: Expect, number: int, author: str, title: str, body: str,
              votes: dict[str, str]) -> list[Event]:
    """A proposal, its debate, the call and the votes, checking the state after every message;
    the last vote's checks are left to the caller (the completion), which gets its events."""
    assert kinds(game.send(author, f"Proposal: {title}", body)) == ["proposed"]
    want.propose(number, author, title)
    want.check()
    assert kinds(game.send(author, f"Re: Proposal: {title}", "Call vote", reply_to=number)) == ["vote_called"]
    want.proposal(number)["status"] = "voting"
    want.check()
    events: list[Event] = []
    for i, (player, vote) in enumerate(votes.items()):
        events = game.send(player, f"Re: Proposal: {title}", vote.capitalize(), reply_to=number)
        want.proposal(number)["votes"][player] = vote
        if i < len(votes) - 1:
            assert kinds(events) == ["voted"]
            want.check()
    return events


def done(want: Expect, number: int, status: str, points: int) -> None:
    want.proposal(number).update(status=status, points=points)


def test_two_circuits_and_a_third_turn() -> None:
    game = Game()
    want = Expect(game)
    want.check()

    # Circuit 1, turn 1 (Alice): an enactment, unanimous: rule 301, (301 - 291) x 3/3 = 10 points.
    play_turn(game, want, 301, ALICE, "Hello", f"Enact rule: {HELLO}", {ALICE: "yes", BOB: "yes", CAROL: "yes"})
    done(want, 301, "adopted", 10)
    want.enact(301, HELLO)
    want.score(ALICE, 10)
    want.view["turn"] = BOB
    want.check()

    # Turn 2 (Bob): out-of-turn and early votes; Carol's No defeats it under unanimity:
    # round(11 x 2/3) = 7 points, less 10 (rule 206).
    assert refused(game.send(CAROL, "Proposal: Mine first", f"Enact rule: {HELLO}")) == [
        f"refused, no number given: it is {BOB}'s turn; only the player on turn may propose (rule 201)"]
    want.check()
    assert kinds(game.send(BOB, "Proposal: Consulting", f"Amend rule 210: {RULE_210}")) == ["proposed"]
    want.propose(302, BOB, "Consulting")
    assert kinds(game.send(CAROL, "Vote", "Vote no 302")) == ["voted"]  # cast during debate
    want.proposal(302)["votes"][CAROL] = "no"
    want.check()
    assert refused(game.send(CAROL, "Re: Proposal: Consulting", "Yes", reply_to=302)) == [
        "you have voted no on proposal 302; each player has exactly one vote (rule 207)"]
    game.send(ALICE, "Re: Proposal: Consulting", "Yes", reply_to=302)
    want.proposal(302)["votes"][ALICE] = "yes"
    game.send(BOB, "Re: Proposal: Consulting", "Call vote\nYes", reply_to=302)
    want.proposal(302)["votes"][BOB] = "yes"
    done(want, 302, "defeated", 7)
    want.score(BOB, -3)
    want.view["turn"] = CAROL
    want.check()

    # Turn 3 (Carol): amending rule 301 renumbers it 303 (rule 108); 12 points.
    play_turn(game, want, 303, CAROL, "Goodbye", f"Amend rule 301: {HELLO_BYE}",
              {CAROL: "yes", ALICE: "yes", BOB: "yes"})
    done(want, 303, "adopted", 12)
    want.renumber(301, 303, text=HELLO_BYE)
    want.score(CAROL, 12)
    want.view.update(turn=ALICE, circuit=2)
    want.check()

    # Circuit 2, turn 4 (Alice): an immutable rule amended without transmutation is refused, no number;
    # transmuting rule 116 (unanimously) makes it mutable rule 304; 13 points.
    assert refused(game.send(ALICE, "Proposal: Bad", "Amend rule 116: Anything goes.")) == [
        "refused, no number given: rule 116 is immutable: only a transmutation, stated explicitly, "
        "may change it first (rules 103 and 109)"]
    want.check()
    play_turn(game, want, 304, ALICE, "Soften 116", "Transmute rule 116", {ALICE: "yes", BOB: "yes", CAROL: "yes"})
    done(want, 304, "adopted", 13)
    want.renumber(116, 304, mutable=True)
    want.score(ALICE, 23)
    want.view["turn"] = BOB
    want.check()

    # Turn 5 (Bob): a repeal keeps the rule's number; 14 points.
    play_turn(game, want, 305, BOB, "No more 210", "Repeal rule 210", {BOB: "yes", CAROL: "yes", ALICE: "yes"})
    done(want, 305, "adopted", 14)
    want.rule(210)["repealed"] = True
    want.score(BOB, 11)
    want.view["turn"] = CAROL
    want.check()

    # Turn 6 (Carol): defeated by one No: round(15 x 2/3) = 10, less 10. The second complete circuit
    # ends: rule 203 now asks only a simple majority.
    events = play_turn(game, want, 306, CAROL, "Again", f"Enact rule: {HELLO}",
                       {CAROL: "yes", ALICE: "yes", BOB: "no"})
    assert kinds(events) == ["voted", "completed", "score", "score", "unanimity_ended", "turn"]
    assert [e.data["delta"] for e in events if e.kind == "score"] == [-10, 10]
    done(want, 306, "defeated", 10)
    want.view.update(turn=ALICE, circuit=3, unanimity=False)
    want.view["parameters"]["adoption"] = "majority"
    want.check()

    # Circuit 3, turn 7 (Alice): adopted by majority; Carol, against, gains 10 (rule 204);
    # round(16 x 2/3) = 11 to Alice; rule 203 becomes rule 307.
    events = play_turn(game, want, 307, ALICE, "Majority", f"Amend rule 203: {MAJORITY}",
                       {ALICE: "yes", BOB: "yes", CAROL: "no"})
    assert kinds(events) == ["voted", "completed", "rules_changed", "score", "score", "turn"]
    assert [(e.data["player"], e.data["delta"], e.data["rule"]) for e in events if e.kind == "score"] == [
        (CAROL, 10, 204), (ALICE, 11, 202)]
    done(want, 307, "adopted", 11)
    want.renumber(203, 307, text=MAJORITY, mechanics=[])  # amended, rule 203 no longer changes itself
    want.score(CAROL, 22)
    want.score(ALICE, 34)
    want.view["turn"] = BOB
    want.check()
    assert game.state.ledger_total(ALICE) == 34 and game.state.ledger_total(BOB) == 11
    assert game.state.ledger_total(CAROL) == 22


def test_the_state_round_trips_through_json() -> None:
    """Snapshots load through ``RULESET.state_model``: nothing is lost."""
    game = Game()
    game.send(ALICE, "Proposal: Hello", f"Enact rule: {HELLO}")
    game.send(CAROL, "Invoke judgment: Is it clear?")
    game.send(ALICE, "Call vote")
    game.send(BOB, "Vote no 301")
    loaded = SuberState.model_validate_json(game.state.model_dump_json())
    assert loaded == game.state
    assert loaded.public_json() == game.json()


def test_call_vote_said_in_the_subject_and_again_in_the_body_is_no_fault() -> None:
    """Issue 31: "Call vote" as the subject and "Call vote 301" (or "Call the vote") in the body
    answered "proposal 301 is voting, not in debate" after opening the vote."""
    for body in ("Call vote 301", "Call the vote"):
        game = Game()
        game.send(ALICE, "Proposal: Hello", f"Enact rule: {HELLO}")
        events = game.send(ALICE, "Call vote", body)
        assert [(e.data["result"], e.data["ok"]) for e in events if e.kind == "outcome"] == [
            ("debate on proposal 301 ends: the vote is open", True), ("the vote on proposal 301 is open already", True)]
        assert kinds(events) == ["vote_called"]
    assert refused(game.send(BOB, "Call vote 301")) == [f"only the proposer, {ALICE}, ends debate (rule 111)"]


def test_the_state_json_lists_the_subscribers_as_imperial_does() -> None:
    """Issue 31: ``"subscribers"`` was missing from Suber's state JSON (docs/contract-additions.md)."""
    game = Game()
    game.send(DAN, "Subscribe")
    game.send(BOB, "Digest on")
    assert game.json()["subscribers"] == [
        {"email": ALICE, "digest": False, "plain": False, "since": "2026-01-05T00:00:00Z"},
        {"email": BOB, "digest": True, "plain": False, "since": "2026-01-05T00:00:00Z"},
        {"email": CAROL, "digest": False, "plain": False, "since": "2026-01-05T00:00:00Z"},
        {"email": DAN, "digest": False, "plain": False, "since": "2026-01-05T00:01:00Z"}]
