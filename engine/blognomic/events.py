"""BlogNomic's events, one model per kind (with the generic ones of engine/events.py).

A matter's events (opened, voted on, resolved, amended, applied by hand; a DoV's Hiatus and
Dynasty) are caused by ``("matter", N)``.
"""
from __future__ import annotations

from typing import Any

from engine.events import EventModel


class MatterOpened(EventModel):
    """A Proposal, CfJ or DoV got its number; ``by_hand``: prose an Admin applies by hand."""
    KIND = "matter_opened"
    number: int
    kind: str
    author: str
    title: str
    opened_at: str | None
    quorum: int
    changes: list[dict[str, Any]]
    by_hand: bool
    co_victors: list[str]
    preview: list[str] = []  # what enacting it would do (engine/preview.py), when it has change lines


class Voted(EventModel):
    """An icon was cast; ``vote``: the voter's Vote as shown now."""
    KIND = "vote"
    number: int
    voter: str
    icon: str
    vote: str | None
    tally: dict[str, int]  # for, against, deferential
    quorum: int
    self_killed: bool
    vetoed: bool


class Resolved(EventModel):
    """A matter was Enacted or Failed; ``tally``: the standard line ("Enacted 5-1 (Quorum 4)",
    "Self-killed", "Vetoed", "Timed out 2-3"...); ``by``: an Admin, or the game's address."""
    KIND = "resolved"
    number: int
    kind: str
    title: str
    author: str
    status: str
    tally: str
    by: str
    at: str | None


class Amended(EventModel):
    """An enacted matter's change lines applied: [{action, rule, result}]."""
    KIND = "amended"
    number: int
    changes: list[dict[str, str]]
    by_hand: bool


class AppliedByHand(EventModel):
    """An Admin applied an enacted matter's prose by hand (``Applied N: NOTE``)."""
    KIND = "applied"
    number: int
    by: str
    note: str


class Hiatus(EventModel):
    KIND = "hiatus"
    on: bool
    why: str


class DynastyBegun(EventModel):
    """An enacted DoV began a Dynasty."""
    KIND = "dynasty"
    number: int
    seraphims: list[str]
    victor: str
    co_victors: list[str]
    dov: int


class Seraphims(EventModel):
    """The heads of the new Dynasty changed."""
    KIND = "seraphims"
    dynasty: int
    seraphims: list[str]
    cause: str


class Ascension(EventModel):
    """The Hiatus after a DoV ended."""
    KIND = "ascension"
    dynasty: int
    theme: str | None
    kept_rules: list[str]
    repealed: list[str]
    failed: list[int]
    renamed: dict[str, str]


class Joined(EventModel):
    """A Pactmaker joined: at once (``admission = "auto"``) or admitted by the Admin ``admitted_by``."""
    KIND = "joined"
    player: str
    name: str
    admitted_by: str | None = None


class Application(EventModel):
    """A ``Join`` waits for an Admin (``admission = "admin"``)."""
    KIND = "application"
    player: str
    name: str


class Refused(EventModel):
    """An Admin withdrew an application (``Refuse PLAYER``)."""
    KIND = "application_refused"
    player: str
    name: str
    by: str


class Left(EventModel):
    KIND = "left"
    player: str
    name: str


class Idled(EventModel):
    """``by``: who made the change (empty in events recorded before it was kept); ``last_seen``: when
    a Pactmaker an Admin idled last wrote, the idling the Admin must announce (rule "Idle Pactmakers")."""
    KIND = "idle"
    player: str
    idle: bool
    by_self: bool
    quorum: int
    by: str = ""
    last_seen: str | None = None


class Rolled(EventModel):
    """A die or generator (with the ``draw`` event of ctx.draw)."""
    KIND = "roll"
    n: int
    player: str
    die: str
    result: str


class Daily(EventModel):
    """The daily mail's facts (engine/blognomic/daily.facts)."""
    KIND = "daily"
    at: str
    day: int
    quorum: int
    dynasty: int
    hiatus: bool
    pending: list[dict[str, Any]]
    resolved: list[dict[str, Any]]
    idle: list[str]
    near_idle: list[dict[str, str]]
    applicants: list[dict[str, str]] = []  # the oldest applications waiting for an Admin (daily.LISTED)
    applications: int = 0  # how many wait in all


EVENTS: tuple[type[EventModel], ...] = (
    MatterOpened, Voted, Resolved, Amended, AppliedByHand, Hiatus, DynastyBegun, Seraphims, Ascension, Joined,
    Application, Refused, Left, Idled, Rolled, Daily)
