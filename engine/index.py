"""Lookups into a GameState's lists without scanning them, for the per-message paths of a long game.

A long game holds tens of thousands of submissions and maybe as many list members; a scan of
them for every message makes the fold slow down as the game grows (docs/performance.md).

An index is derived data, not part of the state: it is never dumped nor compared, and a copy
or an unpickled state starts with an empty one. It is built lazily and cannot drift from the
lists it indexes, because:

- each part remembers the list object it took in and how many items it has seen: a list that
  grew is taken in from where it stopped, any other list (replaced, shorter) from the start.
  The engine only ever appends players, submissions, ledger entries and subscribers
  (unsubscribing replaces ``state.subscribers``, see membership.unsubscribe);
- the fields it reads never change once an item is in its list: a player's email and name,
  a submission's number, kind, author and message_id, a ledger entry's player and delta,
  a subscriber's email;
- every hit is checked against the item it points to (else that part starts again);
- the statuses it reads change, but at most once: a submission goes from "pending" to its
  decision and never back (a decided submission cannot be judged again), so the lists of
  proposals that may still be pending are pruned as they are read and never lose one that is;
  and every decision goes through ``GameState.decide``, which tells the index of an accepted
  Proposal.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from engine.state import LedgerEntry, Player, Subscriber


class Submission(Protocol):
    """What the index reads of a numbered submission (Imperial's; any ruleset's of that shape)."""
    @property
    def number(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def author(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def message_id(self) -> str | None: ...


S = TypeVar("S", bound=Submission)


class _Part(Protocol):
    """A part of the index: what it does when it starts again, and with each item it takes in."""
    def restart(self) -> None: ...
    def add(self, item: Any, i: int) -> None: ...


class _Seen:
    """Which list a part of the index took in, and how many of its items."""
    __slots__ = ("source", "count")

    def __init__(self) -> None:
        self.source: list[Any] | None = None
        self.count = 0

    def take(self, items: list[Any], part: _Part) -> None:
        """``part.add(item, position)`` for each item not yet taken in; ``part.restart()`` first if it
        must start again. Nothing when the list is the one taken in and has not grown (most lookups)."""
        if items is self.source and len(items) == self.count:
            return
        if items is not self.source or len(items) < self.count:
            part.restart()
            self.source, self.count = items, 0
        for i in range(self.count, len(items)):
            part.add(items[i], i)
        self.count = len(items)


class _Keys:
    """Key -> position of the first item that has it, for one list: ``keys(item)`` gives an item's
    keys, ``has(item, key)`` whether it still has one (cheaper than making them all)."""

    def __init__(self, keys: Callable[[Any], tuple[str, ...]], has: Callable[[Any, str], bool]) -> None:
        self.keys, self.has = keys, has
        self.seen = _Seen()
        self.first: dict[str, int] = {}

    def find(self, items: list[Any], key: str) -> Any | None:
        self.seen.take(items, self)
        i = self.first.get(key)
        if i is None:
            return None
        if not self.has(items[i], key):  # an indexed field changed: start again
            self.seen = _Seen()
            return self.find(items, key)
        return items[i]

    def restart(self) -> None:
        self.first.clear()

    def add(self, item: Any, i: int) -> None:
        for key in self.keys(item):
            self.first.setdefault(key, i)


class _Submissions:
    """Submissions by Message-ID, and Proposals by author, by number (``state.submissions[n - 1]``)."""

    def __init__(self) -> None:
        self.seen = _Seen()
        self.restart()

    def restart(self) -> None:
        self.by_message_id: dict[str, int] = {}  # the last submission with it, as a thread names it
        self.proposals: dict[str, list[int]] = {}  # author -> every Proposal
        self.pending: dict[str, list[int]] = {}  # author -> the Proposals that may still be pending
        self.last_accepted = 0  # the highest-numbered accepted Proposal (0: none)

    def add(self, sub: Submission, i: int) -> None:
        if sub.number != i + 1:
            raise ValueError(f"submission {sub.number} is at position {i + 1}: rule 7 numbers them 1..n in order")
        if sub.message_id:
            self.by_message_id[sub.message_id] = sub.number
        if sub.kind == "proposal":
            self.proposals.setdefault(sub.author, []).append(sub.number)
            self.pending.setdefault(sub.author, []).append(sub.number)
            if sub.status == "accepted":
                self.accepted(sub)

    def _take(self, subs: list[S]) -> None:
        self.seen.take(subs, self)

    def by_id(self, subs: list[S], message_id: str) -> S | None:
        self._take(subs)
        n = self.by_message_id.get(message_id)
        if n is None:
            return None
        if subs[n - 1].message_id != message_id:
            self.seen = _Seen()
            return self.by_id(subs, message_id)
        return subs[n - 1]

    def proposals_of(self, subs: list[S], author: str) -> list[S]:
        self._take(subs)
        return [subs[n - 1] for n in self.proposals.get(author, ())]

    def proposal_numbers(self, subs: list[S], author: str) -> Sequence[int]:
        """The numbers of ``author``'s Proposals, in order: the index's own list, to read (a bisection
        on it costs what it finds, not every Proposal the author made)."""
        self._take(subs)
        return self.proposals.get(author, ())

    def pending_of(self, subs: list[S], author: str) -> list[S]:
        self._take(subs)
        if author not in self.pending:
            return []
        pending = [subs[n - 1] for n in self.pending[author] if subs[n - 1].status == "pending"]
        self.pending[author] = [s.number for s in pending]
        return pending

    def accepted(self, sub: Submission) -> None:
        """Proposal ``sub`` was accepted."""
        self.last_accepted = max(self.last_accepted, sub.number)

    def highest_accepted(self, subs: list[S]) -> S | None:
        self._take(subs)
        if not self.last_accepted:
            return None
        sub = subs[self.last_accepted - 1]
        if sub.status != "accepted":  # not decided through GameState.decide: start again
            self.seen = _Seen()
            return self.highest_accepted(subs)
        return sub


class _Ledger:
    """Each player's sum of score changes in the ledger."""

    def __init__(self) -> None:
        self.seen = _Seen()
        self.totals: dict[str, int] = {}

    def total(self, ledger: list[LedgerEntry], email: str) -> int:
        self.seen.take(ledger, self)
        return self.totals.get(email, 0)

    def restart(self) -> None:
        self.totals.clear()

    def add(self, entry: LedgerEntry, i: int) -> None:
        self.totals[entry.player] = self.totals.get(entry.player, 0) + entry.delta


def _player_keys(p: Player) -> tuple[str, ...]:
    """A player by address, and by name under a key no address can equal."""
    return (p.email, name_key(p.name))


def _player_has(p: Player, key: str) -> bool:
    return key == p.email or key == name_key(p.name)


def name_key(name: str) -> str:
    return "name:" + name.strip().lower()


def _subscriber_keys(s: Subscriber) -> tuple[str, ...]:
    return (s.email,)


def _subscriber_has(s: Subscriber, key: str) -> bool:
    return key == s.email


class StateIndex:
    """The index of one GameState (its private ``_index``)."""

    def __init__(self) -> None:
        self.players = _Keys(_player_keys, _player_has)
        self.subscribers = _Keys(_subscriber_keys, _subscriber_has)
        self.submissions = _Submissions()
        self.ledger = _Ledger()

    def __reduce__(self) -> tuple[type[StateIndex], tuple[()]]:
        """Copies (shallow, deep) and pickles start empty: the copy has lists of its own."""
        return StateIndex, ()

    def __eq__(self, other: object) -> bool:
        """Derived data: two states are equal or not whatever their indexes hold."""
        return isinstance(other, StateIndex)

    __hash__ = None  # type: ignore[assignment]
