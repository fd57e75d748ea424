"""Issue 15: the site as a newcomer reads it."""
from __future__ import annotations

import re

from tests.site.checks import pages, parse


def cells(page, table_class: str) -> list[list[str]]:
    return [[" ".join("".join(td.itertext()).split()) for td in tr.iter("td")]
            for table in parse(page).iter("table") if table.get("class") == table_class
            for tr in table.find("tbody").iter("tr")]


def test_the_ledger_names_each_rule_once(site):
    causes = [row[-1] for row in cells(site / "scores.html", "ledger")]
    player_of_the_day = [c for c in causes if c.startswith("Player of the Day")]
    assert player_of_the_day and all(re.fullmatch(r"Player of the Day \d+ \(rule 18\)", c) for c in player_of_the_day)
    accepted = [c for c in causes if re.match(r"Proposal \d+ accepted", c)]
    assert accepted and all(re.fullmatch(r"Proposal \d+ accepted \(rule 11\) · submission \d+", c) for c in accepted)
    for page in pages(site):
        assert not re.search(r"(\(rule \d+\)) \1", " ".join(parse(page).find("body").itertext())), page
