"""Issue 15: each ruleset's How to play page and its part of docs/reference.md show the same commands."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.ruleset import names
from tests.cli.ruleset_play import RulesetPlay
from tests.site.checks import parse

REFERENCE = Path(__file__).parents[2] / "docs" / "reference.md"


def site_rows(page: Path) -> list[tuple[str, ...]]:
    rows = []
    for table in parse(page).iter("table"):
        body = table.find("tbody")
        assert body is not None
        for tr in body.iter("tr"):
            rows.append(tuple("".join(td.itertext()) for td in tr.iter("td")))
    return rows


def reference_rows(ruleset: str) -> list[tuple[str, ...]]:
    """The command tables of the ruleset's part of the reference (before its game.toml keys)."""
    part = REFERENCE.read_text().split(f'(`ruleset = "{ruleset}"`)')[1].split("\n## ")[0].split("\n### game.toml")[0]
    rows = []
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip("|").split(" | ")] if line.startswith("| ") else []
        if len(cells) == 4 and cells[0] not in ("what", "---"):
            rows.append(tuple(re.sub("`", "", c.replace("\\|", "|").replace("<br>", "\n")) for c in cells))
    return rows


def test_the_how_to_play_page_lists_every_command_of_the_reference(site):
    assert len(reference_rows("imperial")) > 30
    assert site_rows(site / "how-to-play.html") == reference_rows("imperial")


@pytest.mark.parametrize("ruleset", [name for name in names() if name != "imperial"])  # Imperial's: above
def test_every_ruleset_s_how_to_play_page_lists_its_commands(ruleset, tmp_path, new_database_url):
    play = RulesetPlay(tmp_path / ruleset, ruleset, new_database_url(), {})
    play.cli("build", "--out", str(tmp_path / "public"))
    assert len(reference_rows(ruleset)) > 5
    assert site_rows(tmp_path / "public" / "how-to-play.html") == reference_rows(ruleset)


@pytest.mark.parametrize("settings, says", [
    ({}, "A vote completes only when every player has voted (rule 105), however long that takes: the daily mail "
         "names whom the game waits for. | A Judge (rule 212) may end the game: a Judgment: Rule 213: REASON finds "
         "that play cannot continue, and the player on turn wins at once, at any time, even on the first turn "
         "([suber] rule_213_from_circuit in game.toml)."),
    ({"vote_days": "7", "rule_213_from_circuit": "3"},
     "A vote completes when every player has voted, or 7 days after it was called, with the votes cast (whoever "
     "has not voted counts as absent). | A Judge (rule 212) may end the game: a Judgment: Rule 213: REASON finds "
     "that play cannot continue, and the player on turn wins at once from circuit 3 on; before it such a Judgment "
     "is only published ([suber] rule_213_from_circuit in game.toml)."),
])
def test_a_suber_game_s_how_to_play_page_says_when_a_judge_may_end_it_and_when_a_vote_completes(
        settings, says, tmp_path, new_database_url):
    play = RulesetPlay(tmp_path / "suber", "suber", new_database_url(), {"suber": settings})
    play.cli("build", "--out", str(tmp_path / "public"))
    intro = parse(tmp_path / "public" / "how-to-play.html").findall(".//main/p")
    text = [" ".join("".join(p.itertext()).split()) for p in intro]
    vote = next(t for t in text if t.startswith("The game is played by mail"))
    judge = next(t for t in text if t.startswith("A Judge"))
    assert vote[vote.index("A vote completes"):] + " | " + judge == says
