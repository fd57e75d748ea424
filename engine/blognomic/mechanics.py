"""BlogNomic's declarations for engine/mechanics.py: the mechanics a rule runs (rules are known
by name) and the numbers in the rules' text, with their defaults, shown as ``"parameters"`` in the
state JSON.

The numbers are still the constants of the modules that use them (submissions.py's limits,
conditions.py's windows); a ``Set`` line in a matter is not yet read as a change (it is prose for
an Admin), so they keep their defaults. Quorum (rule Quorum) is a formula, not a number.
"""
from __future__ import annotations

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
        Parameter("enact_hours", "Enacting and Failing", "It has been open for voting for at least 12 hours", 12,
                  minimum=0, maximum=24 * 30),
        Parameter("fail_hours", "Enacting and Failing", "It has been open for voting for at least 48 hours", 48,
                  minimum=0, maximum=24 * 30),
        Parameter("stale_days", "Proposals", "pending for more than 7 days, it is ignored", 7,
                  minimum=1, maximum=365),
    ),
)


def mechanics_of(rule: Rule) -> list[str]:
    """What the rule runs now: nothing once repealed."""
    return [] if rule.repealed else [m.runs for m in DECLARED.mechanics if str(m.rule).casefold() == rule.title.casefold()]


def values() -> dict[str, Value]:
    """Every parameter with its value now (the defaults: no ``Set`` line is applied yet)."""
    return current(DECLARED, {})
