"""Geometry for the SVG drawings: Profiles as planks (rules 13 and 17) and the temperature chart.

A Profile is a trapezoidal plank 16 cm long whose parallel sides are 3 cm (the
fat end) and 1 cm; it is cut into 16 sections of 1 cm. Section 1 is the fat
end and the most significant bit. Planks stack as rule 17 says: the first fat
end left with a flat top, the next fat end right, its slanted top fitting the
first one's slanted bottom, and so on; two planks make a 16 x 4 cm rectangle.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

CM = 24  # drawing units per centimetre
SECTIONS = 16


@dataclass(frozen=True)
class Section:
    number: int  # 1..16, 1 = fat end = most significant bit
    raised: bool
    points: str  # SVG polygon points
    label_x: float
    label_y: float


def _fmt(x: float) -> str:
    return f"{x:g}"


@dataclass(frozen=True)
class Place:
    """Where a section is drawn in its row, whatever the Profile."""
    number: int
    points: str
    label_x: float
    label_y: float


def places(row: int = 0, top: float = 0.0) -> list[Place]:
    """The 16 sections' places in row ``row`` of a Game Profile stack.

    Even rows have the fat end left and a flat top; odd rows the fat end right
    and a slanted top. ``top`` shifts the whole row down (in cm).
    """
    fat_left = row % 2 == 0
    y0 = top + 2 * row

    def edges(x: float) -> tuple[float, float]:
        if fat_left:
            return y0, y0 + 3 - x / 8
        return y0 + 1 - x / 8, y0 + 2

    out = []
    for number in range(1, SECTIONS + 1):
        x0 = number - 1 if fat_left else SECTIONS - number
        x1 = x0 + 1
        (t0, b0), (t1, b1) = edges(x0), edges(x1)
        pts = [(x0, t0), (x1, t1), (x1, b1), (x0, b0)]
        out.append(Place(number=number, points=" ".join(f"{_fmt(x * CM)},{_fmt(y * CM)}" for x, y in pts),
                         label_x=(x0 + 0.5) * CM, label_y=(max(b0, b1) + 0.6) * CM))
    return out


def plank(profile: int, row: int = 0, top: float = 0.0, drawn: Sequence[Place] | None = None) -> list[Section]:
    """The 16 sections of a Profile drawn as row ``row`` of a Game Profile stack (``places``); ``drawn``:
    that row's places, made once by a caller that draws many Profiles in the same row."""
    return [Section(number=at.number, raised=bool(profile >> (SECTIONS - at.number) & 1), points=at.points,
                    label_x=at.label_x, label_y=at.label_y) for at in drawn or places(row, top)]


def stack_height(rows: int) -> float:
    """Height in drawing units of a stack of ``rows`` planks."""
    return (2 * rows + (1 if rows % 2 else 0)) * CM if rows else 0


def bits(profile: int) -> str:
    return format(profile & 0xFFFF, "016b")


@dataclass(frozen=True)
class TemperatureChange:
    old: int
    new: int
    cause: str
    day: int  # the game day it happened on


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    line: str  # polyline points: the temperature at the start, then after each change
    marks: list[dict]  # reference lines within the range drawn: y, kelvin, label
    ticks: list[dict]  # y-axis ticks: y, kelvin
    days: list[dict]  # where game days begin: x, day
    points: list[dict]  # changes worth a marker: x, y, kind ("overheat", "meltdown", "and"), label
    low: int  # the range drawn, in K
    high: int
    left: int
    right: int
    top: int
    bottom: int


REFERENCE = [(0, "0 K: the last accepted proposer wins (rule 11)"),
             (290, "290 K: FF bonus line (rule 16)"),
             (330, "330 K: overheat (rule 12)"),
             (450, "450 K: meltdown (rule 12)")]
# The engine's causes (engine/imperial/temperature.py, days.py) of the changes the chart marks. A vent
# or a meltdown reset follows the peak it ends, so the point before it is marked.
_MARKED = [("venting", "overheat", True), ("meltdown", "meltdown", True), ("Profile AND", "and", False)]
_TICK_STEPS = (5, 10, 20, 50, 100, 200)
_MAX_DAY_LABELS = 12


