"""BlogNomic's declarations for engine/mechanics.py: the mechanics a rule runs (rules are known
by name) and the numbers in the rules' text, with their defaults, shown as ``"parameters"`` in the
state JSON.

An enacted matter's ``Set NAME = VALUE`` line sets a number (engine/blognomic/changes.py); the
modules that use one read it from the state's ``parameters`` (``value``). Quorum (rule Quorum) is
a formula, not a number.
"""
from __future__ import annotations

from collections.abc import Mapping

from engine.blognomic import tags
from engine.mechanics import Declarations, Mechanic, Parameter, Value, current
from engine.state import Rule

DECLARED = Declarations(
    mechanics=(Mechanic(tags.RULE, "the [Core] and [Appendix] tags a change to those rules needs"),),
    parameters=(
        Parameter("max_pending_proposals", "Proposals", "unless the Pactmaker already has 2 Proposals pending", 2,
                  minimum=1, maximum=100),
        Parameter("max_daily_proposals", "Proposals", "or has already made 3 Proposals that day", 3,
                  minimum=1, maximum=100),
        Parameter("enact_hours", "Resolution of Proposals", "It has been open for voting for at least 12 hours", 12,
                  minimum=0, maximum=24 * 30),
        Parameter("fail_hours", "Votes", "It has been open for voting for at least 48 hours", 48,
                  minimum=0, maximum=24 * 30),
        Parameter("stale_days", "Resolution of Proposals", "pending for more than 7 days, it is ignored", 7,
                  minimum=1, maximum=365),
    ),
)


def mechanics_of(rule: Rule) -> list[str]:
    """What the rule runs now: nothing once repealed."""
    return [] if rule.repealed else [m.runs for m in DECLARED.mechanics if str(m.rule).casefold() == rule.title.casefold()]


def values(stored: Mapping[str, Value]) -> dict[str, Value]:
    """Every parameter with its value now: as an enacted ``Set`` line left it, else the default."""
    return current(DECLARED, dict(stored))


def value(stored: Mapping[str, Value], name: str) -> int:
    """A whole-number parameter's value now."""
    return int(values(stored)[name])
