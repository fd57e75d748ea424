"""Blueprints (3-12, 3-14): what the Artisan may attempt, and what happens when his dependent action
(actions.py) occurs. A blueprint is created, or repriced, only if it still can be when it occurs."""
from __future__ import annotations

from decimal import Decimal

from engine.bnomic.amounts import mackerel_text
from engine.bnomic.commands import BlueprintCmd, PriceCmd
from engine.bnomic.state import Action, Blueprint, BNomicState

CORVETTE = 5  # 3-14: "no later than Corvette"
MAX_NAME = 64
MAX_ENTRIES = 20  # Attributes, and Properties, of one blueprint


def draft(state: BNomicState, cmd: BlueprintCmd) -> Blueprint | str:
    """The blueprint the Artisan attempts to create, or why he may not (Reading 33)."""
    name = " ".join(cmd.name.split())
    if not name or len(name) > MAX_NAME:
        return f"a blueprint needs a name of 1 to {MAX_NAME} characters"
    if cmd.unique is None:
        return "the body must say 'Unique' or 'Non-unique'"
    if len(cmd.attributes) > MAX_ENTRIES or len(cmd.properties) > MAX_ENTRIES:
        return f"at most {MAX_ENTRIES} Attributes and {MAX_ENTRIES} Properties"
    if state.clock.nday > CORVETTE:
        return "the Ministry of Goods creates blueprints no later than Corvette, nday 5 (3-14)"
    if any(a.kind == "blueprint" and a.status != "failed" and a.blueprint and a.blueprint.nweek == state.clock.nweek
           for a in state.actions):
        return "the Ministry of Goods has created a blueprint this nweek, or is awaiting one (3-14)"
    if state.blueprint(name) is not None:
        return f"there is a blueprint {name} already"
    return Blueprint(name=name, unique=cmd.unique, price=cmd.price or "50", attributes=dict(cmd.attributes),
                     properties=list(cmd.properties), nweek=state.clock.nweek)


def repriced(state: BNomicState, cmd: PriceCmd) -> Blueprint | str:
    """The non-unique blueprint with its new Price, or why it may not be repriced (3-14)."""
    b = state.blueprint(cmd.name)
    if b is None:
        return f"there is no blueprint {cmd.name}"
    if b.unique:
        return f"{b.name} is unique: its price is its highest bid (3-14)"
    return b.model_copy(update={"price": cmd.price})


def occur(state: BNomicState, a: Action) -> str:
    """A blueprint or price action's effect now, or raises ``ValueError`` with why it cannot occur."""
    new = a.blueprint
    assert new is not None
    if a.kind == "blueprint":
        if state.blueprint(new.name) is not None:
            raise ValueError(f"there is a blueprint {new.name} already")
        state.blueprints.append(new.model_copy(deep=True))  # the action keeps its own record: a shared object
        # would carry the auction's bids into it in memory and not in a replay
        return f"the blueprint {new.name} exists ({'unique' if new.unique else 'non-unique'}, " \
               f"{mackerel_text(new.price)})"
    b = state.blueprint(new.name)
    if b is None:
        raise ValueError(f"the blueprint {new.name} no longer exists")
    b.price = str(Decimal(new.price))
    return f"the price of {b.name} is {mackerel_text(b.price)}"
