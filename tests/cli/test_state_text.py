"""``nomic state`` without --json: each ruleset's headline and its players."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from engine.ruleset import names
from nomic.cli import app

HEADLINES = {
    "imperial": "Day 1, temperature 303 K, wood chips 0, It: -",
    "blognomic": "Dynasty 1, quorum 1, 0 matters pending",
    "suber": "Circuit 1, on turn: -, unanimity, winner: -",
    "bnomic": "nweek 1, nday 1 (Breakday), clock Off, ndelay 0",
}


@pytest.mark.parametrize("ruleset", names())
def test_each_ruleset_summarises_its_state(tmp_path, ruleset: str) -> None:
    runner = CliRunner()
    made = runner.invoke(app, ["init", str(tmp_path / "g"), "--ruleset", ruleset])
    assert made.exit_code == 0, made.output
    shown = runner.invoke(app, ["state", "--game", str(tmp_path / "g")])
    assert shown.exit_code == 0, shown.output
    headline = shown.output.splitlines()[0]
    assert headline.strip()
    if ruleset in HEADLINES:  # the four pinned here; a ruleset listed later has one at least
        assert headline == HEADLINES[ruleset]
