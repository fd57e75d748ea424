"""Rules 3 and 7: rule changes, by TIE's Proclamations and by accepted Proposals, on one code path.

A change list is a list of lines, each change starting on its own line
(case-insensitive):

    Enact rule 23: TITLE      the following lines, up to the next change, are its text
    Amend rule 12[: TITLE]    the following lines are the rule's new text
    Repeal rule 20            switches the rule's mechanics off (engine/imperial/mechanics.py)
    Set accept_points = 4     a game variable (engine/imperial/variables.py)
    From submission 5         rule 7's "unless it specifies otherwise" (Proclamations only)

The ruleset prints two rules 8; ``Amend rule 8 (Winning the Game)`` and
``Repeal rule 8 (Winning the Game)`` name one of several rules with the same
number by its title in brackets (without it, the first).

A Proclamation's body is nothing but a change list: any other line, an unknown
rule or variable, or an empty text refuses the whole Proclamation. It takes no
submission number and governs every submission numbered from the next free
number on (``from_number``), unless a ``From submission N`` line says otherwise.

A Proposal is a rule change too (rule 3): after its prose, its body may hold a
change list, from the first change line to the end. It is read when the
Proposal arrives (``Submission.changes``, or ``changes_invalid`` with the line
and the reason) and applied, all or nothing, when TIE accepts it, before it is
scored: rule 7, it governs every submission numbered at or above its own that
is decided from then on, itself included; a rule it changes is amended by
``P<number>``. Requests and ``Area:`` lines belong before the change lines (a
line after ``Enact``/``Amend`` is rule text).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from engine.imperial.commands import ProclamationCmd
from engine.context import Context
from engine.events import Cause
from engine.imperial import mechanics
from engine.imperial.variables import MINIMUM
from engine.inputs import Message
from engine.state import Rule, RuleVersion
from engine.imperial.state import ImperialState, Proclamation, Submission, VariableChange
from engine.imperial.steps import Outcome
from engine.imperial.events import Amended, Proclaimed
from engine import refusal
from engine.refusal import Refusal

_RULE = r"rule\s+(\d{1,9})\s*(?:\(\s*([^)]*?)\s*\))?"
_ENACT = re.compile(r"^enact\s+rule\s+(\d{1,9})\s*:\s*(.+)$", re.I)
_AMEND = re.compile(rf"^amend\s+{_RULE}\s*(?::\s*(.*))?$", re.I)
_REPEAL = re.compile(rf"^repeal\s+{_RULE}\s*$", re.I)
_SET = re.compile(r"^set\s+([a-z_]+)\s*=\s*(-?\d{1,9})\s*$", re.I)
_FROM = re.compile(r"^from\s+submission\s+#?(\d{1,9})\s*$", re.I)
_CHANGE_LIKE = re.compile(r"^(enact|amend|repeal)\s+rule\b", re.I)  # meant as a change line
_WHAT = "'Enact rule N: TITLE', 'Amend rule N', 'Repeal rule N' or 'Set NAME = VALUE'"


class Refused(refusal.Refused):
    """Why a change list changes nothing."""


@dataclass
class Change:
    op: str  # enact | amend | repeal | set | from
    target: str  # rule number or variable name
    title: str = ""
    which: str = ""  # the title naming one of several rules with this number
    lines: list[str] = field(default_factory=list)
    amount: int = 0

    @property
    def text(self) -> str:
        return "\n".join(self.lines).strip()


def parse(text: str) -> list[Change]:
    """A Proclamation's body: every non-blank line belongs to a change."""
    changes: list[Change] = []
    for raw in text.splitlines():
        line = raw.strip()
        change = _header(line)
        if change is not None:
            changes.append(change)
        elif changes and changes[-1].op in ("enact", "amend"):
            changes[-1].lines.append(raw.rstrip())
        elif line:
            raise Refused(Refusal(f"{line!r} is not {_WHAT}", "3"))
    if not [c for c in changes if c.op != "from"]:
        raise Refused(Refusal(f"it changes nothing (write {_WHAT} lines)", "3"))
    return changes


