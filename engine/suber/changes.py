"""Rule-changes (rules 103, 108, 109, 114, 209): the change lines of a proposal, checked when it is
made and applied when its vote adopts it.

A proposal's body may open with prose; from its first change line on, every line belongs to a
change (case-insensitive):

    Enact rule: TEXT          a new mutable rule (103), numbered as the proposal (108); the lines
                              that follow, up to the next change line, continue its text
    Amend rule N: TEXT        rule N's new text (lines that follow continue it); the rule takes the
                              proposal's number, its history kept (108)
    Repeal rule N             the rule is no longer in effect; it keeps its number
    Transmute rule N          immutable <-> mutable (102), the rule takes the proposal's number
    Set NAME = VALUE          a parameter of a rule the proposal amends (engine/suber/mechanics.py)

The checks run in order over a copy of the rules' mutability, so ``Transmute rule 101`` followed by
``Amend rule 101: ...`` is one valid proposal. Refused: an unknown or repealed rule, amending or
repealing an immutable rule (103), no mutable rule left (114), more than 25 mutable rules (209, its
parameter mutable_rule_limit, while 209 is in effect), a ``Set`` line naming no declared parameter,
out of its bounds, or without an amendment of its rule in the same proposal, and two rules taking the proposal's number (108 gives each renumbered rule the proposal's number;
two rules cannot share it): a proposal enacts, amends or transmutes at most one rule.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from engine import mechanics as generic
from engine import refusal
from engine.state import RuleVersion
from engine.suber import mechanics
from engine.suber.state import Change, Proposal, SuberRule, SuberState
from engine.suber.events import RulesChanged
from engine.refusal import Refusal

_ENACT = re.compile(r"^enact\s+rule\s*:\s*(.*)$", re.I)
_AMEND = re.compile(r"^amend\s+rule\s+#?(\d{1,9})\s*:\s*(.*)$", re.I)
_BARE = re.compile(r"^(repeal|transmute)\s+rule\s+#?(\d{1,9})\s*\.?$", re.I)
_CHANGE_LIKE = re.compile(r"^(?:(?:enact|amend|repeal|transmute)\s+rule\b|set\b.*=)", re.I)  # meant as a change line
MAX_MUTABLE = 209  # the rule that caps mutable rules (its parameter mutable_rule_limit)
WHAT = "'Enact rule: TEXT', 'Amend rule N: TEXT', 'Repeal rule N', 'Transmute rule N' or 'Set NAME = VALUE'"


class Refused(refusal.Refused):
    """Why a proposal cannot be made."""


@dataclass
class _Draft:
    change: Change
    lines: list[str]


def parse(text: str) -> list[Change]:
    """The change lines of a proposal's body (prose before the first one is not a change)."""
    drafts: list[_Draft] = []
    for raw in text.splitlines():
        line = raw.strip()
        change = _header(line)
        if change is not None:
            drafts.append(_Draft(change, [change.text] if change.text else []))
        elif drafts and drafts[-1].change.kind in ("enact", "amend"):
            drafts[-1].lines.append(raw.rstrip())
        elif _CHANGE_LIKE.match(line):  # a change line meant but not written in form is never prose
            raise Refused(Refusal(f"'{line[:60]}' is not a change line; expected {WHAT}", "103"))
        elif drafts and line:
            raise Refused(Refusal(f"'{line[:60]}' follows '{_head(drafts[-1].change)}', which takes no text", "103"))
    if not drafts:
        raise Refused(Refusal(f"it has no change line ({WHAT}); rule 202: a turn proposes one rule-change", "202"))
    return [_finished(d) for d in drafts]


def _header(line: str) -> Change | None:
    if m := _ENACT.match(line):
        return Change(kind="enact", text=m[1].strip())
    if m := _AMEND.match(line):
        return Change(kind="amend", rule=int(m[1]), text=m[2].strip())
    if m := _BARE.match(line):
        return Change(kind=m[1].lower(), rule=int(m[2]))  # type: ignore[arg-type]
    try:
        setting = mechanics.DECLARED.read_set(line)
    except generic.Refused as refused:
        raise Refused(refused.refusal) from None
    return None if setting is None else Change(kind="set", text=f"{setting.name} = {setting.value}")


def _head(change: Change) -> str:
    return f"Set {change.text}" if change.kind == "set" else f"{change.kind.capitalize()} rule {change.rule}"


def _finished(draft: _Draft) -> Change:
    change = draft.change
    if change.kind == "set":
        return change
    change.text = "\n".join(draft.lines).strip()
    if change.kind in ("enact", "amend") and not change.text:
        raise Refused(Refusal(f"'{change.kind.capitalize()} rule{'' if change.rule is None else f' {change.rule}'}' "
                              "has no text: a rule-change is written down before it is voted on", "106"))
    return change


