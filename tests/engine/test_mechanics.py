"""engine/mechanics.py, the one mechanism every ruleset declares its rules' mechanics and
parameters through: ``Set`` lines checked against the declarations, repeal and override."""
from __future__ import annotations

import pytest

from engine.imperial.mechanics import DECLARED as IMPERIAL
from engine.mechanics import Declarations, Mechanic, Parameter, Refused, Setting, current

DECLARED = Declarations(
    mechanics=(Mechanic(1, "the old count"), Mechanic(2, "the new count", overrides=(1,)), Mechanic(3, "the bell")),
    parameters=(Parameter("limit", 1, "no more than 5", 5, minimum=1, maximum=9),
                Parameter("mode", 2, "by show of hands", "hands", choices=("hands", "ballot"))))


def test_a_set_line_is_read_against_the_declarations() -> None:
    assert DECLARED.read_set("  SET limit = 7 ") == Setting("limit", 7)
    assert DECLARED.read_set("Set mode = Ballot") == Setting("mode", "ballot")
    assert DECLARED.read_set("Settle the matter") is None


@pytest.mark.parametrize(("line", "why"), [
    ("Set limit = 10", "limit = 10 is out of bounds (rule 1: no more than 5); expected 'Set limit = N' "
     "(N a whole number at least 1 and at most 9)"),
    ("Set limit = many", "limit is a whole number; expected 'Set limit = N' (N a whole number at least 1 and "
     "at most 9) (rule 1)"),
    ("Set mode = dice", "mode is hands or ballot (rule 2: by show of hands); expected 'Set mode = hands | ballot'"),
    ("Set speed = 3", "there is no parameter 'speed' (known: limit, mode); expected 'Set NAME = VALUE'"),
])
def test_a_bad_set_line_is_refused_with_the_form_expected(line: str, why: str) -> None:
    with pytest.raises(Refused) as refused:
        DECLARED.read_set(line)
    assert str(refused.value) == why


def test_a_repealed_rule_runs_nothing_and_a_later_rule_overrides_an_earlier_one() -> None:
    assert [m.runs for m in DECLARED.active({(1, 0), (3, 0)})] == ["the old count", "the bell"]
    assert [m.runs for m in DECLARED.active({(1, 0), (2, 0), (3, 0)})] == ["the new count", "the bell"]
    assert [m.runs for m in DECLARED.active({(1, 0)})] == ["the old count"]
    assert not DECLARED.runs(1, {(1, 0), (2, 0)}) and DECLARED.runs(2, {(1, 0), (2, 0)})


def test_current_values_are_the_set_ones_else_the_defaults() -> None:
    assert current(DECLARED, {"mode": "ballot"}) == {"limit": 5, "mode": "ballot"}


def test_imperial_declares_its_variables_with_their_old_defaults_and_minimums() -> None:
    assert current(IMPERIAL, {})["accept_points"] == 3 and len(IMPERIAL.parameters) == 19
    assert IMPERIAL.parameter("day_hours") == Parameter("day_hours", 10, "the shortest game day", 24, minimum=1)
    assert [m.runs for m in IMPERIAL.of(8, 1)] == ["the end of the game at TEW"]
