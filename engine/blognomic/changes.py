"""A Proposal's change lines, read when it is submitted and applied when it is enacted:

    Enact rule "NAME": TEXT          (a new rule; `Enact rule "NAME" in core:` places it)
    Amend rule "NAME": TEXT          (its new text)
    Repeal rule "NAME"
    Set NAME = VALUE                 (a number of a rule's text, engine/blognomic/mechanics.py)

TEXT runs on over the following lines up to the next change line. Any other text of the
Proposal is prose that an Admin applies by hand (``by_hand``), except a line that opens like a
change line and is not in its form (``malformed``): the answer refuses it with the forms expected.
A change the edition's rule "Tags" forbids (engine/blognomic/tags.py) is skipped; a ``Set`` line
is a change to the rule that declares its parameter, so its tag is that rule's.
"""
from __future__ import annotations

import re
from datetime import datetime
from typing import cast

from engine import mechanics as generic
from engine.blognomic import mechanics, tags
from engine.blognomic.ruletext import new_rule
from engine.blognomic.state import Action, Change, Section
from engine.mechanics import Value
from engine.state import Rule, RuleVersion
from engine.refusal import Refusal

_LINE = re.compile(r'^\s*(enact|amend|repeal)\s+rule\s+["“]([^"”]{1,200})["”]'
                   r'(?:\s+in\s+(core|dynastic|appendix))?\s*(?::\s*(.*))?$', re.I)
_SET = re.compile(r"^\s*set\s+([a-z]\w{0,39})\s*=\s*(.{0,40}?)\s*$", re.I)
_CHANGE_LIKE = re.compile(r"^\s*((?:enact|amend|repeal)\s+rule\b|set\s+\S+\s*=)", re.I)  # meant as a change line
FORMS = "'Enact rule \"NAME\": TEXT', 'Amend rule \"NAME\": TEXT', 'Repeal rule \"NAME\"' or 'Set NAME = VALUE'"


def read_changes(text: str) -> tuple[list[Change], bool]:
    """The change lines of ``text``, and whether there is prose besides them."""
    return _read(text)[0], bool(prose(text))


def prose(text: str) -> list[str]:
    """The lines of ``text`` outside its change lines, malformed ones aside: what an Admin applies by hand."""
    return [line for line in _read(text)[1] if not _CHANGE_LIKE.match(line)]


def malformed(text: str) -> list[str]:
    """The lines of ``text`` outside any change's TEXT that open like a change line and are not in
    a change line's form ('Amend rule banana'): never read as prose, refused with the forms."""
    return [line.strip() for line in _read(text)[1] if _CHANGE_LIKE.match(line)]


def _read(text: str) -> tuple[list[Change], list[str]]:
    changes: list[Change] = []
    other: list[str] = []
    for line in text.splitlines():
        m = _LINE.match(line)
        if m and (m[1].lower() == "repeal" or m[4] is not None):
            changes.append(Change(action=cast(Action, m[1].lower()), name=m[2].strip(), text=(m[4] or "").strip(),
                                  section=cast(Section, (m[3] or "dynastic").lower())))
        elif s := _SET.match(line):
            changes.append(Change(action="set", name=s[1].lower(), text=s[2]))
        elif changes and changes[-1].action not in ("repeal", "set"):
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


def setting(c: Change) -> generic.Setting:
    """A ``Set`` change as a declared parameter's value; ``generic.Refused``, with the form expected,
    when it names none or its value is out of bounds."""
    read = mechanics.DECLARED.read_set(f"Set {c.name} = {c.text}")
    assert read is not None, "a set Change is read from a Set line"
    return read


def refusal(rules: list[Rule], title: str, c: Change) -> Refusal | None:
    """Why ``c`` will not apply in a matter titled ``title`` as the rules stand: a ``Set`` line out of
    form, or a change rule Tags forbids (a ``Set`` line's rule is its parameter's)."""
    if c.action == "set":
        try:
            parameter = mechanics.DECLARED.parameter(setting(c).name)
        except generic.Refused as why:
            return why.refusal
        assert parameter is not None
        c = Change(action="amend", name=str(parameter.rule))
    return tags.refusal(rules, title, c)


def apply(rules: list[Rule], changes: list[Change], by: str, at: datetime, title: str,
          parameters: dict[str, Value]) -> list[dict[str, str]]:
    """Apply ``changes`` of the matter titled ``title`` in order to ``rules`` and ``parameters``;
    each one's outcome, for the ``amended`` event (a change that names a rule wrongly, lacks its tag
    or sets no declared parameter is skipped, the others still apply)."""
    return [{"action": c.action, "rule": c.name, "result": _apply_one(rules, c, by, at, title, parameters)}
            for c in changes]


def _apply_one(rules: list[Rule], c: Change, by: str, at: datetime, title: str, parameters: dict[str, Value]) -> str:
    if (why := refusal(rules, title, c)) is not None:
        return f"skipped: {why.text('')}"
    if c.action == "set":
        done = setting(c)
        old = mechanics.values(parameters)[done.name]
        parameters[done.name] = done.value
        return f"set: {old} -> {done.value}"
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
