"""Suber's Nomic's events, one model per kind (with the generic ones of engine/events.py).

A proposal's events are caused by ``("proposal", N)`` (its numbering, debate, votes, completion
and what follows: points, changes, the next turn); a Judgment's by ``("judgment", N)``.
"""
from __future__ import annotations

from typing import Any, Literal

from engine.events import EventModel


class Joined(EventModel):
    """A player joined; ``position``: 1-based, in turn order."""
    KIND = "joined"
    player: str
    name: str
    position: int


class Proposed(EventModel):
    """A proposal numbered; ``unanimity``: it needs every vote to be adopted; ``preview``: what it
    would do if adopted (engine/preview.py; empty in events recorded before it was kept)."""
    KIND = "proposed"
    number: int
    author: str
    title: str
    changes: list[dict[str, Any]]
    unanimity: bool
    preview: list[str] = []


class VoteCalled(EventModel):
    """The proposer ended debate (rule 111)."""
    KIND = "vote_called"
    number: int
    author: str


class Voted(EventModel):
    KIND = "voted"
    number: int
    player: str
    vote: Literal["yes", "no"]


class Completed(EventModel):
    """A vote completed; ``points``: rule 202's points to the proposer."""
    KIND = "completed"
    number: int
    status: Literal["adopted", "defeated"]
    yes: int
    no: int
    points: int | None
    unanimity: bool


class RulesChanged(EventModel):
    """An adopted proposal's changes took effect."""
    KIND = "rules_changed"
    number: int
    changes: list[dict[str, Any]]


class Score(EventModel):
    """A score changed; mirrors the ledger."""
    KIND = "score"
    player: str
    delta: int
    score: int
    cause: str
    rule: int
    proposal: int | None


class Winner(EventModel):
    """The game has ended: 200 points (rule 208), or play cannot continue (rule 213)."""
    KIND = "winner"
    player: str
    score: int
    rule: int


class Turn(EventModel):
    """The turn passed."""
    KIND = "turn"
    player: str | None
    circuit: int
    turns_ended: int


class UnanimityEnded(EventModel):
    """Rule 203 now requires a simple majority."""
    KIND = "unanimity_ended"
    circuit: int
    rule: int


class JudgmentInvoked(EventModel):
    KIND = "judgment_invoked"
    number: int
    question: str
    by: str
    judge: str
    mover: str | None


class JudgmentGiven(EventModel):
    """The Judge answered."""
    KIND = "judgment"
    number: int
    judge: str
    question: str
    text: str


class Overruled(EventModel):
    """The others overruled a Judgment; a new Judge."""
    KIND = "overruled"
    number: int
    judge: str
    previous: str


class Consent(EventModel):
    """Consent to the next turn after Judgment; ``given``: a majority has now consented."""
    KIND = "consent"
    player: str
    turn: str | None
    given: bool


class ActionCalled(EventModel):
    """Rule 305's call: the skip vote opens at ``vote_at``."""
    KIND = "call_for_action"
    by: str
    player: str | None
    vote_at: str


class SkipVoteOpen(EventModel):
    """The clock opened the skip vote."""
    KIND = "skip_vote_open"
    player: str
    voters: list[str]


class Skipped(EventModel):
    """A majority skipped the player on turn."""
    KIND = "skipped"
    player: str
    votes: dict[str, bool]


class CallLapsed(EventModel):
    """The call ended without a skip."""
    KIND = "call_lapsed"
    player: str
    reason: str


class Daily(EventModel):
    """The daily mail's facts (engine/suber/daily.facts)."""
    KIND = "daily"
    at: str
    day: int
    turn: str | None
    turn_started: str
    turn_hours: int
    circuit: int
    unanimity: bool
    winner: str | None
    proposal: dict[str, Any] | None
    owed: list[dict[str, str]] = []  # whom the game waits for: player, name, what they owe (daily.owed)


EVENTS: tuple[type[EventModel], ...] = (
    Joined, Proposed, VoteCalled, Voted, Completed, RulesChanged, Score, Winner, Turn, UnanimityEnded,
    JudgmentInvoked, JudgmentGiven, Overruled, Consent, ActionCalled, SkipVoteOpen, Skipped, CallLapsed, Daily)
