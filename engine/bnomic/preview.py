"""What a B Nomic proposal would do to the rules if it Passed (engine/preview.py), shown in the
answer to it, its announcement and its page: each rule it enacts, amends, repeals, renames or
renumbers as a diff, the mechanics switched, the parameters its ``Set`` lines change, and its prose,
which the Chairman applies by hand (``Apply N:``). Its other change lines (points, mackerel, ...)
are applied by the program and are no rule change.

Computed on a copy of the rules and parameters, the change lines applied in order, each that can
(as 2-2 applies them): the proposal changes nothing now.
"""
from __future__ import annotations

from engine import preview as shown
from engine.bnomic import changes, mechanics
from engine.bnomic.state import BNomicState, BRule, Proposal
from engine.context import Context
from engine.preview import RuleView

RULE_KINDS = frozenset({"enact", "amend", "repeal", "rename", "renumber", "set"})


def changes_rules(p: Proposal) -> bool:
    """Does the proposal carry a rule change or a ``Set`` line?"""
    return any(c.kind in RULE_KINDS for c in p.changes)


def lines(state: BNomicState, p: Proposal, ctx: Context) -> list[str]:
    after = state.model_copy(update={"rules": [r.model_copy(deep=True) for r in state.rules],
                                     "parameters": dict(state.parameters)})
    for c in p.changes:
        if c.kind in RULE_KINDS:
            try:
                changes.apply(after, c, "preview", ctx)
            except changes.Refused:
                continue  # skipped when it Passes too, if it still cannot apply then
    return shown.lines(_views(state), _views(after), mechanics.values(state), mechanics.values(after),
                       changes.prose(p.body))


def _views(state: BNomicState) -> dict[int, RuleView]:
    """The rules in force, by their place in the list (an enactment appends)."""
    return {i: RuleView(_label(r), r.text, tuple(mechanics.mechanics_of(r)))
            for i, r in enumerate(state.rules) if not r.repealed}


def _label(r: BRule) -> str:
    return f"rule {r.label or '(unnumbered)'}" + (f" ({r.title})" if r.title else "")
