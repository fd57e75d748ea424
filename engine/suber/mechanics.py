"""Suber's declarations for engine/mechanics.py: what each rule runs and the parameters a proposal
may ``Set`` (CONTRACT.md), and the switch ``on`` every mechanic asks first.

A rule keeps its mechanics when an amendment or a transmutation renumbers it (rule 108): it is
known by its number in the Initial Set (``key``), so the amended rule 203, now 301, still decides
adoption. A ``Set`` line changes a parameter only beside an amendment of the rule that declares it
(rule 103: a rule-change is an enactment, repeal or amendment of a rule; the number is the rule's
text), and takes effect when the vote adopts the proposal (205).

``adoption`` is kept as the state's ``unanimity`` (which CONTRACT.md's state JSON shows), so that
rule 203's automatic change and a ``Set`` line change one value. A command whose rule is repealed
(Judgment's 212, the Call for Action's 305) is refused naming the rule (``refusal``).
"""
from __future__ import annotations

from datetime import datetime

from engine import preview as shown
from engine.mechanics import Declarations, Mechanic, Parameter, Setting, Value, current
from engine.preview import RuleView
from engine.suber.state import Proposal, SuberRule, SuberState
from engine.refusal import Refusal

DECLARED = Declarations(
    mechanics=(
        Mechanic(201, "the turn passing to the next player in alphabetical order by surname"),
        Mechanic(202, "points to the proposer when the vote completes"),
        Mechanic(203, "the change to a simple majority at the end of the second circuit"),
        Mechanic(204, "points to those who voted against an adopted proposal"),
        Mechanic(205, "an adopted rule-change in full effect before the points its completion brings"),
        Mechanic(206, "the loss of points for a defeated proposal"),
        Mechanic(207, "one vote each, never changed"),
        Mechanic(208, "the win on reaching the winning score"),
        Mechanic(209, "the limit on mutable rules"),
        Mechanic(212, "Judgment: the Judge, overruling and consent to the next turn"),
        Mechanic(213, "a Judge's rule 213 finding ending the game"),
        Mechanic(305, "the Call for Action"),
    ),
    parameters=(
        Parameter("points_offset", 202, "subtract 291 from the ordinal number of their proposal", 291,
                  minimum=0, maximum=1_000_000),
        Parameter("adoption", 203, "the vote is unanimous among the eligible voters ... a simple majority",
                  "unanimity", choices=("unanimity", "majority")),
        Parameter("dissent_bonus", 204, "the players who vote against winning proposals shall receive 10 "
                  "points each", 10, minimum=0, maximum=1_000_000),
        Parameter("defeat_penalty", 206, "the player who proposed it loses 10 points", 10,
                  minimum=0, maximum=1_000_000),
        Parameter("win_score", 208, "In mail and computer games, the winner is the first player to achieve "
                  "200 (positive) points (overriding the first paragraph's 100)", 200, minimum=1, maximum=1_000_000),
        Parameter("mutable_rule_limit", 209, "At no time may there be more than 25 mutable rules", 25,
                  minimum=1, maximum=1_000),
    ),
)


# the rule whose mechanic a command is
COMMAND_RULES = {"invoke_judgment": 212, "judgment": 212, "overrule": 212, "consent": 212, "call_for_action": 305,
                 "skip_vote": 305}


def key(rule: SuberRule) -> int:
    """The rule's number in the Initial Set, or when enacted (rule 108 renumbers; ``formerly``)."""
    return rule.formerly[0] if rule.formerly else rule.number


def rule_of(state: SuberState, original: int) -> SuberRule | None:
    """The rule first numbered ``original``, under whatever number it has now."""
    return next((r for r in state.rules if key(r) == original), None)


def on(state: SuberState, original: int) -> bool:
    """Does the rule first numbered ``original`` run its mechanics (it is in effect)?"""
    rule = rule_of(state, original)
    return rule is not None and not rule.repealed


def refusal(state: SuberState, kind: str) -> Refusal | None:
    """Why a command cannot be given: its rule is repealed (None: it can, or it is no rule's)."""
    rule = COMMAND_RULES.get(kind)
    if rule is None or on(state, rule) or rule_of(state, rule) is None:
        return None  # a rule the game never had is the command's own business (305: calls.py)
    return Refusal(f"rule {rule} is repealed: nothing runs it", str(rule))


def automatic_change(state: SuberState) -> bool:
    """Rule 203's own change to a simple majority: "If this rule is not amended" (renumbered, 108)."""
    rule = state.rule(203)
    return rule is not None and not rule.repealed


def mechanics_of(rule: SuberRule) -> list[str]:
    """What the rule runs now: nothing once repealed; rule 203 amended no longer changes itself."""
    if rule.repealed or (key(rule) == 203 and rule.formerly):
        return []
    return [m.runs for m in DECLARED.of(key(rule))]


def values(state: SuberState) -> dict[str, Value]:
    """Every parameter with its value now."""
    return {**current(DECLARED, state.parameters), "adoption": "unanimity" if state.unanimity else "majority"}


def value(state: SuberState, name: str) -> int:
    """A whole-number parameter's value now."""
    return int(values(state)[name])


def put(state: SuberState, setting: Setting) -> None:
    """An adopted ``Set`` line takes effect."""
    if setting.name == "adoption":
        state.unanimity = setting.value == "unanimity"
    else:
        state.parameters[setting.name] = setting.value


def preview(state: SuberState, proposal: Proposal, at: datetime) -> list[str]:
    """What adopting ``proposal`` would do (engine/preview.py), computed on a copy of the rules and
    parameters. Every change line is applied by the engine: nothing is left to apply by hand."""
    from engine.suber import changes  # changes imports this module
    after = state.model_copy(update={"rules": [r.model_copy(deep=True) for r in state.rules],
                                     "parameters": dict(state.parameters), "unanimity": state.unanimity})
    changes.apply(after, proposal, at)
    return shown.lines(_views(state), _views(after), values(state), values(after), [])


def _views(state: SuberState) -> dict[int, RuleView]:
    """The rules in effect, by their place in the list (an amendment keeps it, an enactment appends)."""
    return {i: RuleView(_label(r), r.text, tuple(mechanics_of(r))) for i, r in enumerate(state.rules) if not r.repealed}


def _label(rule: SuberRule) -> str:
    was = f" (formerly {', '.join(map(str, rule.formerly))})" if rule.formerly else ""
    return f"rule {rule.number}{was}"
