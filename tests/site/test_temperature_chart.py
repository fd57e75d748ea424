"""Issue 15: the temperature chart reads the same whether the game lasted a day or half a year."""
from __future__ import annotations

from nomic.website.imperial.drawing import TemperatureChange, TemperatureHistory, _line, temperature_chart

SVG = "{http://www.w3.org/2000/svg}"


def months_of_play() -> list[TemperatureChange]:
    """180 game days of small moves (+4 K, then a Profile AND swing back), one overheat (vented)."""
    changes = []
    for day in range(1, 181):
        changes += [TemperatureChange(303, 307, f"Proposal {day} accepted (rule 12)", day),
                    TemperatureChange(307, 303, "Profile AND (rule 12)", day)]
        if day == 20:
            changes += [TemperatureChange(303, 331, "Proposal 40 accepted (rule 12)", day),
                        TemperatureChange(331, 303, "venting (rule 12)", day)]
    return changes


def history(changes: list[TemperatureChange]) -> TemperatureHistory:
    """The changes as the site's index keeps them, added one by one."""
    kept = TemperatureHistory()
    for c in changes:
        kept.add(c)
    return kept


def ys(chart) -> list[float]:
    return [float(xy.split(",")[1]) for xy in chart.line.split()]


def test_a_game_of_months_is_not_a_flat_line():
    chart = temperature_chart(303, history(months_of_play()))
    assert (chart.low, chart.high) == (290, 340)
    heights = ys(chart)
    assert max(heights) - min(heights) > 0.5 * (chart.bottom - chart.top)  # (0 to 500 K: a twentieth)
    assert len(heights) == len(months_of_play()) + 1  # one point per change, evenly spaced


def test_the_range_shows_only_the_reference_lines_inside_it():
    chart = temperature_chart(303, history(months_of_play()))
    assert [m["kelvin"] for m in chart.marks] == [290, 330]
    assert [t["kelvin"] for t in chart.ticks] == [290, 300, 310, 320, 330, 340]


def test_overheats_and_and_swings_are_marked():
    chart = temperature_chart(303, history(months_of_play()))
    overheats = [p for p in chart.points if p["kind"] == "overheat"]
    assert [p["label"] for p in overheats] == ["day 20: overheat at 331 K, back to 303 K"]
    assert overheats[0]["y"] == min(ys(chart))  # on the peak, not on the vented value
    swings = [p for p in chart.points if p["kind"] == "and"]
    assert len(swings) == 180 and swings[0]["label"] == "day 1: Profile AND, 307 K to 303 K"


def test_game_days_are_labelled_at_most_a_dozen_times():
    chart = temperature_chart(303, history(months_of_play()))
    days = [d["day"] for d in chart.days]
    assert len(days) <= 12 and days[0] == 2 and days == sorted(days)
    xs = [d["x"] for d in chart.days]
    assert xs == sorted(xs) and chart.left < xs[0] and xs[-1] < chart.right


def test_a_game_without_changes_is_a_level_line_at_its_temperature():
    chart = temperature_chart(303, history([]))
    assert (chart.low, chart.high) == (290, 310)
    assert chart.line == f"{chart.left:.1f},{ys(chart)[0]:.1f}" and chart.points == [] and chart.days == []


def test_the_page_draws_day_lines_and_markers(site):
    from tests.site.checks import parse
    doc = parse(site / "temperature.html")
    days = [ln for ln in doc.iter(f"{SVG}line") if ln.get("class") == "day"]
    assert [ln.find(f"{SVG}title").text for ln in days][:1] == ["day 2 begins"]
    points = list(doc.iter(f"{SVG}circle"))
    assert all(c.get("class").startswith("point point-") and c.find(f"{SVG}title").text for c in points)


def test_a_long_line_is_drawn_with_points_bounded_by_the_width_and_every_peak():
    """20,000 changes: at most two points a unit of the plot's width, and still the first and last
    level and the lowest and highest of every run of 32 places (a unit of the width is 31)."""
    changes = [TemperatureChange(300 + (i * 37) % 50, 300 + ((i + 1) * 37) % 50, "the day ends", 1 + i // 4)
               for i in range(20_000)]
    kept = history(changes)
    chart = temperature_chart(300, kept)
    assert len(chart.line.split()) <= 2 * (chart.right - chart.left) + 2
    places = list(_line(kept, chart.right - chart.left))
    assert len(places) == len(chart.line.split())
    assert places[0] == 0 and places[-1] == 20_000 and places == sorted(set(places))
    levels = [300] + [c.new for c in changes]
    assert kept.line == levels
    for start in range(0, 20_001, 32):
        run = [p for p in places if start <= p < start + 32]
        assert {levels[p] for p in run} >= {min(levels[start:start + 32]), max(levels[start:start + 32])}, start


def test_a_short_line_has_a_point_for_every_change():
    changes = [TemperatureChange(300 + i % 7, 300 + (i + 1) % 7, "the day ends", 1) for i in range(1_287)]
    assert len(temperature_chart(300, history(changes)).line.split()) == 1_288
