"""What the steps of ``pipelines`` share: the types of a Proposal step and a day step.

They live apart from the modules that run the steps (``decisions`` for a decided
Proposal, ``days`` for a day's end) so that a rule's module imports its step types
from here and never the runner that lists it: ``engine/imperial/`` has no import circle.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from engine.context import Context
from engine.imperial.state import ImperialState, Request, Submission
from engine.refusal import Refusal

Verdict = Literal["accept", "reject", "ignore"]


@dataclass
class Outcome:
    """A Proposal's decision as it passes through the steps."""
    verdict: Verdict           # what happens; steps may change the Emperor's word
    judged: Verdict            # what the Emperor (or the engine) said
    by_engine: bool = False    # the engine ignored it on its own (rules 3, 4, 8)
    reason: str | None = None  # why it is ignored
    rule: int | None = None    # the rule that ignored it
    prejudice: bool = False    # rule 3: as if the Proposal had never been made
    points: int = 0            # the author's score change, set by base_points
    points_why: list[str] = field(default_factory=list)  # why a later step changed ``points``, with its rule
    notes: list[str] = field(default_factory=list)  # phrases of the answer line
    refused: dict[int, str] = field(default_factory=dict)  # a request not granted (its place) -> why

    def refuse(self, sub: Submission, request: Request, note: Refusal, why: str) -> None:
        """A request of ``sub`` not granted: ``note`` for the answer, with its rule; ``why`` by the
        request's place."""
        self.notes.append(note.text(""))
        place = next(i for i, r in enumerate(sub.requests) if r is request)
        self.refused.setdefault(place, why)


ProposalStep = Callable[[ImperialState, Submission, Outcome, Context], None]


@dataclass
class DayEnd:
    day: int  # the day that is ending
    at: datetime
    notes: list[str] = field(default_factory=list)


DayStep = Callable[[ImperialState, DayEnd, Context], None]
