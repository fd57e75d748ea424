"""The lists of submissions by blocks of numbers (all, and each status: ``generators._paged``),
kept from build to build in the state's ``SubmissionIndex``, so that a rebuild reads again the
blocks of the submissions that changed, not every block of the list.

The newest block is on NAME.html, older ones on NAME-K.html. A page links to a bounded window of
blocks (``_window``): its own and ``WINDOW`` either side, the newest and the oldest, and, when that
leaves any out, NAME-blocks.html, which links to every block. So a block opened or emptied changes
the pages whose window it is in (or next to), the ends' and that page, not one page per block;
any other change only the pages of the blocks whose rows changed.
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import itemgetter

ROW_NUMBER = itemgetter(0)  # the number in a submission's row key (index.py ``SubmissionIndex.row_keys``)
WINDOW = 3  # blocks a list page links to on either side of its own
GAP = ("", "…")  # in a page's links, where blocks are left out

Link = tuple[str, str]  # (href, label); an empty href: not a link (``GAP``)


@dataclass
class Listing:
    """One list's pages: ``paths``, ``keys`` (title, name, the links shown, the block's row keys)
    and what they show (``links`` shown, ``titles``, ``parts``), by place (oldest block first);
    ``every``: each block's link, newest first, when a page's links leave some out (the page of
    every block, ``every_path``), else empty; ``changed``: the places whose keys the last ``update``
    changed (None: all of them made again), between ``since`` and ``version`` (``Family.changes``)."""
    name: str
    heading: str
    block: int = 0  # numbers a block, as last made
    order: list[int] = field(default_factory=list)  # the blocks shown, oldest first ([0] for none)
    parts: list[tuple] = field(default_factory=list)
    links: list[tuple[Link, ...]] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    keys: list[tuple] = field(default_factory=list)
    every: tuple[Link, ...] = ()
    changed: list[int] | None = None
    version: object = field(default_factory=object)
    since: object = None
    seen: object = None  # the index's version this listing was last brought up to

    @property
    def every_path(self) -> str:
        return f"submissions/{self.name}-blocks.html"

    def update(self, rows: list[tuple], numbers: Iterable[int] | None, block: int) -> None:
        """Bring the listing up to ``rows`` (row keys in order of number), where only the rows of
        ``numbers`` changed since the last update (None: not known)."""
        self.since, self.version = self.version, object()
        if numbers is None or block != self.block or not self.paths:
            return self._all(rows, block)
        changed: list[int] = []
        for b in sorted({(n - 1) // block for n in numbers}):
            part = _part(rows, b, block)
            i = bisect_left(self.order, b)
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
        """Every page made again (in a few Python steps a block: a page's key compares equal to the
        last build's unless what it shows changed, so the writer renders only those)."""
        blocks = _blocks(rows, block)
        self.block, self.changed = block, None
        self.order = sorted(blocks) or [0]
        newest = len(self.order) - 1
        hrefs = [f"{self.name}.html" if i == newest else f"{self.name}-{b + 1}.html" for i, b in enumerate(self.order)]
        labels = [f"{b * block + 1}–{b * block + block}" for b in self.order]
        each = list(zip(hrefs, labels))
        self.every = tuple(reversed(each)) if len(each) > WINDOW + 2 else ()
        self.links = [_window(each, i, f"{self.name}-blocks.html") if len(each) > 1 else () for i in range(len(each))]
        self.titles = [self.heading if i == newest else f"{self.heading}, numbers {label}"
                       for i, label in enumerate(labels)]
        self.parts = [blocks.get(b, ()) for b in self.order]
        self.paths = [f"submissions/{href}" for href in hrefs]
        self.keys = [(title, self.name, links, part) for title, links, part in zip(self.titles, self.links, self.parts)]


def _window(each: list[Link], i: int, every: str) -> tuple[Link, ...]:
    """What the page of place ``i`` (of ``each``, oldest first) links to, newest first: its own block
    and ``WINDOW`` either side, the newest (labelled so: its numbers change as blocks open) and the
    oldest, a ``GAP`` where blocks are left out, and then, if any are, ``every``: the page of all."""
    last = len(each) - 1
    if last <= WINDOW + 1:  # every page's window holds them all
        return tuple(reversed(each))
    lo, hi = max(0, i - WINDOW), min(last, i + WINDOW)
    head = [(each[last][0], "newest")] + [GAP] * (hi < last - 1) if hi < last else []
    tail = [GAP] * (lo > 1) + [each[0]] if lo > 0 else []
    return (*head, *reversed(each[lo:hi + 1]), *tail, (every, "all blocks"))


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
