"""What the engine runs for each rule, and its switch: ``rule_on`` (engine/imperial/variables.py);
Imperial's declarations for the generic engine/mechanics.py (with the variables as its parameters).

Every rule whose mechanics the engine runs is listed in ``MECHANICS``; each
module that runs them asks ``rule_on(state, RULE, number)`` first, so a
repeal (by Proclamation or accepted Proposal) switches them off and a new
enactment on again. A rule whose repeal or enactment changes the game at
that moment, rather than what later steps do, has a hook here (rule 1: the
office-holders' place in the player list). The answer to the change names
what was switched. ``tests/engine/test_repeal.py`` repeals each one.
"""
from __future__ import annotations

from engine.context import Context
from engine.imperial.profiles import profile_from_email
from engine.imperial.variables import PARAMETERS
from engine.mechanics import Declarations, Mechanic
from engine.state import Rule
from engine.imperial.state import ImperialPlayer, ImperialState


def officers(state: ImperialState, emails: list[str]) -> list[ImperialPlayer]:
    """Rule 1: the office-holders as players, with the Profiles of rule 13."""
    return [ImperialPlayer(email=e, name=state.name_for(e, ""), profile=profile_from_email(e),
                   joined_day=state.game_day) for e in emails]


def officers_join(state: ImperialState, ctx: Context) -> str:
    """Rule 1 in force: TIE and THS are players, at the top of the list (once if one address holds both)."""
    emails = list(dict.fromkeys((ctx.config.holder("emperor"), ctx.config.holder("scribe"))))
    missing = [e for e in emails if state.player(e) is None]
    if not missing:
        return ""
    new = {p.email: p for p in officers(state, missing)}
    top = [p for e in emails if (p := new.get(e) or state.player(e)) is not None]
    state.players = [*top, *(p for p in state.players if p.email not in emails)]  # a new list: engine/index.py
    return f"{', '.join(missing)} {'are players' if len(missing) > 1 else 'is a player'} again"


def officers_leave(state: ImperialState, ctx: Context) -> str:
    """Rule 1 repealed: an office-holder is a player only by rule 2, having made a submission."""
    submitted = {s.author for s in state.submissions}
    leaving = [p.email for p in state.players if p.email in ctx.config.officers and p.email not in submitted]
    if not leaving:
        return ""
    state.players = [p for p in state.players if p.email not in leaving]
    return f"{', '.join(leaving)} {'are no longer players' if len(leaving) > 1 else 'is no longer a player'}"


MECHANICS: tuple[Mechanic, ...] = (
    Mechanic(1, "TIE and THS as players from the start", on_enact=officers_join, on_repeal=officers_leave),
    Mechanic(2, "new players joining with their first submission"),
    Mechanic(3, "Probation, ignoring with prejudice and Directives"),
    Mechanic(4, "the queue of two undecided Proposals"),
    Mechanic(5, "rewards for Points of Order"),
    Mechanic(6, "rule 6's order of a day's end (without it: lowest rule first)"),
    Mechanic(7, "rule changes governing submissions from their own number on"),
    Mechanic(8, "ignoring Proposals without a title"),
    Mechanic(8, "the end of the game at TEW", nth=1),
    Mechanic(10, "game days ending"),
    Mechanic(11, "points for Proposals, inversion above 50 and TEW"),
    Mechanic(12, "the temperature's effects"),
    Mechanic(13, "issuing Profiles to new players"),
    Mechanic(14, "retooling, rotations, wood chips, swaps and sealant"),
    Mechanic(15, "Profile Entropy in rule 16"),
    Mechanic(16, "Become FF and the FF cooling bonus"),
    Mechanic(17, "the Game Profile"),
    Mechanic(18, "Player of the Day"),
    Mechanic(19, "the chime of the Bell Tower"),
    Mechanic(20, "whapping Tivol"),
    Mechanic(21, "vandalism and reports"),
    Mechanic(22, "Tag"),
)
DECLARED = Declarations(MECHANICS, PARAMETERS)


def nth_of(state: ImperialState, rule: Rule) -> int:
    """Which of the rules numbered like ``rule`` it is (0: the first)."""
    return [r for r in state.rules if r.number == rule.number].index(rule)


def mechanic(state: ImperialState, rule: Rule) -> Mechanic | None:
    return next(iter(DECLARED.of(rule.number, nth_of(state, rule))), None)


def switched(state: ImperialState, rule: Rule, on: bool, ctx: Context) -> str:
    """A rule was enacted (``on``) or repealed: run its hook; returns the answer's note."""
    m = mechanic(state, rule)
    if m is None:
        return ""
    hook = m.on_enact if on else m.on_repeal
    done = hook(state, ctx) if hook else ""
    return f" (switches {'on' if on else 'off'} {m.runs}" + (f": {done}" if done else "") + ")"
