"""Events: what happened, for the outbox, the site and the answer mail.

Events are declared like commands: one model per kind (an ``EventModel``: typed fields, extra
forbidden, its kind the class constant ``KIND``). The kinds every ruleset emits are declared
here (``GENERIC``); a ruleset's own in ``engine/<name>/events.py`` (``EVENTS``), and
``engine.ruleset.event_models`` gives a game's whole set by kind.

The engine emits a model (``ctx.emit(Draw(...))``); what it returns, storage keeps and the
mailer and the site read is an ``Event``: the kind, the model's fields as a dict, and its
``Cause``: the submission, matter, proposal, judgment or day the engine was working on when it
emitted it (``Context.because``), or None. The cause is stated, never inferred from the order
of emission.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import NoneType, UnionType
from typing import Any, ClassVar, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field


@dataclass(frozen=True)
class Cause:
    """What an event was caused by: a thing the game numbers, e.g. ("submission", 4), ("day", 2)."""
    what: str  # "submission" | "matter" | "proposal" | "judgment" | "day" ...
    number: int


class EventModel(BaseModel):
    """One kind of event; subclasses set ``KIND`` and declare the fields in the order they are stored."""
    model_config = ConfigDict(extra="forbid")
    KIND: ClassVar[str]
    # Every field plain (``_plain``): set for each kind as it is declared
    PLAIN: ClassVar[bool] = False

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls.PLAIN = all(_plain(f.annotation) for f in cls.model_fields.values())

    def dumped(self) -> dict[str, Any]:
        """Its fields as an event's data: what ``model_dump`` gives. Of a kind whose fields are all
        plain, its values are its own (validation made them) and the dump would return them as they
        are, so a copy of its dict is the same in a tenth of the time (an event an entry, a replay)."""
        return dict(self.__dict__) if self.PLAIN else self.model_dump()


_SCALARS = (str, int, float, bool, NoneType)


def _plain(annotation: Any) -> bool:
    """Are a field's values of this type validated into objects of the model's own that
    ``model_dump`` returns unchanged: scalars, and literals, lists, tuples and dicts of them only
    (not ``Any``, whose values are the caller's and which the dump copies, nor a model)?"""
    if annotation in _SCALARS:
        return True
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Literal:
        return all(isinstance(arg, _SCALARS) for arg in args)
    return origin in (list, tuple, dict, Union, UnionType) and all(arg is Ellipsis or _plain(arg) for arg in args)


class Event(BaseModel):
    """An emitted event as it is kept and read: its kind, its model's fields, its cause."""
    model_config = ConfigDict(extra="forbid")
    kind: str
    data: dict[str, Any] = Field(default_factory=dict)
    cause: Cause | None = None

    @classmethod
    def of(cls, event: EventModel, cause: Cause | None = None) -> Event:
        """Validated, not ``model_construct``ed: with pydantic 2.13 validation in its core is the
        cheaper (2.8-3.1 against 5.5-7.5 µs, min of 15 runs; its ``data`` a shallow copy)."""
        return cls(kind=event.KIND, data=event.dumped(), cause=cause)


class Outcome(EventModel):
    """One line of an answer to a message: what was understood and what it did."""
    KIND = "outcome"
    command: str
    result: str
    ok: bool


class Draw(EventModel):
    """A labelled, seeded draw (the fair-dice page checks each)."""
    KIND = "draw"
    label: str
    low: int
    high: int
    result: int


class Unauthenticated(EventModel):
    """A message that was not authenticated: it changes nothing and gets no answer."""
    KIND = "unauthenticated"
    sender: str
    message_id: str


class Automatic(EventModel):
    """A bounce, an auto-reply or bulk mail (RFC 3834): it speaks for no one."""
    KIND = "automatic"
    sender: str
    message_id: str


class Subscription(EventModel):
    """The list's membership changed (or was renewed)."""
    KIND = "subscription"
    address: str
    action: Literal["subscribe", "renew", "unsubscribe", "digest"]
    digest: bool


class ListPost(EventModel):
    """A post to the players' list, accepted or refused (``reason``)."""
    KIND = "list_post"
    sender: str
    subject: str
    message_id: str
    accepted: bool
    reason: str | None


class Fault(EventModel):
    """Journal entry ``seq`` could not be folded; it is skipped from then on (nomic/game.py)."""
    KIND = "fault"
    seq: int
    error: str


class MailFault(EventModel):
    """Journal entry ``seq``'s outgoing mail could not be composed; none was queued (nomic/game.py)."""
    KIND = "mail_fault"
    seq: int
    error: str


class Reminder(EventModel):
    """A deadline is near and ``player`` has not acted (engine/reminders.py): ``what`` they owe, the
    ``line`` that does it, when it ``closes``."""
    KIND = "reminder"
    player: str
    what: str
    how: str  # the lines that do it, quoted: "'FOR 2' or 'AGAINST 2'"
    closes: str
    vote: bool = False


GENERIC: tuple[type[EventModel], ...] = (Outcome, Draw, Unauthenticated, Automatic, Subscription, ListPost,
                                         Fault, MailFault, Reminder)


def by_kind(models: tuple[type[EventModel], ...]) -> dict[str, type[EventModel]]:
    """Models by their kind; a kind declared twice is a mistake."""
    out: dict[str, type[EventModel]] = {}
    for model in models:
        if model.KIND in out:
            raise ValueError(f"event kind {model.KIND!r} is declared twice")
        out[model.KIND] = model
    return out

