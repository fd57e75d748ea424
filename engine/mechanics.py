"""Which rule runs which mechanic, and the parameters a rule-change may set: one mechanism for
every ruleset (CONTRACT.md, "Rules that change by Proposal, in every ruleset").

A ruleset declares, per rule (``rule``: its number, or its title where rules are named), the
mechanics the engine runs for it (``Mechanic``) and the numbers or choices in its text that a
rule-change may set with a ``Set NAME = VALUE`` line (``Parameter``: the rule's own wording, the
default, the bounds or choices). The ruleset's code asks whether a rule is in force before it runs
a mechanic, so a repealed rule runs nothing; ``Declarations.active`` says which mechanics run
given the rules in force, a mechanic whose declaration names a rule it ``overrides`` silencing
that rule's mechanic while both are in force (a later rule's text overriding an earlier one).

This module imports no ruleset; each ruleset's declarations are plain module-level data.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from engine import refusal
from engine.refusal import Refusal

RuleKey = int | str
Value = int | str
Hook = Callable[[Any, Any], str]  # (the ruleset's state, the step's Context) -> a note for the answer

_SET = re.compile(r"^set\s+(\S+)\s*=\s*(.*?)\s*$", re.I)
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_INT = re.compile(r"^[+-]?\d{1,9}$")
SET_FORM = "Set NAME = VALUE"


class Refused(refusal.Refused, ValueError):
    """Why a ``Set`` line cannot be read or applied, with the form expected."""


@dataclass(frozen=True)
class Mechanic:
    """One thing the engine runs for a rule; ``nth``: which of several rules with this number
    (Imperial prints two rules 8). ``overrides``: rules whose mechanics this one replaces while
    both are in force. ``on_enact``/``on_repeal``: what changes at that moment (Imperial rule 1)."""
    rule: RuleKey
    runs: str
    nth: int = 0
    overrides: tuple[RuleKey, ...] = ()
    on_enact: Hook | None = None
    on_repeal: Hook | None = None


@dataclass(frozen=True)
class Parameter:
    """A number or a choice in a rule's text that a rule-change may set."""
    name: str
    rule: RuleKey
    wording: str  # the rule's own words for it
    default: Value
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def form(self) -> str:
        """The ``Set`` line expected, with what VALUE may be."""
        if self.choices:
            return f"'Set {self.name} = {' | '.join(self.choices)}'"
        low = "" if self.minimum is None else f"at least {self.minimum}"
        high = "" if self.maximum is None else f"at most {self.maximum}"
        bounds = " and ".join(b for b in (low, high) if b)
        return f"'Set {self.name} = N'" + (f" (N a whole number {bounds})" if bounds else " (N a whole number)")

    def read(self, raw: str) -> Value:
        """``raw`` as this parameter's value; ``Refused`` (naming the form) when it is not one."""
        raw = raw.strip()
        if self.choices:
            value = raw.lower()
            if value not in self.choices:
                raise Refused(Refusal(f"{self.name} is {' or '.join(self.choices)} (rule {self.rule}: "
                                      f"{self.wording}); expected {self.form()}", str(self.rule)))
            return value
        if not _INT.match(raw):
            raise Refused(Refusal(f"{self.name} is a whole number; expected {self.form()}", str(self.rule)))
        number = int(raw)
        if (self.minimum is not None and number < self.minimum) or (self.maximum is not None and number > self.maximum):
            raise Refused(Refusal(f"{self.name} = {number} is out of bounds (rule {self.rule}: {self.wording}); "
                                  f"expected {self.form()}", str(self.rule)))
        return number


@dataclass(frozen=True)
class Setting:
    """A read ``Set`` line."""
    name: str
    value: Value


@dataclass(frozen=True)
class Declarations:
    """A ruleset's mechanics and parameters."""
    mechanics: tuple[Mechanic, ...] = ()
    parameters: tuple[Parameter, ...] = ()

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)

    def defaults(self) -> dict[str, Value]:
        return {p.name: p.default for p in self.parameters}

    def of(self, rule: RuleKey, nth: int = 0) -> list[Mechanic]:
        """The mechanics the rule runs while in force."""
        return [m for m in self.mechanics if m.rule == rule and m.nth == nth]

    def active(self, in_force: Collection[tuple[RuleKey, int]]) -> list[Mechanic]:
        """The mechanics that run with these rules (key, nth) in force: a repealed rule runs
        nothing, and a mechanic is silent while a rule in force overrides its rule."""
        on = [m for m in self.mechanics if (m.rule, m.nth) in in_force]
        overridden = {r for m in on for r in m.overrides}
        return [m for m in on if m.rule not in overridden]

    def runs(self, rule: RuleKey, in_force: Collection[tuple[RuleKey, int]], nth: int = 0) -> bool:
        """Does a mechanic of the rule run with these rules in force?"""
        return any(m.rule == rule and m.nth == nth for m in self.active(in_force))

    def read_set(self, line: str) -> Setting | None:
        """A ``Set NAME = VALUE`` line, checked against the declarations; None when the line is no
        ``Set`` line; ``Refused`` with the form expected when NAME is unknown or VALUE out of bounds."""
        m = _SET.match(line.strip())
        if m is None:
            return None
        name = m[1].lower()
        parameter = self.parameter(name) if _NAME.match(name) else None
        if parameter is None:
            known = ", ".join(p.name for p in self.parameters) or "none"
            raise Refused(Refusal(f"there is no parameter {m[1][:40]!r} (known: {known}); expected '{SET_FORM}'",
                                  ruleless="no such"))
        return Setting(name, parameter.read(m[2]))


def current(declared: Declarations, stored: dict[str, Value]) -> dict[str, Value]:
    """Every declared parameter with its value now: the stored (set) value, else the default."""
    return {p.name: stored.get(p.name, p.default) for p in declared.parameters}
