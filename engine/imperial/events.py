"""Imperial's events, one model per kind (with the generic ones of engine/events.py).

A submission's events are caused by ``("submission", N)`` (its arrival, its judgment and
everything they set off); a day's end and start by ``("day", D)``, the day that ended.
"""
from __future__ import annotations

from typing import Any

from engine.events import EventModel


class Joined(EventModel):
    """A new player, with their first submission (rule 2); rule 13's Profile."""
    KIND = "joined"
    player: str
    name: str
    profile: int


class Submitted(EventModel):
    """A submission recorded and numbered (rule 7)."""
    KIND = "submitted"
    number: int
    kind: str
    author: str
    title: str
    status: str
    reason: str | None


class Judged(EventModel):
    """A submission decided: by the Emperor, or ignored by the engine (rules 3, 4, 8, 14)."""
    KIND = "judged"
    number: int
    verdict: str  # what the Emperor (or the engine) said: accept | reject | ignore
    status: str
    reason: str | None
    points: int
    prejudice: bool
    by_engine: bool
    refused: list[tuple[int, str]] = []  # a Proposal's requests not granted: (place, why), for the site


class Score(EventModel):
    """A score changed; mirrors the ledger."""
    KIND = "score"
    player: str
    delta: int
    score: int
    cause: str
    rule: int | None
    submission: int | None


class Temperature(EventModel):
    """The temperature changed (rule 12); ``culprit``: the player whose act changed it."""
    KIND = "temperature"
    old: int
    new: int
    cause: str
    culprit: str | None


class DayEnded(EventModel):
    """A day ended; ``chime``: rule 19 is in force, so the bell rings."""
    KIND = "day_end"
    day: int
    new_day: int
    at: str
    chime: bool
    summary: dict[str, Any]  # notes, temperature, scores (by address)


class NewDay(EventModel):
    """The Emperor's ``New day``: an announcement that ends the day (rule 10)."""
    KIND = "new_day"
    day: int


class Amended(EventModel):
    """An accepted Proposal's rule changes took effect."""
    KIND = "amended"
    number: int
    changes: list[str]


class Winner(EventModel):
    """TEW: the game has ended (rules 8, 11), with the final ranking."""
    KIND = "winner"
    player: str
    how: str
    ranking: list[str]


class Profile(EventModel):
    """A Profile changed (rules 14, 20, 21)."""
    KIND = "profile"
    player: str
    old: int
    new: int
    cause: str
    submission: int | None


class Category(EventModel):
    """A player became FF (rule 16)."""
    KIND = "category"
    player: str
    category: str
    submission: int


class SwapOffered(EventModel):
    """A rule 14 swap offer, awaiting the partner's consent."""
    KIND = "swap_offered"
    number: int
    proposer: str
    partner: str
    sections: str
    partner_sections: str


class PlayerOfTheDay(EventModel):
    """Rule 18's draw."""
    KIND = "player_of_the_day"
    day: int
    player: str


class It(EventModel):
    """Rule 22: a new It."""
    KIND = "it"
    player: str
    previous: str | None
    day: int
    why: str


class Inactive(EventModel):
    """Rule 22: It for too long, placed on Inactive status."""
    KIND = "inactive"
    player: str
    day: int


class Active(EventModel):
    """Rule 22: an Inactive player's Proposal made them active again."""
    KIND = "active"
    player: str
    submission: int


class Proclaimed(EventModel):
    """TIE's rule change (rule 3), applying to submissions from ``from_number`` on."""
    KIND = "proclamation"
    number: int
    title: str
    from_number: int
    changes: list[str]


class Directive(EventModel):
    """A Directive issued (``area``) or revoked (``revoked``: the area it had)."""
    KIND = "directive"
    area: str | None
    revoked: str | None = None


class Rewritten(EventModel):
    """THS rewrote a Proposal (a new revision of its text)."""
    KIND = "rewritten"
    number: int
    revision: int


EVENTS: tuple[type[EventModel], ...] = (
    Joined, Submitted, Judged, Score, Temperature, DayEnded, NewDay, Amended, Winner, Profile, Category,
    SwapOffered, PlayerOfTheDay, It, Inactive, Active, Proclaimed, Directive, Rewritten)
