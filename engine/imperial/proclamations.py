"""Rule 3: TIE's Proclamations enact, amend and repeal rules and set game variables.

The body of a ``Proclamation: TITLE`` mail is a list of changes, each starting
on its own line (case-insensitive):

    Enact rule 23: TITLE      the following lines, up to the next change, are its text
    Amend rule 12[: TITLE]    the following lines are the rule's new text
    Repeal rule 20            switches the rule's mechanics off
    Set accept_points = 4     a game variable (engine/imperial/variables.py)
    From submission 5         rule 7's "unless it specifies otherwise": applies from 5 on

Any other line before the first change, an unknown rule or variable, or an
empty text refuses the whole Proclamation: nothing changes. Rule 7: a
Proclamation takes no submission number; it governs every submission numbered
from the next free number on (``from_number``), and pending ones keep the
rules they were submitted under, unless a ``From submission N`` line says
otherwise (a decided submission is never decided again).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.commands import ProclamationCmd
from engine.context import Context
from engine.imperial.variables import MINIMUM
from engine.inputs import Message
from engine.state import GameState, Proclamation, Rule, RuleVersion, VariableChange

_ENACT = re.compile(r"^enact\s+rule\s+(\d{1,9})\s*:\s*(.+)$", re.I)
_AMEND = re.compile(r"^amend\s+rule\s+(\d{1,9})\s*(?::\s*(.*))?$", re.I)
_REPEAL = re.compile(r"^repeal\s+rule\s+(\d{1,9})\s*$", re.I)
_SET = re.compile(r"^set\s+([a-z_]+)\s*=\s*(-?\d{1,9})\s*$", re.I)
_FROM = re.compile(r"^from\s+submission\s+#?(\d{1,9})\s*$", re.I)


class Refused(Exception):
    """Why a Proclamation changes nothing."""


@dataclass
class Change:
    op: str  # enact | amend | repeal | set | from
    target: str  # rule number or variable name
    title: str = ""
    lines: list[str] = field(default_factory=list)
    amount: int = 0

    @property
    def text(self) -> str:
        return "\n".join(self.lines).strip()


def parse(text: str) -> list[Change]:
    changes: list[Change] = []
    for raw in text.splitlines():
        line = raw.strip()
        change = _header(line)
        if change is not None:
            changes.append(change)
        elif changes and changes[-1].op in ("enact", "amend"):
            changes[-1].lines.append(raw.rstrip())
        elif line:
            raise Refused(f"{line!r} is not 'Enact rule N: TITLE', 'Amend rule N', "
                          "'Repeal rule N' or 'Set NAME = VALUE'")
    if not [c for c in changes if c.op != "from"]:
        raise Refused("it changes nothing (write 'Enact rule N: TITLE', 'Amend rule N', "
                      "'Repeal rule N' or 'Set NAME = VALUE' lines)")
    return changes


def _header(line: str) -> Change | None:
    if m := _ENACT.match(line):
        return Change("enact", m[1], title=m[2].strip())
    if m := _AMEND.match(line):
        return Change("amend", m[1], title=(m[2] or "").strip())
    if m := _REPEAL.match(line):
        return Change("repeal", m[1])
    if m := _SET.match(line):
        return Change("set", m[1].lower(), amount=int(m[2]))
    if m := _FROM.match(line):
        return Change("from", "", amount=int(m[1]))
    return None


def _check(state: GameState, change: Change) -> None:
    if change.op == "from":
        if change.amount < 1:
            raise Refused("submissions are numbered from 1")
        return
    if change.op == "set":
        if change.target not in state.variables:
            raise Refused(f"there is no game variable {change.target!r} "
                          f"(known: {', '.join(sorted(state.variables))})")
        least = MINIMUM.get(change.target, 0)
        if change.amount < least:
            raise Refused(f"{change.target} cannot be less than {least}")
        return
    rule = state.rule(int(change.target))
    live = rule is not None and not rule.repealed
    if change.op == "enact" and live:
        raise Refused(f"rule {change.target} exists; amend it instead")
    if change.op in ("amend", "repeal") and not live:
        raise Refused(f"there is no rule {change.target} in force")
    if change.op in ("enact", "amend") and not change.text:
        raise Refused(f"{change.op} rule {change.target} has no text")


def proclaim(state: GameState, msg: Message, cmd: ProclamationCmd, ctx: Context) -> None:
    try:
        changes = parse(cmd.text)
        for change in changes:
            _check(state, change)
    except Refused as why:
        ctx.say(cmd.line, f"Proclamation refused: {why}; nothing changed", ok=False)
        return
    start = [c.amount for c in changes if c.op == "from"]
    proc = Proclamation(number=len(state.proclamations) + 1, title=cmd.title, text=cmd.text,
                        at=ctx.at, day=state.game_day,
                        from_number=start[-1] if start else len(state.submissions) + 1)
    by = f"Proclamation {proc.number}"
    proc.changes = [_apply(state, change, proc, by, ctx) for change in changes if change.op != "from"]
    state.proclamations.append(proc)
    ctx.emit("proclamation", number=proc.number, title=proc.title, from_number=proc.from_number,
             changes=proc.changes)
    ctx.say(cmd.line, f"{by} ({proc.title}) applies to submissions from {proc.from_number} on: "
            + "; ".join(proc.changes))


def _apply(state: GameState, change: Change, proc: Proclamation, by: str, ctx: Context) -> str:
    if change.op == "set":
        old = state.variables[change.target]
        state.variables[change.target] = change.amount
        state.variable_history.append(VariableChange(name=change.target, old=old, new=change.amount,
                                                     from_number=proc.from_number, by=by))
        return f"{change.target} {old} -> {change.amount}"
    number = int(change.target)
    rule = state.rule(number)
    if rule is None:
        rule = Rule(number=number, title=change.title, text="")
        state.rules.append(rule)
        state.rules.sort(key=lambda r: r.number)
    if change.op == "repeal":
        rule.repealed, rule.repealed_from = True, proc.from_number
        rule.amended_by.append(by)
        return f"rule {number} repealed"
    if change.op == "enact":
        rule.repealed, rule.repealed_from, rule.enacted_from = False, None, proc.from_number
    rule.title = change.title or rule.title
    rule.text = change.text
    rule.amended_by.append(by)
    rule.history.append(RuleVersion(text=rule.text, title=rule.title, by=by, at=ctx.at))
    return f"rule {number} {'enacted' if change.op == 'enact' else 'amended'}"
