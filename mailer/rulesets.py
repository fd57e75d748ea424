"""What a ruleset's mail part is, and the one input every composer takes.

A ruleset's mail part is a package beside the generic mailer (``mailer/imperial/``, ...) whose
``MAIL`` names its composers (event kind -> composer) and the event kind that ends its day
(the list's digest goes out with it). Found from the one list (engine/ruleset.RULESETS), a
package is imported only when a game asks for it (``mail_for``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from sqlmodel import Session

from engine.context import EngineConfig
from engine.events import Event, Subscription
from engine.inputs import ClockStep, Message
from engine.ruleset import part
from engine.state import GameState
from mailer.ledger import Ledger
from mailer.listconfig import ListSettings
from mailer.message import Received
from mailer.recipients import Recipients
from storage.config import parse_time

if TYPE_CHECKING:
    from storage import Entry

class Members:
    """Who gets what, from the state's subscribers less those whose delivery bounced away
    (``disabled``, as it stood when the entry's composers began), each list made when first read.
    The processor keeps one for the entries of its batch while it ``stands`` (mailer/outgoing.py):
    the lists are made once, not once an entry (with 1,000 members, 5% of a fold with mail), and
    each is stored once for every mail to it (``Recipients``)."""

    def __init__(self, disabled: set[str], state: GameState[Any]):
        self._off, self._state = set(disabled), state
        self._subscribers, self._count = state.subscribers, len(state.subscribers)

    def stands(self, disabled: set[str], state: GameState[Any], events: list[Event]) -> bool:
        """Are these still the members after an entry with ``events``? Only if it is the same state
        with the same list of subscribers, as long, the same addresses stopped, and none of the
        events is a ``subscription`` (the engine emits one for every change of a member's delivery)."""
        return (state is self._state and state.subscribers is self._subscribers
                and len(state.subscribers) == self._count and disabled == self._off
                and not any(e.kind == Subscription.KIND for e in events))

    @cached_property
    def _subs(self) -> list[Any]:
        return [s for s in self._state.subscribers if s.email not in self._off]

    @cached_property
    def all(self) -> Recipients:
        return Recipients(s.email for s in self._subs)

    @cached_property
    def per_message(self) -> Recipients:
        return Recipients(s.email for s in self._subs if not s.digest)

    @cached_property
    def digest(self) -> Recipients:
        return Recipients(s.email for s in self._subs if s.digest and not s.plain)

    @cached_property
    def plain_digest(self) -> Recipients:
        return Recipients(s.email for s in self._subs if s.digest and s.plain)


@dataclass(frozen=True)
class Composition:
    """Everything a composer may read: one processed journal entry, one of its events, and the
    state after the entry; the composer queues mail through ``session``."""
    session: Session
    settings: ListSettings
    state: GameState[Any]
    entry: "Entry"
    received: Received  # the entry's bytes as its fold parsed them: read the mail here, never from entry.raw
    inp: Message | ClockStep
    event: Event
    events: list[Event]
    members: Members
    config: EngineConfig
    ledger: Ledger  # the answer log and bounce state this entry's mail is composed with

    @property
    def at(self) -> datetime:
        """When the entry was received (or the clock step's time)."""
        return self.inp.at

    @property
    def event_at(self) -> datetime:
        """The event's own time where it has one (a day caught up at its own end), else ``at``."""
        at = self.event.data.get("at")
        return parse_time(at) if at else self.at

    @property
    def seq(self) -> int:
        return self.entry.seq or 0


Composer = Callable[[Composition], None]


class RulesetMail(Protocol):
    composers: Mapping[str, Composer]  # event kind -> what it mails
    day_event: str  # the event kind that ends a day: the digest of the day's list traffic follows it
    about: tuple[str, ...]  # event kinds whose ``number`` names the matter an answer is about (its Message-ID says so)


def mail_for(name: str) -> RulesetMail:
    """The mail part of ruleset ``name`` (``mailer/<name>/``'s ``MAIL``)."""
    return part(name, "mail").MAIL  # type: ignore[no-any-return]
