"""Game variables: the numbers the rules use, which a Proclamation may change (rule 3).

game.toml's [variables] table overrides these defaults for a new game. A
Proclamation's change is recorded in ``state.variable_history`` and, per rule 7,
governs only submissions numbered at or above its ``from_number``: ``value``
answers "which number applies to submission N".
"""
from __future__ import annotations

from engine.imperial.state import ImperialState

DEFAULTS: dict[str, int] = {
    "accept_points": 3,        # rule 11: an accepted Proposal
    "reject_points": 2,        # rule 11: a rejected Proposal loses this many
    "win_score": 50,           # rule 11 / rule 8 (the second): TEW at exactly this; inverted above
    "start_temperature": 303,  # rule 12
    "queue_limit": 2,          # rule 4: undecided Proposals per player
    "point_of_order_points": 1,  # rule 5: a valid non-scoring Point of Order
    "probation_rejections": 2,   # rule 3: consecutive rejections that put a player on Probation
    "probation_release": 3,      # rule 3: accepted Proposals that end Probation
    "accept_heat_cap": 10,       # rule 12: heating per accepted Proposal is min(streak, this)
    "reject_cool_floor": 5,      # rule 12: cooling per rejected/ignored Proposal is max(streak, this)
    "and_points": 5,             # rule 12: the Profile-AND bonus
    "and_swing": 10,             # rule 12: the AND check moves the temperature by [-this, this]
    "overheat_limit": 330,       # rule 12: above this the game overheats
    "overheat_reset": 303,       # rule 12: ... and vents back to this
    "overheat_bonus": 100,       # rule 12: the player whose action overheated the game
    "meltdown_limit": 450,       # rule 12: above this ...
    "meltdown_reset": 280,       # rule 12: ... the temperature resets to this
    "cooling_max": 10,           # rule 12: day-end cooling is a draw in [0, this]
    "day_hours": 24,             # rule 10: the shortest game day
}

# The smallest value a Proclamation may set (0 for every variable not named here).
MINIMUM: dict[str, int] = {"day_hours": 1}


def value(state: ImperialState, name: str, number: int | None = None) -> int:
    """The variable as it governs submission ``number`` (rule 7); the current value if None.

    Changes are replayed in the order they were made, each from its own
    ``from_number`` on, so a change made later for a lower number (a Proposal
    accepted after a higher-numbered one) still governs the numbers between.
    Without rule 7 every change governs everything decided after it.
    """
    changes = [c for c in state.variable_history if c.name == name]
    if number is None or not changes or not state.rule_in_force(7):
        return state.variables[name]
    result = changes[0].old
    for change in changes:
        if number >= change.from_number:
            result = change.new
    return result


def rule_on(state: ImperialState, rule: int, number: int | None = None, nth: int = 0) -> bool:
    """Is the ``nth`` rule numbered ``rule`` in force (for submission ``number``, rule 7)?

    Repealing a rule switches its mechanics off (engine/imperial/mechanics.py).
    Without rule 7, a repeal or an enactment governs everything decided after it.
    """
    r = state.rule(rule, nth)
    if r is None:
        return False
    if number is None or not state.rule_in_force(7):
        return not r.repealed
    if r.repealed_from is not None:
        return number < r.repealed_from
    return (r.enacted_from is None or number >= r.enacted_from) and not r.repealed
