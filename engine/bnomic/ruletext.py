"""Reading B Nomic's ruleset (rulesets/b-nomic.txt) into sections and rules (1-8).

The rules start at the line ``Section 0``; the lines before it are no rule text. A heading
``Section S: NAME`` opens a section; ``Rule N: NAME`` (the colon optional, Reading 1) opens a rule
of that section, named by what follows its number; every other line is the rule's text.
"""
from __future__ import annotations

import re

from engine.bnomic.state import BRule, Section
from engine.state import RuleVersion

_SECTION = re.compile(r"^Section\s+(\d+)\s*:?\s*(.*)$")
_RULE = re.compile(r"^Rule\s+(\d+(?:-\d+)?)\s*:?\s+(.*)$")


def parse_rules(text: str) -> tuple[list[Section], list[BRule]]:
    sections: list[Section] = []
    rules: list[BRule] = []
    lines: list[str] = []
    started = False
    for line in text.replace("\r\n", "\n").split("\n"):
        if (s := _SECTION.match(line)) is not None:
            started = True
            _close(rules, lines)
            sections.append(Section(number=s[1], name=s[2].strip()))
        elif started and (r := _RULE.match(line)) is not None:
            _close(rules, lines)
            rules.append(new_rule(len(rules) + 1, r[1], r[2].strip(), "", sections[-1].number))
        elif rules:
            lines.append(line)
    _close(rules, lines)
    return sections, rules


def _close(rules: list[BRule], lines: list[str]) -> None:
    """The text gathered since the last heading becomes that rule's."""
    if rules:
        rule = rules[-1]
        rule.text = "\n".join(lines).strip()
        rule.history[0].text = rule.text
    lines.clear()


def new_rule(number: int, label: str | None, name: str, text: str, section: str | None,
             by: str | None = None) -> BRule:
    return BRule(number=number, label=label, title=name, text=text, section=section,
                 history=[RuleVersion(text=text, title=name, by=by)])