@dataclass
class TemperatureHistory:
    """The temperature changes a chart draws, with what the chart needs of them kept as they are
    added (a rebuild adds the new ones): the range of kelvin they span, the first change of each
    game day after the first (place, day), and the changes worth a marker (place, kelvin, kind,
    label).

    The line's places are 0 (the temperature before the first change) and i + 1 (after change i),
    its levels in ``line``. For a long line, runs of 2 ** (k + 1) places keep the places of their
    lowest and highest level (``runs[k]``; ``drawn[k]``: the same in order, each once), found from
    the two runs of half the length as the places are added, so the chart draws a long line with as
    many points as its width (``_line``) at a cost that does not grow with the game."""
    changes: list[TemperatureChange] = field(default_factory=list)
    line: list[int] = field(default_factory=list)
    span: tuple[int, int] | None = None
    firsts: list[tuple[int, int]] = field(default_factory=list)
    marked: list[tuple[int, int, str, str]] = field(default_factory=list)
    runs: list[list[tuple[int, int]]] = field(default_factory=list)
    drawn: list[list[int]] = field(default_factory=list)

    def add(self, c: TemperatureChange) -> None:
        i = len(self.changes)
        if i and c.day != self.changes[-1].day:
            self.firsts.append((i, c.day))
        for prefix, kind, before in _MARKED:
            if c.cause.startswith(prefix):
                self.marked.append((i, c.old, kind, f"day {c.day}: {kind} at {c.old} K, back to {c.new} K") if before
                                   else (i + 1, c.new, kind, f"day {c.day}: Profile AND, {c.old} K to {c.new} K"))
        if not i:
            self._place(c.old)
        self.changes.append(c)
        self._place(c.new)
        lo, hi = (c.old, c.new) if self.span is None else self.span
        self.span = min(lo, c.old, c.new), max(hi, c.old, c.new)

    def _place(self, level: int) -> None:
        """The line's next place, and each run it completes (the first lowest or highest of a tie)."""
        p, line = len(self.line), self.line
        line.append(level)
        k = 0
        while (p + 1) % (2 << k) == 0:
            if k == len(self.runs):
                self.runs.append([])
                self.drawn.append([])
            a, b = ((p - 1, p - 1), (p, p)) if k == 0 else self.runs[k - 1][-2:]
            lo = a[0] if line[a[0]] <= line[b[0]] else b[0]
            hi = a[1] if line[a[1]] >= line[b[1]] else b[1]
            self.runs[k].append((lo, hi))
            self.drawn[k] += sorted({lo, hi})
            k += 1


def temperature_chart(initial: int, changes: TemperatureHistory) -> Chart:
    """The temperature after each change, in order (a game of months is as readable as one of a day).

    The y range hugs the data; vertical lines mark where game days begin; overheats,
    meltdowns and Profile AND swings get a marker each. ``changes`` is kept from build to build,
    so only the line's points are made afresh (their x depends on how many there are), and they
    are at most two a unit of the plot's width (``_line``).
    """
    width, height, left, right, top, bottom = 720, 320, 56, 700, 12, 290
    lo, hi = changes.span or (initial, initial)
    low, high = _range(min(lo, initial), max(hi, initial))
    step = (right - left) / max(len(changes.changes), 1)

    def y(k: int) -> float:
        return round(bottom - (bottom - top) * (k - low) / (high - low), 1)

    levels = changes.line or [initial]
    places = _line(changes, right - left) if changes.line else [0]
    ys = {k: f"{y(k):.1f}" for k in {levels[i] for i in places}}
    tick = next(t for t in _TICK_STEPS if (high - low) / t <= 8)
    every = -(-len(changes.firsts) // _MAX_DAY_LABELS) or 1
    return Chart(
        width=width, height=height, left=left, right=right, top=top, bottom=bottom, low=low, high=high,
        line=" ".join([f"{left + i * step:.1f},{ys[levels[i]]}" for i in places]),
        marks=[{"y": y(k), "kelvin": k, "label": label} for k, label in REFERENCE if low <= k <= high],
        ticks=[{"y": y(k), "kelvin": k} for k in range(low + (-low) % tick, high + 1, tick)],
        days=[{"x": round(left + (i + 0.5) * step, 1), "day": day} for i, day in changes.firsts[::every]],
        points=[{"x": round(left + at * step, 1), "y": y(kelvin), "kind": kind, "label": label}
                for at, kelvin, kind, label in changes.marked])


def _line(kept: TemperatureHistory, columns: int) -> Sequence[int]:
    """The places of the line's points: every place while there are at most two a column of the plot
    (a unit of its width, about a pixel and a quarter as the page draws it); beyond that the first,
    the last, and the lowest and highest of each run of 2 ** (k + 1) places, the shortest runs of
    which there are at most ``columns``, in order (kept: ``TemperatureHistory.drawn``), and of the
    last, partial run. The line then spans the same heights as the whole within every run of a unit
    or two of the width, so it looks the same, at a cost bounded by the width."""
    line = kept.line
    n = len(line)
    if n <= 2 * columns:
        return range(n)
    k = (-(-n // columns) - 1).bit_length() - 1  # 2 ** (k + 1): at least n / columns
    start = len(kept.runs[k]) << (k + 1)
    rest = line[start:]
    tail = sorted({start + rest.index(min(rest)), start + rest.index(max(rest))}) if rest else []
    places = kept.drawn[k] + tail
    return ([0] if places[0] else []) + places + ([n - 1] if places[-1] < n - 1 else [])


def _range(lo: int, hi: int) -> tuple[int, int]:
    """The kelvin range drawn: the data with a margin, on multiples of 10, never below 0."""
    margin = max(5, (hi - lo) // 10)
    return max(0, (lo - margin) // 10 * 10), -(-(hi + margin) // 10) * 10
