"""Reading rulesets/suber-nomic-2005.txt: the Initial Set (rule 101), mutability by number (102)."""
from __future__ import annotations

from tests.suber.support import Game


def test_a_new_game_has_the_initial_set_only() -> None:
    rules = Game().json()["rules"]
    assert [r["number"] for r in rules] == [*range(101, 117), *range(201, 214)]
    assert all(r["mutable"] == (r["number"] >= 200) and not r["repealed"] for r in rules)
    first, last = rules[0], rules[-1]
    assert first["text"].startswith("All players must always abide by all the rules then in effect")
    assert last["text"].endswith("This rule takes precedence over every other rule determining the winner.")
    assert rules[1]["text"].startswith("Initially rules in the 100's are immutable")  # no heading in a text
    assert "Mutable Rules" not in rules[15]["text"]  # 116 ends before the heading
