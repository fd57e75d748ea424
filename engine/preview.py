"""What a rule change would do, shown in the answer to it and in its announcement (issue 28): the
resulting text of each rule it changes as a unified diff, the mechanics it switches on or off, the
parameters it changes (from -> to) and the lines a person must apply by hand.

A ruleset builds the rules as they are (``before``) and as the change would leave them
(``after``), each a mapping from a stable key (the rule's place in the list) to a ``RuleView``;
this module only compares. The diff of one rule is bounded (``MAX_DIFF_LINES``), so a long
amendment cannot make a long answer.
"""
from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass

MAX_DIFF_LINES = 40  # per rule, beyond which the diff is cut with a note
MAX_LINE = 400  # characters of one shown line (a Suber rule is one long line)
INDENT = "    "


@dataclass(frozen=True)
class RuleView:
    """One rule as the preview shows it: its name, its text and the mechanics it runs."""
    label: str
    text: str
    mechanics: tuple[str, ...] = ()


def _cut(line: str) -> str:
    return line if len(line) <= MAX_LINE else line[:MAX_LINE - 1] + "…"


def diff(before: RuleView | None, after: RuleView | None) -> list[str]:
    """The unified diff of one rule's text, headed by its names before and after (bounded)."""
    old = before.text.splitlines() if before else []
    new = after.text.splitlines() if after else []
    source = before.label if before else "(no rule)"
    target = after.label if after else f"{source} (repealed)"
    lines = [_cut(ln) for ln in difflib.unified_diff(old, new, source, target, n=1, lineterm="")]
    if not lines:  # the text is unchanged (a renumbering, a transmutation)
        lines = [f"--- {source}", f"+++ {target}", " (text unchanged)"]
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"({len(lines) - MAX_DIFF_LINES} more lines of diff not shown)"]
    return lines


def lines(before: Mapping[int, RuleView], after: Mapping[int, RuleView],
          params_before: Mapping[str, object], params_after: Mapping[str, object],
          by_hand: list[str]) -> list[str]:
    """The preview, one line per item, each indented to follow an answer line."""
    out: list[str] = []
    mechanics: list[str] = []
    for key in [*before, *(k for k in after if k not in before)]:
        b, a = before.get(key), after.get(key)
        if b == a:
            continue
        out += diff(b, a)
        was, now = set(b.mechanics if b else ()), set(a.mechanics if a else ())
        label = (a or b).label  # type: ignore[union-attr]
        mechanics += [f"switches off {m} ({label})" for m in (b.mechanics if b else ()) if m not in now]
        mechanics += [f"switches on {m} ({label})" for m in (a.mechanics if a else ()) if m not in was]
    params = [f"{name}: {params_before.get(name)} -> {value}" for name, value in params_after.items()
              if params_before.get(name) != value]
    out += ["Mechanics: " + ("; ".join(mechanics) if mechanics else "none changed")]
    out += ["Parameters: " + ("; ".join(params) if params else "none changed")]
    out += ["To apply by hand: " + ("; ".join(_cut(h) for h in by_hand[:10]) if by_hand else "nothing")]
    return [INDENT + ln for ln in out]
