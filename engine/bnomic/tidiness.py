"""Tidiness Lists (3-9): a Player's list of trivial errors in the rules with their corrections,
taking place without objection after five ndays (a dependent action, actions.py); he gains a
point for every three errors corrected.

Each line is ``Rule RULE: "WRONG" -> "RIGHT"``, one error, corrected at the first occurrence of
WRONG in the rule, case-sensitive, any run of whitespace matching any run (Reading 42); a line
whose text is not there when the list takes place corrects nothing."""
from __future__ import annotations

import re

from engine.bnomic import changes, points
from engine.bnomic.state import Action, BNomicState, Correction
from engine.context import Context
from engine.state import RuleVersion
from engine.wording import counted

LINE = re.compile(r'^rule\s+(\d{1,6}(?:-\d{1,6})?|"[^"]{1,200}")\s*:\s*"(.+?)"\s*->\s*"(.*)"$', re.I)
MAX_LINES = 100
PER_POINT = 3  # errors corrected per point


def read(state: BNomicState, text: str) -> list[Correction] | str:
    """The list's corrections, or why it is refused (a line not in the form, a rule that does not exist)."""
    lines = [ln.strip() for ln in text.replace("\r\n", "\n").split("\n") if ln.strip()]
    if not lines:
        return 'a Tidiness List has lines like: Rule 2-5: "teh" -> "the"'
    if len(lines) > MAX_LINES:
        return f"a Tidiness List has at most {MAX_LINES} lines"
    out = []
    for n, line in enumerate(lines, 1):
        m = LINE.match(line)
        if m is None or not m[2].strip():
            return f'line {n}, {line[:80]!r}, is not like: Rule 2-5: "teh" -> "the"'
        try:
            changes.rule_named(state, m[1])
        except changes.Refused as why:
            return f"line {n}: {why}"
        out.append(Correction(rule=m[1], wrong=m[2], right=m[3]))
    return out


def occur(state: BNomicState, a: Action, ctx: Context) -> str:
    """The corrections take place; the submitter gains a point per three corrected, if still a Player."""
    done = sum(_correct(state, c, f"Tidiness List A{a.number}", ctx) for c in a.corrections)
    player = state.player(a.by)
    gained = done // PER_POINT
    if player is not None and gained:
        points.gain(state, player, gained, f"Tidiness List A{a.number}: {counted(done, 'error')} corrected (3-9)",
                    ctx)
    return f"{counted(done, 'error')} of {len(a.corrections)} corrected; {counted(gained, 'point')} (3-9)"


def _correct(state: BNomicState, c: Correction, by: str, ctx: Context) -> bool:
    try:
        rule = changes.rule_named(state, c.rule)
    except changes.Refused:
        return False
    found = re.search(r"\s+".join(re.escape(word) for word in c.wrong.split()), rule.text)
    if found is None:
        return False
    rule.text = rule.text[:found.start()] + c.right + rule.text[found.end():]
    rule.amended_by.append(by)
    rule.history.append(RuleVersion(text=rule.text, title=rule.title, by=by, at=ctx.at))
    return True
