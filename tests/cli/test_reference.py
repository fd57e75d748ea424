"""Issue 15: docs/reference.md is generated from the code and is never stale."""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from mailer import grammar
from nomic import reference
from engine.ruleset import names, ruleset_for
from nomic.website.commands import office_rows, player_rows
from nomic.website.rulesets import site_for
from storage.config import COMMON, defaults
from tests.support import GRAMMAR

ROOT = Path(__file__).parents[2]
# Words in capitals in the command table, as a player would fill them in.
FILLED = {"TITLE": "Cake", "PLAYER": "bob@x.org", "AREA": "Food", "REASON": "too sweet", "WORDS": "open sesame",
          "A-B": "1-4", "C-D": "5-8", "K": "2", "N": "3", "NAME": "Cake", "TEXT": "Cake for all.",
          "THEME": "Pirates", "WORD": "Pirate", "QUESTION": "Is cake food?"}


def test_the_committed_reference_is_what_the_generator_prints():
    printed = subprocess.run([sys.executable, "-m", "nomic.reference"], capture_output=True, text=True, check=True)
    assert (ROOT / "docs" / "reference.md").read_text() == printed.stdout, \
        "docs/reference.md is stale: python -m nomic.reference > docs/reference.md"


def part(text: str, heading: str) -> str:
    """The part of the reference under a "## " heading, up to the next."""
    return text.split(f"\n## {heading}")[1].split("\n## ")[0]


@pytest.mark.parametrize("name, heading, level", [
    *[(r, f"{site_for(r).guide.name} (`ruleset = \"{r}\"`)", "####") for r in names()],
    (COMMON, "game.toml: the keys of every game", "###")])
def test_every_game_toml_key_is_in_the_reference_with_its_default_and_a_meaning(name, heading, level):
    """Each ruleset's own keys in its part of the page, the keys of every game in theirs."""
    text = part((ROOT / "docs" / "reference.md").read_text(), heading)
    for section, keys in tomllib.loads(defaults(name)).items():
        assert f"{level} [{section}]" in text
        for key, value in keys.items():
            row = next(ln for ln in text.split(f"{level} [{section}]")[1].splitlines() if ln.startswith(f"| `{key}` |"))
            _, default, meaning = [c.strip() for c in row.strip("|").split(" | ")]
            assert tomllib.loads(f"v = {default.strip('`')}")["v"] == value
            assert meaning, f"[{section}] {key} has no comment in storage/defaults/{name}.toml"


def test_a_hash_inside_a_string_is_not_read_as_a_comment():
    with pytest.raises(ValueError, match=r"cannot read the default of \[game\] name"):
        reference.toml_sections('[game]\nname = "a # b"   # the name\n')


def fill(text: str) -> str:
    words = "|".join(sorted(map(re.escape, FILLED), key=len, reverse=True))
    return re.sub(rf"(?<![A-Za-z])({words})(?![A-Za-z])", lambda m: FILLED[m[0]], text)


IMPERIAL = ruleset_for("imperial")


@pytest.mark.parametrize("what, subject, line, rule",
                         [(h.what, h.subject, h.line, h.rule) for h in player_rows(IMPERIAL) + office_rows(IMPERIAL)
                          if not h.subject.startswith("Proclamation")])
def test_every_command_in_the_table_is_one_the_game_understands(what, subject, line, rule):
    """The table is documentation: each line, filled in as a player would, is read as a command."""
    subject, line = fill(subject), fill(line)
    if line.startswith("Passphrase:"):
        assert grammar.passphrase(line) == "open sesame"
        return
    reading = GRAMMAR.read(subject, "" if subject.startswith("Proposal") and "proposal" in line else line)
    assert reading.not_understood == []
    [cmd] = reading.commands
    if subject.startswith("Proposal") and line != "The text of your proposal.":
        assert cmd.requests or cmd.area, f"{line!r} is not read as a request of the Proposal"
    if line.startswith("Accept 3\nArea"):
        assert cmd.area == "Food"


@pytest.mark.parametrize("ruleset, subject, line", [
    (name, h.subject, h.line) for name in ("blognomic", "suber")
    for h in player_rows(ruleset_for(name)) + office_rows(ruleset_for(name)) if not h.line.startswith("Passphrase:")])
def test_every_command_of_the_other_rulesets_is_one_their_game_understands(ruleset, subject, line):
    subject, line = fill(subject), fill(line)
    reading = grammar.Grammar(ruleset_for(ruleset).commands).read(subject, line)
    assert reading.not_understood == []
    assert len(reading.commands) == 1, reading.commands
