"""Issue 15: the How to play page and docs/reference.md show the same commands."""
from __future__ import annotations

import re
from pathlib import Path

from tests.site.checks import parse

REFERENCE = Path(__file__).parents[2] / "docs" / "reference.md"


def site_rows(page: Path) -> list[tuple[str, str, str, str]]:
    rows = []
    for table in parse(page).iter("table"):
        for tr in table.find("tbody").iter("tr"):
            rows.append(tuple("".join(td.itertext()) for td in tr.iter("td")))
    return rows


def reference_rows() -> list[tuple[str, str, str, str]]:
    mail = REFERENCE.read_text().split("## Mail commands")[1].split("\n## ")[0]
    rows = []
    for line in mail.splitlines():
        cells = [c.strip() for c in line.strip("|").split(" | ")] if line.startswith("| ") else []
        if len(cells) == 4 and cells[0] not in ("what", "---"):
            rows.append(tuple(re.sub("`", "", c.replace("\\|", "|").replace("<br>", "\n")) for c in cells))
    return rows


def test_the_how_to_play_page_lists_every_command_of_the_reference(site):
    assert len(reference_rows()) > 30
    assert site_rows(site / "how-to-play.html") == reference_rows()
