"""The navigation on every page names the page's own section as current, and only that one (the
writer renders it once per section and depth and every page of that kind reuses it)."""
from __future__ import annotations

import re

import pytest


def current(site, path: str) -> list[tuple[str, str]]:
    nav = (site / path).read_text()
    nav = nav[nav.index('<nav aria-label="Site">'):nav.index("</nav>")]
    return re.findall(r'<a href="([^"]*)" aria-current="page">([^<]*)</a>', nav)


@pytest.mark.parametrize("path, want", [
    ("index.html", [("index.html", "Home")]),
    ("scores.html", [("scores.html", "Scores")]),
    ("search.html", []),
    ("rules/index.html", [("../rules/index.html", "Rules")]),
    ("rules/8.html", [("../rules/index.html", "Rules")]),
    ("submissions/4.html", [("../submissions/index.html", "Submissions")]),
    ("list/index.html", [("../list/index.html", "List")]),
    ("m/cake-talk@test/index.html", []),
])
def test_the_navigation_marks_the_section_of_the_page(site, path, want):
    assert current(site, path) == want
