"""When each pending matter may next be resolved, kept as the game changes: the next moment
anything is due is the top of a heap, not a pass over every pending matter at every window edge.

A matter's conditions change only at its own window edges (conditions.edges) or when what it is
read from changes, so its due moment is the first of "now" and its later edges at which the
rules allow it to be resolved, all else standing still (``_due``). What it is read from, and
what tells this index that it changed:

- its ballots, Self-Kill and Veto: a vote (``changed``, from ballots.py);
- the electorate, hence every running count: ``BlogState.electorate`` makes a new one (every
  pending matter is read again, once);
- the Hiatus, for Proposals: every pending Proposal is read again when it turns;
- the parameters (the windows' hours and days): every pending matter is read again when one changes;
- which Proposal is the oldest pending: the first pending Proposal is read again when it is a
  new one. A later Proposal blocked by an older one can only be resolved before its own seven
  days once every Proposal before it has gone stale, and a stale Proposal is itself due then
  (both are blocked alike by a Hiatus or the downtime), so each in turn resolves first and the
  next becomes the first, read again at that moment.

Resolved matters leave the heap as they reach its top. Derived data, like the running counts:
copies and pickles start empty and it is no part of a state's equality; a wrong entry can make
``auto.settle`` look at a matter at the wrong moment, where it is checked again, never resolve
one the rules do not allow.
"""
from __future__ import annotations

import heapq
from datetime import datetime
from typing import Any

from engine.blognomic.conditions import allowed, edges, windows
from engine.blognomic.state import BlogState, Electorate, VotableMatter, private
from engine.blognomic.votes import count_matter


class Dues:
    """Each pending matter's due moment (None: not due while nothing changes) and a heap of them."""

    def __init__(self) -> None:
        self.source: list[VotableMatter] | None = None
        self.taken = 0
        self.at: dict[int, datetime | None] = {}  # matter number -> due moment
        self.heap: list[tuple[datetime, int]] = []  # (due, number); entries no longer in ``at`` are stale
        self.stale: set[int] = set()  # matters to read again
        self.electorate: Electorate | None = None
        self.hiatus = False
        self.first_proposal: int | None = None
        self.parameters: dict[str, int | str] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        return Dues, ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dues)

    __hash__ = None  # type: ignore[assignment]

    def refresh(self, state: BlogState) -> None:
        """Take in new matters and what changed since the last call; read the stale ones again as
        of ``state.settled_until``."""
        if state.matters is not self.source or len(state.matters) < self.taken:
            self.__init__()  # type: ignore[misc]
            self.source = state.matters
        self.stale.update(m.number for m in state.matters[self.taken:] if m.status == "pending")
        self.taken = len(state.matters)
        electorate = state.electorate()
        if electorate is not self.electorate:
            self.electorate = electorate
            self.stale.update(self.at)
        if state.parameters != self.parameters:  # an enacted Set line moved the windows
            self.parameters = dict(state.parameters)
            self.stale.update(self.at)
        if state.hiatus != self.hiatus:
            self.hiatus = state.hiatus
            self.stale.update(m.number for m in state.pending("proposal"))
        first = next(state.first_pending("proposal"), None)
        if first is not None and first.number != self.first_proposal:
            self.first_proposal = first.number
            self.stale.add(first.number)
        for number in self.stale:
            self._read(state, state.matters[number - 1])
        self.stale.clear()
        if len(self.heap) > 2 * len(self.at) + 64:  # mostly stale entries: build it again
            self.heap = [(at, n) for n, at in self.at.items() if at is not None]
            heapq.heapify(self.heap)

    def _read(self, state: BlogState, m: VotableMatter) -> None:
        if m.status != "pending":
            self.at.pop(m.number, None)
            return
        due = _due(state, m, state.settled_until)
        self.at[m.number] = due
        if due is not None:
            heapq.heappush(self.heap, (due, m.number))

    def first(self, state: BlogState) -> tuple[datetime, VotableMatter] | None:
        """The earliest due moment and, of the matters due then, the lowest-numbered."""
        self.refresh(state)
        while self.heap:
            at, number = self.heap[0]
            m = state.matters[number - 1]
            if m.status == "pending" and self.at.get(number) == at:
                return at, m
            heapq.heappop(self.heap)
            if m.status != "pending":
                self.at.pop(number, None)
        return None


def _due(state: BlogState, m: VotableMatter, now: datetime) -> datetime | None:
    """The first of ``now`` and ``m``'s later window edges at which the rules allow it to be
    resolved, its Votes and the rest of the game standing still; None if none does."""
    c = count_matter(state, m)
    for at in [now, *sorted(e for e in edges(m, windows(state)) if e > now)]:
        enact, fail = allowed(state, m, at, c)
        if enact is None or fail is None:
            return at
    return None


def dues(state: BlogState) -> Dues:
    box = private(state)
    if box["_due"] is None:
        box["_due"] = Dues()
    return box["_due"]  # type: ignore[no-any-return]


def changed(state: BlogState, m: VotableMatter) -> None:
    """``m``'s ballots (or its Self-Kill or Veto) changed: read it again (an index not made yet
    will read every pending matter when it is)."""
    box: Dues | None = private(state)["_due"]
    if box is not None:
        box.stale.add(m.number)
