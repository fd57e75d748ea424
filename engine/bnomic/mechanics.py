"""B Nomic's declarations for engine/mechanics.py: what each rule runs, the numbers in its text a
Proposal may ``Set`` (CONTRACT.md "Rules that change by Proposal"), and the switch ``on`` every
mechanic asks first, so that a repealed rule runs nothing.

A rule is known by its number in the ruleset as printed (``key``): a renumbering (1-8, or a
``Renumber rule`` change line) keeps its mechanics, the old numbers kept in ``formerly``. A rule
enacted under a number whose rule was repealed runs that number's mechanics again, as an Imperial
re-enactment does. The rules that frame play (2-1's Clock, 2-2's Proposals and Voting, 2-8 and
2-9's dependent actions, 6-1 to 6-3's Ministries) and Rule 0 (the Emergency, the game's way out of a
state no rule can mend) are not switched: without them no change could pass at all
(docs/rulings-bnomic.md). A command whose rule is repealed is refused naming the rule;
leaving the game (``Forfeit``) never is (1-3: the Rules do not regulate External Forces).

A ``Set NAME = VALUE`` line in a Proposal's Body sets a parameter when the Proposal Passes, in its
place among the other change lines; it is refused on arrival when NAME is not declared or VALUE
out of bounds.
"""
from __future__ import annotations

from engine.bnomic.state import BNomicState, BRule
from engine.commands import Cmd
from engine.mechanics import Declarations, Mechanic, Parameter, Setting, Value, current
from engine.refusal import Refusal

DECLARED = Declarations(
    mechanics=(
        Mechanic("1-4", "joining, name changes and expulsion"),
        Mechanic("1-8", "the Rulekeeper's numbers and sections"),
        Mechanic("1-10", "actions announced for a later time and repeated actions"),
        Mechanic("1-16", "Transactions"),
        Mechanic("2-3", "Victory Conditions Fulfilled, reset at the end of each nweek"),
        Mechanic("2-5", "Consultations, their Priests, claims and Pondering"),
        Mechanic("2-6", "points when a proposal becomes Historical"),
        Mechanic("2-7", "Vote Power 1 (0 after an Allegiance) at Ballotday"),
        Mechanic("2-11", "Hit Points recovering 1 at each nday's start"),
        Mechanic("3-5", "Active Players at the beginning of each nweek"),
        Mechanic("3-9", "Tidiness Lists"),
        Mechanic("3-10", "gifts of currency"),
        Mechanic("3-11", "exchanging points for mackerel"),
        Mechanic("3-12", "giving and destroying devices"),
        Mechanic("3-14", "blueprints, buying devices and auctions"),
        Mechanic("3-16", "the Message of the nweek changed with Support"),
        Mechanic("3-17", "the Threat Flag: the MoM's hoists and the Panic Buttons' Black Watch Plaid"),
        Mechanic("5-2", "Factions joining, their parties and dissolution"),
        Mechanic("5-3", "Allegiance, Factions' Votes and their Vote Power x3/4 each nweek"),
        Mechanic("6-4", "usurping Ministries"),
        Mechanic("6-5", "Ministers paid and Ministries vacated at the end of each nweek"),
        Mechanic("6-9", "MiniMinistries"),
        Mechanic("6-10", "Ministerial obligations fulfilled"),
    ),
    parameters=(
        Parameter("expel_supporters", "1-4", "may expel any Player ... with 3 Support", 3, minimum=1, maximum=1_000),
        Parameter("expel_recent_ndays", "1-4", "who has become a player within the past 12 ndays", 12,
                  minimum=0, maximum=1_000),
        Parameter("max_hit_points", "2-11", "recover 1 hit point up to their maximum", 10, minimum=0,
                  maximum=1_000_000),
        Parameter("fail_penalty", "2-6", "If the Proposal Failed and was never Won, its Author loses 3 points", 3,
                  minimum=0, maximum=1_000_000),
        Parameter("exchange_rate", "3-11", "The points -> mackerel exchange rate is 5.0", 5,
                  minimum=0, maximum=1_000_000),
        Parameter("auction_penalty", "3-14", "loses 25 points", 25, minimum=0, maximum=1_000_000),
        Parameter("usurp_objections", "6-4", "without 2 objections", 2, minimum=1, maximum=1_000),
        Parameter("minister_pay", "6-5", "each Player who is a Minister gains m50", 50, minimum=0, maximum=1_000_000),
    ),
)

# the rule whose mechanic a command is (a kind missing here is no mechanic of one rule: see above)
COMMAND_RULES: dict[str, str] = {
    "join": "1-4", "change_name": "1-4", "recognize": "1-4", "expel": "1-4", "rulekeeper": "1-8",
    "at": "1-10", "repeat": "1-10", "transaction": "1-16", "assert": "1-16",
    "consultation": "2-5", "priest": "2-5", "answer": "2-5", "claim": "2-5", "zot": "2-5",
    "tidiness": "3-9", "motnw": "3-16", "hoist": "3-17",
    "give": "3-10", "exchange": "3-11", "device": "3-12", "blueprint": "3-14", "price": "3-14", "buy": "3-14",
    "bid": "3-14", "faction_vote": "5-3", "usurp": "6-4", "miniministry": "6-9",
}


def key(rule: BRule) -> str | None:
    """The rule's number as the ruleset printed it (a renumbering keeps it in ``formerly``)."""
    return rule.formerly[0] if rule.formerly else rule.label


def on(state: BNomicState, label: str) -> bool:
    """Does the rule first numbered ``label`` run its mechanics (some such rule is in force)?"""
    return any(key(r) == label and not r.repealed for r in state.rules)


def mechanics_of(rule: BRule) -> list[str]:
    """What the rule runs now: nothing once repealed."""
    k = key(rule)
    return [] if rule.repealed or k is None else [m.runs for m in DECLARED.of(k)]


def command_rule(kind: str, cmd: Cmd) -> str | None:
    """The rule whose mechanic the command is: a ``Fulfilled`` line is 6-10's for an obligation,
    else 2-3's; a Faction's allegiance is 5-3's, its other lines 5-2's."""
    if kind == "fulfilled":
        return "6-10" if getattr(cmd, "obligation", None) is not None else "2-3"
    if kind == "faction":
        return "5-3" if getattr(cmd, "what", "") == "allegiance" else "5-2"
    return COMMAND_RULES.get(kind)


def refusal(state: BNomicState, kind: str, cmd: Cmd) -> Refusal | None:
    """Why a command cannot be taken: its rule is repealed (None: it can)."""
    label = command_rule(kind, cmd)
    if label is None or on(state, label):
        return None
    name = next((r.title for r in state.rules if key(r) == label), "")
    return Refusal(f"rule {label}{f' ({name})' if name else ''} is repealed: nothing runs it", label)


def values(state: BNomicState) -> dict[str, Value]:
    """Every parameter with its value now."""
    return current(DECLARED, state.parameters)


def value(state: BNomicState, name: str) -> int:
    """A whole-number parameter's value now."""
    return int(values(state)[name])


def put(state: BNomicState, setting: Setting) -> str:
    """A Passed ``Set`` line takes effect; what it did."""
    old = values(state)[setting.name]
    state.parameters[setting.name] = setting.value
    return f"{setting.name}: {old} -> {setting.value}"
