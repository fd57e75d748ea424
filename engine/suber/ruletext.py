"""Reading rulesets/suber-nomic-2005.txt into the Initial Set (rule 101: rules 101-116 and 201-213).

The text is the 2005 wiki game's page: a line holding only a rule's number starts that rule, the
lines up to the next number (or section heading) are its text. The game's later rules (303 on)
are printed after the Initial Set; they were made by that game's proposals, and a new game begins
with the Initial Set alone (rule 101), so they are not read in (docs/rulings-suber.md), but for
those a game says it plays (``also``: rule 305, engine/suber/calls.py).
"""
from __future__ import annotations

import re
from collections.abc import Collection

from engine.state import RuleVersion
from engine.suber.state import SuberRule

_NUMBER = re.compile(r"^\s*(\d{3})\s*$")
_HEADINGS = ("immutable rules", "mutable rules")
LAST_INITIAL = 299  # rules numbered above this are not in the Initial Set


def parse_rules(text: str, also: Collection[int] = ()) -> list[SuberRule]:
    """The Initial Set and the later rules ``also``, in the text's order; rule 102: the 100s immutable,
    the others mutable."""
    bodies: dict[int, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        m = _NUMBER.match(line)
        if m:
            current = bodies.setdefault(int(m[1]), [])
        elif line.strip().lower() in _HEADINGS:
            current = None
        elif current is not None:
            current.append(line.rstrip())
    return [_rule(n, "\n".join(lines).strip()) for n, lines in bodies.items() if n <= LAST_INITIAL or n in also]


def _rule(number: int, text: str) -> SuberRule:
    title = f"Rule {number}"
    return SuberRule(number=number, title=title, text=text, mutable=number >= 200,
                     history=[RuleVersion(text=text, title=title)])
