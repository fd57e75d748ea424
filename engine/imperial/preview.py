"""What an Imperial Proposal's change lines would do if TIE accepted it (engine/preview.py), shown
in the answer to it, its announcement and its page: each rule it enacts, amends or repeals as a
diff, the mechanics switched, the variables its ``Set`` lines change. The engine applies every
change line, so nothing is left to apply by hand.

Computed on a copy of the rules, the variables and the player list (rule 1's hook changes the
list), the changes applied as acceptance applies them: the Proposal changes nothing now.
"""
from __future__ import annotations

from engine import preview as shown
from engine.context import Context
from engine.imperial import mechanics, proclamations
from engine.imperial.state import ImperialState, Submission
from engine.preview import RuleView


def of_proposal(state: ImperialState, sub: Submission, ctx: Context) -> list[str]:
    """The preview of a Proposal whose change lines were read on arrival (none: no preview)."""
    if not sub.changes or sub.changes_invalid:
        return []
    return lines(state, proclamations.proposal_changes(sub.text), sub.number, ctx)


def lines(state: ImperialState, changes: list[proclamations.Change], number: int, ctx: Context) -> list[str]:
    after = state.model_copy(update={"rules": [r.model_copy(deep=True) for r in state.rules],
                                     "variables": dict(state.variables),
                                     "variable_history": list(state.variable_history),
                                     "players": list(state.players)})
    proclamations.apply_changes(after, changes, number, "preview", ctx)
    return shown.lines(_views(state), _views(after), dict(state.variables), dict(after.variables), [])


def _views(state: ImperialState) -> dict[int, RuleView]:
    """The rules in force, keyed by number and place among rules of that number (rule 8 is printed twice)."""
    views = {}
    for rule in state.rules:
        if rule.repealed:
            continue
        nth = mechanics.nth_of(state, rule)
        m = mechanics.mechanic(state, rule)
        views[rule.number * 100 + nth] = RuleView(f"rule {rule.number} ({rule.title})", rule.text,
                                                  (m.runs,) if m is not None else ())
    return views
