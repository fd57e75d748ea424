"""Geometry for the SVG drawings: Profiles as planks (rules 13 and 17) and the temperature chart.

A Profile is a trapezoidal plank 16 cm long whose parallel sides are 3 cm (the
fat end) and 1 cm; it is cut into 16 sections of 1 cm. Section 1 is the fat
end and the most significant bit. Planks stack as rule 17 says: the first fat
end left with a flat top, the next fat end right, its slanted top fitting the
first one's slanted bottom, and so on; two planks make a 16 x 4 cm rectangle.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

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


def plank(profile: int, row: int = 0, top: float = 0.0) -> list[Section]:
    """The 16 sections of a Profile drawn as row ``row`` of a Game Profile stack.

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
        raised = bool(profile >> (SECTIONS - number) & 1)
        out.append(Section(number=number, raised=raised,
                           points=" ".join(f"{_fmt(x * CM)},{_fmt(y * CM)}" for x, y in pts),
                           label_x=(x0 + 0.5) * CM, label_y=(max(b0, b1) + 0.6) * CM))
    return out


def stack_height(rows: int) -> float:
    """Height in drawing units of a stack of ``rows`` planks."""
    return (2 * rows + (1 if rows % 2 else 0)) * CM if rows else 0


def bits(profile: int) -> str:
    return format(profile & 0xFFFF, "016b")


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    line: str  # polyline points of the temperature steps
    marks: list[dict]  # reference lines: y, kelvin, label
    ticks: list[dict]  # y-axis ticks: y, kelvin
    start: str
    end: str
    left: int
    right: int
    bottom: int


REFERENCE = [(0, "0 K: the last accepted proposer wins (rule 11)"),
             (290, "290 K: FF bonus line (rule 16)"),
             (330, "330 K: overheat (rule 12)"),
             (450, "450 K: meltdown (rule 12)")]


def temperature_chart(start: datetime, initial: int, changes: list[tuple[datetime, int, int]],
                      end: datetime) -> Chart:
    """A step chart of the temperature from ``start`` to ``end``; changes are (time, old, new)."""
    width, height, left, right, top, bottom = 720, 320, 56, 700, 12, 290
    top_k = max([480, initial] + [n for _, _, n in changes]) + 20
    span = max((end - start).total_seconds(), 1.0)

    def x(t: datetime) -> float:
        return left + (right - left) * (t - start).total_seconds() / span

    def y(k: int) -> float:
        return bottom - (bottom - top) * k / top_k

    pts = [(x(start), y(initial))]
    for t, old, new in changes:
        pts += [(x(t), pts[-1][1]), (x(t), y(new))]
    pts.append((x(end), pts[-1][1]))
    return Chart(
        width=width, height=height, left=left, right=right, bottom=bottom,
        line=" ".join(f"{px:.1f},{py:.1f}" for px, py in pts),
        marks=[{"y": round(y(k), 1), "kelvin": k, "label": label} for k, label in REFERENCE],
        ticks=[{"y": round(y(k), 1), "kelvin": k} for k in range(0, top_k + 1, 100)],
        start=start.strftime("%Y-%m-%d"), end=end.strftime("%Y-%m-%d"))