def check(state: SuberState, changes: list[Change]) -> None:
    """Refuse a change list that may not be proposed (see the module's docstring)."""
    mutable = {r.number: bool(r.mutable) for r in state.rules if not r.repealed}
    renumbered: set[int | None] = set()
    for change in changes:
        if change.kind == "set":
            _check_setting(state, change, changes)
            continue
        _check_one(change, mutable)
        if change.kind != "repeal":
            renumbered.add(change.rule)
    if len(renumbered) > 1:
        raise Refused(Refusal("it would give its number to two rules (rule 108); a proposal may enact, amend or "
                              "transmute one rule (and repeal others)", "108"))
    count = sum(mutable.values()) + sum(c.kind == "enact" for c in changes)
    if count == 0:
        raise Refused(Refusal("there must always be at least one mutable rule", "114"))
    cap = mechanics.value(state, "mutable_rule_limit")
    if mechanics.on(state, MAX_MUTABLE) and count > cap:
        raise Refused(Refusal(f"it would make {count} mutable rules; at most {cap}", str(MAX_MUTABLE)))


def setting(change: Change) -> generic.Setting:
    """A ``Set`` change as read (its text was checked when the proposal was made)."""
    read = mechanics.DECLARED.read_set(f"Set {change.text}")
    assert read is not None
    return read


def _check_setting(state: SuberState, change: Change, changes: list[Change]) -> None:
    """A ``Set`` line needs an amendment of the rule that declares the parameter, in effect."""
    parameter = mechanics.DECLARED.parameter(setting(change).name)
    assert parameter is not None
    rule = mechanics.rule_of(state, int(parameter.rule))
    if rule is None or rule.repealed:
        raise Refused(Refusal(f"'Set {change.text}' sets a parameter of rule {parameter.rule}, which is not in effect",
                              str(parameter.rule)))
    if not any(c.kind == "amend" and c.rule == rule.number for c in changes):
        raise Refused(Refusal(f"'Set {change.text}' changes rule {rule.number}'s text ({parameter.wording!r}): "
                              f"the proposal must also amend it ('Amend rule {rule.number}: TEXT')", str(rule.number)))


def _check_one(change: Change, mutable: dict[int, bool]) -> None:
    if change.rule is None:
        return
    if change.rule not in mutable:
        raise Refused(Refusal(f"there is no rule {change.rule} in effect", ruleless="no such"))
    if change.kind == "transmute":
        mutable[change.rule] = not mutable[change.rule]
    elif not mutable[change.rule]:
        raise Refused(Refusal(f"rule {change.rule} is immutable: only a transmutation, stated explicitly, "
                              "may change it first", "103, 109"))
    elif change.kind == "repeal":
        del mutable[change.rule]


def transmutes_immutable(state: SuberState, changes: list[Change]) -> bool:
    """Rule 109: a transmutation of an immutable rule needs a unanimous vote."""
    return any(c.kind == "transmute" and c.rule is not None and not _mutable(state, c.rule) for c in changes)


def _mutable(state: SuberState, number: int) -> bool:
    rule = state.rule(number)
    return rule is not None and bool(rule.mutable)


def apply(state: SuberState, proposal: Proposal, at: datetime) -> RulesChanged:
    """Rule 205: an adopted proposal's changes take effect when its vote completes; returns the
    event for the caller to emit after the completion's own (the mail tells the result first)."""
    by = f"P{proposal.number}"
    # looked up first: a rule renumbered by one change is still named by its old number in the next
    targets: dict[int | None, SuberRule | None] = {c.rule: state.rule(c.rule) for c in proposal.changes if c.rule}
    for change in proposal.changes:
        if change.kind == "set":
            mechanics.put(state, setting(change))
            continue
        if change.kind == "enact":
            state.rules.append(SuberRule(number=proposal.number, title=proposal.title, text=change.text,
                                         mutable=True, amended_by=[by], enacted_from=proposal.number,
                                         history=[RuleVersion(text=change.text, title=proposal.title,
                                                              by=by, at=at)]))
            continue
        rule = targets.get(change.rule)
        assert rule is not None, "checked when the proposal was made; nothing else changes rules"
        _change(rule, change, proposal.number, by, at)
    return RulesChanged(number=proposal.number, changes=[c.model_dump(mode="json") for c in proposal.changes])


def _change(rule: SuberRule, change: Change, number: int, by: str, at: datetime) -> None:
    if change.kind == "repeal":
        rule.repealed, rule.repealed_from = True, number
    elif change.kind == "transmute":
        rule.mutable = not rule.mutable
    else:
        rule.text = change.text
    if change.kind != "repeal" and rule.number != number:
        rule.formerly.append(rule.number)
        rule.number = number
    rule.amended_by.append(by)
    rule.history.append(RuleVersion(text=rule.text, title=rule.title, by=by, at=at))