def proposal_changes(text: str) -> list[Change]:
    """A Proposal's change list: from its first change line to the end (none: an empty list)."""
    lines = text.splitlines()
    start = next((i for i, raw in enumerate(lines) if _header(raw.strip()) is not None), None)
    malformed = next((raw.strip() for raw in lines[:start] if _CHANGE_LIKE.match(raw.strip())), None)
    if malformed is not None:  # a change line meant but not written in form is refused, never read as prose
        raise Refused(Refusal(f"{malformed!r} is not {_WHAT}", "3"))
    if start is None:
        return []
    changes = parse("\n".join(lines[start:]))
    if any(c.op == "from" for c in changes):
        raise Refused(Refusal("a Proposal applies from its own number on (rule 7): 'From submission N' "
                              "is for Proclamations", "7"))
    return changes


def _header(line: str) -> Change | None:
    if m := _ENACT.match(line):
        return Change("enact", m[1], title=m[2].strip())
    if m := _AMEND.match(line):
        return Change("amend", m[1], which=m[2] or "", title=(m[3] or "").strip())
    if m := _REPEAL.match(line):
        return Change("repeal", m[1], which=m[2] or "")
    if m := _SET.match(line):
        return Change("set", m[1].lower(), amount=int(m[2]))
    if m := _FROM.match(line):
        return Change("from", "", amount=int(m[1]))
    return None


def _key(title: str) -> str:
    return " ".join(title.lower().split())


def _target(state: ImperialState, change: Change) -> Rule | None:
    """The rule a change acts on: for an enactment, a repealed rule to bring back (or None: a new one)."""
    same = [r for r in state.rules if r.number == int(change.target)]
    if change.op == "enact":
        titled = next((r for r in same if _key(r.title) == _key(change.title)), None)
        if (titled is not None and not titled.repealed) or (titled is None and any(not r.repealed for r in same)):
            raise Refused(Refusal(f"rule {change.target} exists; amend it instead", "3"))
        return titled or next((r for r in same if r.repealed), None)
    named = [r for r in same if _key(r.title) == _key(change.which)] if change.which else same[:1]
    if not named or named[0].repealed:
        which = f" ({change.which})" if change.which else ""
        raise Refused(Refusal(f"there is no rule {change.target}{which} in force", ruleless="no such"))
    return named[0]


def check(state: ImperialState, change: Change) -> None:
    """Refuse a change that cannot be made to the game as it stands."""
    if change.op == "from":
        if change.amount < 1:
            raise Refused(Refusal("submissions are numbered from 1", "7"))
        return
    if change.op == "set":
        if change.target not in state.variables:
            raise Refused(Refusal(f"there is no game variable {change.target!r} "
                                  f"(known: {', '.join(sorted(state.variables))})", ruleless="no such"))
        least = MINIMUM.get(change.target, 0)
        if change.amount < least:
            raise Refused(Refusal(f"{change.target} cannot be less than {least}", ruleless="house"))
        return
    _target(state, change)
    if change.op in ("enact", "amend") and not change.text:
        raise Refused(Refusal(f"{change.op} rule {change.target} has no text", "3"))


def describe(state: ImperialState, change: Change) -> str:
    """How a change was read, for the answer, the announcement and the site."""
    if change.op == "set":
        return f"set {change.target} = {change.amount} (now {state.variables[change.target]})"
    if change.op == "enact":
        return f"enact rule {change.target}: {change.title} ({_lines(change)})"
    rule = _target(state, change)
    assert rule is not None
    if change.op == "repeal":
        return f"repeal rule {rule.number} ({rule.title})"
    title = f", retitled {change.title!r}" if change.title else ""
    return f"amend rule {rule.number} ({rule.title}){title}: {_lines(change)}"


def _lines(change: Change) -> str:
    n = len(change.text.splitlines())
    return f"{n} line{'s' if n != 1 else ''} of text"


