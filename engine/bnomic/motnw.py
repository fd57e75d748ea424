"""The Message of the nweek (3-16): the Registrar changes it with Support (1 supporter, a dependent
action of 2 ndays, actions.py), at most once in an nweek: an attempt after a change this nweek is
refused (Reading 41), and one that would occur after another change in the same nweek fails."""
from __future__ import annotations

from engine.bnomic.state import Action, BNomicState

MAX_LENGTH = 256  # 3-16: 1 to 256 characters


def refusal(state: BNomicState, text: str) -> str | None:
    """Why the Registrar may not attempt to set the Message to ``text`` now, or None."""
    if not 1 <= len(text) <= MAX_LENGTH:
        return f"the Message is 1 to {MAX_LENGTH} characters (3-16)"
    if state.motnw_nweek == state.clock.nweek:
        return "the Message of the nweek has changed this nweek already (3-16)"
    return None


def occur(state: BNomicState, a: Action) -> str:
    """The Message changes to the action's text; ValueError when it has changed this nweek meanwhile."""
    if state.motnw_nweek == state.clock.nweek:
        raise ValueError("the Message of the nweek has changed this nweek already (3-16)")
    state.motnw, state.motnw_nweek = a.reason, state.clock.nweek
    return f"the Message of the nweek is {a.reason!r}"
