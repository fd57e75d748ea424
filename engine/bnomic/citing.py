"""A reason a B Nomic helper wrote as text, as a refusal citing its rule.

Helpers that read a command's parts (a Blueprint, a Tidiness List, a Faction's parties, a step of
the Procedure) say why they cannot in words, with the bare citation B Nomic's rules use ("the name
Zed is taken (1-4)"). ``cited`` makes that trailing citation the refusal's rule, or the rule the
reason names ("(rule 6-5: ...)"), or else cites the rule of the command the reason refuses.
"""
from __future__ import annotations

import re

from engine.refusal import Refusal

_BARE = re.compile(r"\s*\((\d+-\d+(?:, \d+-\d+)*|Rule 0)\)$")
_NAMED = re.compile(r"\(rule (\d+-\d+)\b")  # "(rule 6-5: each Player who is a Minister gains m50)"


def cited(why: str, rule: str) -> Refusal:
    """``why`` refused under its own trailing citation if it ends in one, or the rule it names in
    parentheses, else under ``rule``."""
    m = _BARE.search(why)
    if m is not None:
        return Refusal(why[:m.start()], "0" if m[1] == "Rule 0" else m[1])
    named = _NAMED.search(why)
    return Refusal(why, named[1] if named else rule)