def apply_changes(state: ImperialState, changes: list[Change], from_number: int, by: str,
                  ctx: Context) -> list[str]:
    """Check every change, then make them all (all or nothing); returns what each did."""
    for change in changes:
        check(state, change)
    return [_apply(state, change, from_number, by, ctx) for change in changes if change.op != "from"]


def proclaim(state: ImperialState, msg: Message, cmd: ProclamationCmd, ctx: Context) -> None:
    try:
        changes = parse(cmd.text)
        for change in changes:
            check(state, change)
    except Refused as why:
        ctx.refuse(cmd.line, replace(why.refusal, why=f"Proclamation refused: {why.refusal.why}"), "nothing changed")
        return
    start = [c.amount for c in changes if c.op == "from"]
    proc = Proclamation(number=len(state.proclamations) + 1, title=cmd.title, text=cmd.text,
                        at=ctx.at, day=state.game_day,
                        from_number=start[-1] if start else len(state.submissions) + 1)
    by = f"Proclamation {proc.number}"
    with ctx.because(Cause("proclamation", proc.number)):
        proc.changes = apply_changes(state, changes, proc.from_number, by, ctx)
        state.proclamations.append(proc)
        ctx.emit(Proclaimed(number=proc.number, title=proc.title, from_number=proc.from_number,
                            changes=proc.changes))
    ctx.say(cmd.line, f"{by} ({proc.title}) applies to submissions from {proc.from_number} on: "
            + "; ".join(proc.changes))


def read_proposal(state: ImperialState, sub: Submission) -> str | None:
    """On arrival: record how a Proposal's change lines read; returns the answer's phrase."""
    try:
        changes = proposal_changes(sub.text)
        for change in changes:
            check(state, change)
        sub.changes = [describe(state, c) for c in changes]
    except Refused as why:
        sub.changes, sub.changes_invalid = [], why.refusal.why
        return f"its rule changes cannot be read: {why}; accepted, it would change no rule"
    if not changes:
        return None
    return "if accepted it will " + "; ".join(sub.changes) + " (rule 7: from this Proposal on)"


def enact_proposal(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    """Accepted: the Proposal's changes apply, all or nothing, before it is scored (rule 7)."""
    if out.verdict != "accept" or out.prejudice or sub.changes_invalid:
        return
    try:
        changes = proposal_changes(sub.text)
        done = apply_changes(state, changes, sub.number, f"P{sub.number}", ctx)
    except Refused as why:
        out.notes.append(f"its rule changes do not take effect: {why}")
        return
    if done:
        ctx.emit(Amended(number=sub.number, changes=done))
        out.notes.append("rule changes: " + "; ".join(done))


def _apply(state: ImperialState, change: Change, from_number: int, by: str, ctx: Context) -> str:
    if change.op == "set":
        old = state.variables[change.target]
        state.variables[change.target] = change.amount
        state.variable_history.append(VariableChange(name=change.target, old=old, new=change.amount,
                                                     from_number=from_number, by=by))
        return f"{change.target} {old} -> {change.amount}"
    rule = _target(state, change)
    if rule is None:
        rule = Rule(number=int(change.target), title=change.title, text="")
        state.rules.append(rule)
        state.rules.sort(key=lambda r: r.number)
    if change.op == "repeal":
        rule.repealed, rule.repealed_from = True, from_number
        rule.amended_by.append(by)
        return f"rule {rule.number} ({rule.title}) repealed" + mechanics.switched(state, rule, False, ctx)
    revived = change.op == "enact"
    if revived:
        rule.repealed, rule.repealed_from, rule.enacted_from = False, None, from_number
    rule.title = change.title or rule.title
    rule.text = change.text
    rule.amended_by.append(by)
    rule.history.append(RuleVersion(text=rule.text, title=rule.title, by=by, at=ctx.at))
    if revived:
        return f"rule {rule.number} enacted" + mechanics.switched(state, rule, True, ctx)
    return f"rule {rule.number} amended"
