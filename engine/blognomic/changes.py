"""A Proposal's change lines, read when it is submitted and applied when it is enacted:

    Enact rule "NAME": TEXT          (a new rule; `Enact rule "NAME" in core:` places it)
    Amend rule "NAME": TEXT          (its new text)
    Repeal rule "NAME"

TEXT runs on over the following lines up to the next change line. Any other text of the
Proposal is prose that an Admin applies by hand (``by_hand``). A change the edition's rule "Tags"
forbids (engine/blognomic/tags.py) is skipped.
"""
from __future__ import annotations

import re
from datetime import datetime
from typing import cast

from engine.blognomic import tags
from engine.blognomic.ruletext import new_rule
from engine.blognomic.state import Action, Change, Section
from engine.state import Rule, RuleVersion

_LINE = re.compile(r'^\s*(enact|amend|repeal)\s+rule\s+["“]([^"”]{1,200})["”]'
                   r'(?:\s+in\s+(core|dynastic|appendix))?\s*(?::\s*(.*))?$', re.I)


def read_changes(text: str) -> tuple[list[Change], bool]:
    """The change lines of ``text``, and whether there is prose besides them."""
    changes, prose = _read(text)
    return changes, bool(prose)


def prose(text: str) -> list[str]:
    """The lines of ``text`` outside its change lines: what an Admin applies by hand."""
    return _read(text)[1]


def _read(text: str) -> tuple[list[Change], list[str]]:
    changes: list[Change] = []
    other: list[str] = []
    for line in text.splitlines():
        m = _LINE.match(line)
        if m and (m[1].lower() == "repeal" or m[4] is not None):
            changes.append(Change(action=cast(Action, m[1].lower()), name=m[2].strip(), text=(m[4] or "").strip(),
                                  section=cast(Section, (m[3] or "dynastic").lower())))
        elif changes and changes[-1].action != "repeal":
            changes[-1].text = changes[-1].text + "\n" + line
        elif line.strip():
            other.append(line.strip())
    for c in changes:
        c.text = c.text.strip()
    return changes, other


def find(rules: list[Rule], name: str) -> Rule | None:
    """The rule in force with this name (case-insensitive)."""
    key = name.casefold()
    return next((r for r in rules if r.title.casefold() == key and not r.repealed), None)


def apply(rules: list[Rule], changes: list[Change], by: str, at: datetime, title: str) -> list[dict[str, str]]:
    """Apply ``changes`` of the matter titled ``title`` in order; each one's outcome, for the
    ``amended`` event (a change that names a rule wrongly or lacks its tag is skipped, the others
    still apply)."""
    return [{"action": c.action, "rule": c.name, "result": _apply_one(rules, c, by, at, title)} for c in changes]


def _apply_one(rules: list[Rule], c: Change, by: str, at: datetime, title: str) -> str:
    if (why := tags.refusal(rules, title, c)) is not None:
        return f"skipped: {why}"
    rule = find(rules, c.name)
    if c.action == "enact":
        if rule is not None:
            return f'skipped: a rule "{rule.title}" is already in force'
        rules.append(new_rule(len(rules) + 1, c.name, c.text, c.section, by))
        rules[-1].history[0].at = at
        return f"enacted in the {c.section} rules"
    if rule is None:
        return f'skipped: no rule "{c.name}" is in force'
    if c.action == "repeal":
        rule.repealed = True
        rule.amended_by.append(by)
        return "repealed"
    rule.text = c.text
    rule.amended_by.append(by)
    rule.history.append(RuleVersion(text=c.text, title=rule.title, by=by, at=at))
    return "amended"
