"""Suber's Nomic's part of the state: the turn and its circuit, proposals with their votes, rules
with their mutability and former numbers, and Judgments (rule 212)."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from engine.state import GameState, Matter, Model, Player, Rule

Status = Literal["debate", "voting", "adopted", "defeated"]
Vote = Literal["yes", "no"]
ChangeKind = Literal["enact", "amend", "repeal", "transmute", "set"]
FIRST_NUMBER = 301  # rule 108


class SuberPlayer(Player):
    """A player; the list of players is kept in turn order (rule 201)."""


class SuberRule(Rule):
    """A rule; ``formerly`` lists the numbers it had before an amendment or a transmutation
    renumbered it (rule 108), oldest first."""
    formerly: list[int] = Field(default_factory=list)


class Change(Model):
    """One rule-change line of a proposal (rule 103). ``rule`` is None for an enactment and a ``Set``
    line, whose ``text`` is ``NAME = VALUE`` (engine/suber/mechanics.py)."""
    kind: ChangeKind
    rule: int | None = None
    text: str = ""


class Proposal(Matter):
    """A proposed rule-change (rule 108: numbered from 301, adopted or not)."""
    changes: list[Change] = Field(default_factory=list)
    status: Status = "debate"
    votes: dict[str, Vote] = Field(default_factory=dict)  # in the order they were cast
    unanimity: bool = True  # whether it needed a unanimous vote (203, or 109 for a transmutation)
    points: int | None = None  # rule 202's points to the proposer, once the vote completed
    called_at: datetime | None = None
    completed_at: datetime | None = None


class Judgment(Model):
    """A question put to the Judge (rule 212), numbered from 1 in its own sequence."""
    number: int
    question: str
    by: str
    judge: str
    mover: str  # the player on turn when Judgment was invoked
    at: datetime
    turn: int  # ``turns_ended`` when it was invoked: the turn it belongs to
    answer: str | None = None
    answered_at: datetime | None = None
    overrule: list[str] = Field(default_factory=list)  # the players voting to overrule the answer
    overruled: list[str] = Field(default_factory=list)  # former Judges of the question, oldest first


class CallForAction(Model):
    """Rule 305: a call to skip the player on turn, and the other players' vote on it."""
    by: str
    player: str  # the player on turn, to be skipped or not
    at: datetime
    opened: bool = False  # the vote's opening (two days after the call) has been announced
    votes: dict[str, bool] = Field(default_factory=dict)  # player -> votes to skip


class SuberState(GameState[SuberPlayer]):
    ruleset: str = "suber"
    rules: list[SuberRule] = Field(default_factory=list)  # type: ignore[assignment]
    turn: str | None = None  # the player on turn
    circuit: int = 1  # the circuit of turns in progress, from 1
    turns_ended: int = 0
    turn_started: datetime | None = None
    unanimity: bool = True  # rule 203: until the end of the second complete circuit (the parameter adoption)
    parameters: dict[str, int | str] = Field(default_factory=dict)  # values Set by proposals (mechanics.py)
    proposals: list[Proposal] = Field(default_factory=list)
    judgments: list[Judgment] = Field(default_factory=list)
    # rule 212: after a turn in which Judgment was invoked, the players consenting to the next turn
    # (None: no consent needed)
    consent: list[str] | None = None
    call_for_action: CallForAction | None = None  # rule 305, when the game plays it
    daily_mailed: int = 0  # the last day (since the start date) whose daily mail went out (daily.py)

    def summary(self) -> list[str]:
        return [f"Circuit {self.circuit}, on turn: {self.turn or '-'}, "
                f"{'unanimity' if self.unanimity else 'simple majority'}, winner: {self.winner or '-'}",
                *(f"  {p.score:>5}  {p.email}  {p.name}" for p in self.players)]

    def matter(self, number: int) -> Proposal | None:
        """Proposal ``number``: proposals are numbered 301.. in order, without gaps."""
        i = number - FIRST_NUMBER
        return self.proposals[i] if 0 <= i < len(self.proposals) else None

    def matter_by_message_id(self, message_id: str) -> Proposal | None:
        return next((p for p in reversed(self.proposals) if p.message_id == message_id), None)

    def rule(self, number: int, nth: int = 0) -> SuberRule | None:
        same = [r for r in self.rules if r.number == number]
        return same[nth] if nth < len(same) else None

    def current_proposal(self) -> Proposal | None:
        """The proposal of the turn in progress, if it has been made and its vote is not complete."""
        last = self.proposals[-1] if self.proposals else None
        return last if last is not None and last.status in ("debate", "voting") else None

    def public_json(self) -> dict[str, Any]:
        """The keys docs/contract.md promises for ``nomic state --json``, and only those."""
        from engine.absence import away_until  # absence imports engine.state, not this module
        from engine.suber.mechanics import mechanics_of, values  # mechanics imports this module
        return {
            "ruleset": self.ruleset, "turn": self.turn, "circuit": self.circuit,
            "unanimity": self.unanimity, "winner": self.winner,
            "players": [{"email": p.email, "name": p.name, "score": p.score, "away_until": away_until(self, p.email)}
                        for p in self.players],
            "subscribers": self.subscribers_json(),
            "proposals": [{"number": p.number, "author": p.author, "title": p.title, "status": p.status,
                           "votes": dict(p.votes), "points": p.points} for p in self.proposals],
            "parameters": values(self),
            "rules": [{"number": r.number, "text": r.text, "mutable": bool(r.mutable), "repealed": r.repealed,
                       "mechanics": mechanics_of(r)} for r in sorted(self.rules, key=lambda r: r.number)],
        }
