"""B Nomic's events, one model per kind (with the generic ones of engine/events.py).

A proposal's events are caused by ``("proposal", KEY)`` (its submission key: a Proposal Number may
not exist yet); a dependent action's by ``("action", N)``; a midnight's by ``("midnight", N)``.
"""
from __future__ import annotations

from typing import Any, Literal

from engine.events import EventModel


class Joined(EventModel):
    KIND = "joined"
    player: str
    name: str


class Left(EventModel):
    """No longer a Player: ``how`` ``forfeit`` (1-4) or ``expelled`` (1-4, with 3 supporters)."""
    KIND = "left"
    player: str
    name: str
    how: Literal["forfeit", "expelled", "removed"]


class Renamed(EventModel):
    KIND = "renamed"
    player: str
    old: str
    new: str


class MinistryChanged(EventModel):
    """A Ministry's holder changed (``holder`` None: Vacant); ``how`` says why."""
    KIND = "ministry"
    ministry: str
    holder: str | None
    how: Literal["taken", "resigned", "usurped", "vacated", "assigned", "left"]


class ClockChanged(EventModel):
    """A midnight moved the Clock, or a Minister turned it On or Off."""
    KIND = "clock"
    nweek: int
    nday: int
    on: bool
    ndelay: int
    how: str


class Proposed(EventModel):
    """A proposal submitted (``number`` None until the Chairman numbers it) or revised."""
    KIND = "proposed"
    key: int
    number: int | None
    author: str
    title: str
    revised: bool


class Numbered(EventModel):
    KIND = "numbered"
    key: int
    number: int


class Voted(EventModel):
    KIND = "voted"
    key: int
    number: int | None
    voter: str
    vote: Literal["FOR", "AGAINST", "ABSTAIN"]


class Opened(EventModel):
    """Ballotday: the Pending proposals became Open (2-2)."""
    KIND = "opened"
    keys: list[int]


class VotingEnded(EventModel):
    """The end of Voting (2-2): each proposal of it with its result and why."""
    KIND = "voting_ended"
    nweek: int
    quorum_exceeds: str
    results: list[dict[str, Any]]


class Withdrawn(EventModel):
    KIND = "withdrawn"
    key: int
    number: int | None


class Score(EventModel):
    """Points changed; mirrors the ledger."""
    KIND = "score"
    player: str
    delta: int
    score: int
    cause: str


class Changed(EventModel):
    """A change line applied (``ok``) or skipped, with what it did."""
    KIND = "changed"
    key: int
    line: str
    ok: bool
    result: str


class BallotPublished(EventModel):
    KIND = "ballot"
    nweek: int
    keys: list[int]


class ResultsPublished(EventModel):
    KIND = "results"
    nweek: int
    keys: list[int]


class ActionAttempted(EventModel):
    KIND = "action"
    number: int
    kind: str
    by: str
    target: str
    reason: str


class ActionClosed(EventModel):
    """A dependent action occurred or failed."""
    KIND = "action_closed"
    number: int
    kind: str
    status: Literal["occurred", "failed"]
    why: str


class Daily(EventModel):
    """The mail of a midnight (``[bnomic] daily_mail``): the Clock and what ended and began."""
    KIND = "daily"
    at: str
    midnight: int
    clock: dict[str, Any]
    lines: list[str]


class Scheduled(EventModel):
    """An action announced for a later moment (1-10): ``when`` as written."""
    KIND = "scheduled"
    number: int
    by: str
    when: str
    line: str


class ScheduledRan(EventModel):
    """A scheduled action ran at its moment, as if sent then: ``lines`` its answer's lines."""
    KIND = "scheduled_ran"
    number: int
    by: str
    line: str
    lines: list[str]
    message_id: str  # the mail that announced it


class ScheduledDropped(EventModel):
    """A scheduled action whose absolute time fell in a State of Emergency: it did not occur (Rule 0)."""
    KIND = "scheduled_dropped"
    number: int
    by: str
    line: str
    lines: list[str]
    message_id: str


class ConsultationChanged(EventModel):
    """A Consultation's state or Priest changed (2-5): ``why`` says how."""
    KIND = "consultation"
    number: int
    status: str
    priest: str | None
    why: str


class Mackerel(EventModel):
    """A Player's mackerel changed (3-10, 3-11): ``delta`` and ``balance`` as ``m``-amounts."""
    KIND = "mackerel"
    player: str
    delta: str
    balance: str
    cause: str


class AuctionChanged(EventModel):
    """A unique blueprint's auction moved on (3-14): ``what`` ``bought`` (by ``bidder`` at ``amount``),
    ``grace`` (the highest bidder has one more nday), ``penalty`` or ``ceased``."""
    KIND = "auction"
    blueprint: str
    what: Literal["bought", "grace", "penalty", "ceased"]
    bidder: str | None
    amount: str | None


class FactionChanged(EventModel):
    """A Faction registered, its Vote Power changed, or it ceased (``vote_power`` None), 5-2, 5-3."""
    KIND = "faction"
    name: str
    vote_power: str | None
    why: str


class ThreatFlag(EventModel):
    """The Threat Flag changed (3-17): ``by`` the MoM's address, or ``panic buttons``."""
    KIND = "threat_flag"
    flag: str
    by: str


class PanicButton(EventModel):
    """A PEP hit or stopped his Panic Button (Rule 0); ``on`` how many are On now."""
    KIND = "panic_button"
    player: str
    state: Literal["on", "off"]
    on: int


class EmergencyChanged(EventModel):
    """A step of Rule 0's Procedure in Emergency ``number``, mailed to every PEP: ``what`` it was and
    ``text`` the line that says it."""
    KIND = "emergency"
    number: int
    what: Literal["began", "coordinator", "forum", "pause", "increment", "objected", "refresh_proposal",
                  "ballot", "vote", "count", "selected", "applied", "ended"]
    text: str


EVENTS: tuple[type[EventModel], ...] = (
    Joined, Left, Renamed, MinistryChanged, ClockChanged, Proposed, Numbered, Voted, Opened, VotingEnded,
    Withdrawn, Score, Changed, BallotPublished, ResultsPublished, ActionAttempted, ActionClosed, Daily,
    Scheduled, ScheduledRan, ConsultationChanged, Mackerel,
    AuctionChanged, FactionChanged, ThreatFlag, PanicButton, EmergencyChanged, ScheduledDropped)
