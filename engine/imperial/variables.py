"""Game variables: the numbers the rules use, which a Proclamation may change (rule 3); declared
as the generic parameters of engine/mechanics.py, in the order of the earlier DEFAULTS.

game.toml's [variables] table overrides these defaults for a new game. A
Proclamation's change is recorded in ``state.variable_history`` and, per rule 7,
governs only submissions numbered at or above its ``from_number``: ``value``
answers "which number applies to submission N".
"""
from __future__ import annotations

from engine.imperial.state import ImperialState
from engine.mechanics import Parameter

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("accept_points", 11, "an accepted Proposal", 3, minimum=0),
    Parameter("reject_points", 11, "a rejected Proposal loses this many", 2, minimum=0),
    Parameter("win_score", 11, "TEW at exactly this (rule 8, the second); inverted above", 50, minimum=0),
    Parameter("start_temperature", 12, "the temperature a game starts at", 303, minimum=0),
    Parameter("queue_limit", 4, "undecided Proposals per player", 2, minimum=0),
    Parameter("point_of_order_points", 5, "a valid non-scoring Point of Order", 1, minimum=0),
    Parameter("probation_rejections", 3, "consecutive rejections that put a player on Probation", 2, minimum=0),
    Parameter("probation_release", 3, "accepted Proposals that end Probation", 3, minimum=0),
    Parameter("accept_heat_cap", 12, "heating per accepted Proposal is min(streak, this)", 10, minimum=0),
    Parameter("reject_cool_floor", 12, "cooling per rejected/ignored Proposal is max(streak, this)", 5, minimum=0),
    Parameter("and_points", 12, "the Profile-AND bonus", 5, minimum=0),
    Parameter("and_swing", 12, "the AND check moves the temperature by [-this, this]", 10, minimum=0),
    Parameter("overheat_limit", 12, "above this the game overheats", 330, minimum=0),
    Parameter("overheat_reset", 12, "an overheated game vents back to this", 303, minimum=0),
    Parameter("overheat_bonus", 12, "the player whose action overheated the game", 100, minimum=0),
    Parameter("meltdown_limit", 12, "above this the game melts down", 450, minimum=0),
    Parameter("meltdown_reset", 12, "a meltdown resets the temperature to this", 280, minimum=0),
    Parameter("cooling_max", 12, "day-end cooling is a draw in [0, this]", 10, minimum=0),
    Parameter("day_hours", 10, "the shortest game day", 24, minimum=1),
)
DEFAULTS: dict[str, int] = {p.name: int(p.default) for p in PARAMETERS}
# The smallest value a Proclamation may set.
MINIMUM: dict[str, int] = {p.name: p.minimum or 0 for p in PARAMETERS}


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
