"""The lists of submissions by blocks of numbers (all, and each status: ``generators._paged``),
kept from build to build in the state's ``SubmissionIndex``, so that a rebuild reads again the
blocks of the submissions that changed, not every block of the list.

The newest block is on NAME.html, older ones on NAME-K.html, and every page links to every
block: a block opened or emptied changes every page (all are made again), any other change
only the pages of the blocks whose rows changed.
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import itemgetter, neg

ROW_NUMBER = itemgetter(0)  # the number in a submission's row key (index.py ``SubmissionIndex.row_keys``)


@dataclass
class Listing:
    """One list's pages: ``paths``, ``keys`` (title, name, the blocks shown, the block's row keys)
    and what they show (``links``, ``titles``, ``parts``), by place (newest block first);
    ``changed``: the places whose keys the last ``update`` changed (None: all of them made
    again), between ``since`` and ``version`` (``Family.changes``)."""
    name: str
    heading: str
    block: int = 0  # numbers a block, as last made
    order: list[int] = field(default_factory=list)  # the blocks shown, newest first ([0] for none)
    parts: list[tuple] = field(default_factory=list)
    links: list[dict] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    keys: list[tuple] = field(default_factory=list)
    changed: list[int] | None = None
    version: object = field(default_factory=object)
    since: object = None
    seen: object = None  # the index's version this listing was last brought up to

    def update(self, rows: list[tuple], numbers: Iterable[int] | None, block: int) -> None:
        """Bring the listing up to ``rows`` (row keys in order of number), where only the rows of
        ``numbers`` changed since the last update (None: not known)."""
        self.since, self.version = self.version, object()
        if numbers is None or block != self.block or not self.paths:
            return self._all(rows, block)
        changed: list[int] = []
        for b in sorted({(n - 1) // block for n in numbers}):
            part = _part(rows, b, block)
            i = bisect_left(self.order, -b, key=neg)
            shown = i < len(self.order) and self.order[i] == b and (len(self.order) > 1 or bool(self.parts[0]))
            if shown != bool(part):
                return self._all(rows, block)
            if part and part != self.parts[i]:
                if not changed:  # copies, not changes in place: the last build's lists stay as they were
                    self.parts, self.keys = list(self.parts), list(self.keys)
                self.parts[i] = part
                self.keys[i] = (*self.keys[i][:3], part)
                changed.append(i)
        self.changed = changed

    def _all(self, rows: list[tuple], block: int) -> None:
        blocks = _blocks(rows, block)
        self.block, self.changed = block, None
        self.order = sorted(blocks, reverse=True) or [0]
        self.links = [{"href": f"{self.name}.html" if i == 0 else f"{self.name}-{b + 1}.html",
                       "label": f"{b * block + 1}–{b * block + block}"} for i, b in enumerate(self.order)]
        shown = self.order if len(self.order) > 1 else []
        self.titles = [self.heading if i == 0 else f"{self.heading}, numbers {link['label']}"
                       for i, link in enumerate(self.links)]
        self.parts = [blocks.get(b, ()) for b in self.order]
        self.paths = [f"submissions/{link['href']}" for link in self.links]
        self.keys = [(title, self.name, shown, part) for title, part in zip(self.titles, self.parts)]


def _part(rows: list[tuple], b: int, block: int) -> tuple:
    """The row keys of block ``b``, found by bisection."""
    lo = bisect_left(rows, b * block + 1, key=ROW_NUMBER)
    return tuple(rows[lo:bisect_left(rows, (b + 1) * block + 1, lo, key=ROW_NUMBER)])


def _blocks(rows: list[tuple], block: int) -> dict[int, tuple]:
    """Row keys (in order of number) by block, found by bisection."""
    if not rows:
        return {}
    out = {}
    for b in range((ROW_NUMBER(rows[0]) - 1) // block, (ROW_NUMBER(rows[-1]) - 1) // block + 1):
        part = _part(rows, b, block)
        if part:
            out[b] = part
    return out
