"""Reading the ruleset text into numbered rules with their "amended by" history."""
from __future__ import annotations

import re

from engine.state import Rule, RuleVersion

_HEADER = re.compile(r"^\s*(\d+)\.\s*(.*)$", re.S)
_AMENDED = re.compile(r"^(?:amended by:\s*)?((?:P?\d+)(?:\s*,\s*P?\d+)*)$", re.I)


def _history(token: str) -> list[str]:
    """'P7, 36' -> ['P7', 'P36']: every amendment named as the proposal that made it."""
    return ["P" + t.strip().lstrip("Pp") for t in token.split(",") if t.strip()]


def parse_rules(text: str) -> list[Rule]:
    """Split the Imperial Nomic text: 'N. Title [newline amended-by] |' then 'body |'."""
    parts = [p.strip() for p in text.split("|")]
    rules: list[Rule] = []
    for header, body in zip(parts[0::2], parts[1::2]):
        m = _HEADER.match(header)
        if not m:
            continue
        lines = m.group(2).strip().splitlines()
        title = lines[0].strip()
        amended: list[str] = []
        for extra in lines[1:]:
            am = _AMENDED.match(extra.strip())
            if am:
                amended += _history(am.group(1))
        rules.append(Rule(number=int(m.group(1)), title=title, text=body, amended_by=amended,
                          history=[RuleVersion(text=body, title=title)]))
    return rules
