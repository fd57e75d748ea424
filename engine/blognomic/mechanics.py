"""BlogNomic's declarations for engine/mechanics.py: the mechanics a rule runs (rules are known
by name) and the numbers in the rules' text, with their defaults, shown as ``"parameters"`` in the
state JSON.

The numbers are still the constants of the modules that use them (submissions.py's limits,
conditions.py's windows); a ``Set`` line in a matter is not yet read as a change (it is prose for
an Admin), so they keep their defaults. Quorum (rule Quorum) is a formula, not a number.
"""
from __future__ import annotations

from datetime import datetime

from engine import preview as shown
from engine.blognomic import changes, tags
from engine.blognomic.state import VotableMatter
from engine.mechanics import Declarations, Mechanic, Parameter, Value, current
from engine.preview import RuleView
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


def values() -> dict[str, Value]:
    """Every parameter with its value now (the defaults: no ``Set`` line is applied yet)."""
    return current(DECLARED, {})


def preview(rules: list[Rule], m: VotableMatter, at: datetime) -> list[str]:
    """What enacting ``m`` would do to ``rules`` (engine/preview.py), on a copy; its prose is what
    an Admin must apply by hand."""
    after = [r.model_copy(deep=True) for r in rules]
    changes.apply(after, m.changes, "preview", at, m.title)
    return shown.lines(_views(rules), _views(after), values(), values(), changes.prose(m.text))


def _views(rules: list[Rule]) -> dict[int, RuleView]:
    return {i: RuleView(f'rule "{r.title}" ({r.section})', r.text, tuple(mechanics_of(r)))
            for i, r in enumerate(rules) if not r.repealed}
