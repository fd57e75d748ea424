"""Why a command is refused, and the rule that says so.

Every refusal the engine answers with is a ``Refusal``: the reason in words and the rule that
grounds it, as the ruleset numbers or titles it (Imperial "7", BlogNomic "Votable Matters",
Suber "203", B Nomic "1-4"). The answer's text is composed here alone ("why (rule 7); nothing
done"), so no answer forgets the citation and a test can read the field.

A few refusals rest on no rule of the game; each says which of the ``RULELESS`` grounds it
stands on instead, and tests/engine/test_refusals.py holds every construction to one or the other.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Ruleless = Literal["no such", "already", "form", "house", "service"]

RULELESS: dict[str, str] = {
    "no such": "the command names nothing that exists (no Proposal 9, no Player Zed): no rule is at stake",
    "already": "what the command asks is so already (the Clock is On already): there is nothing to change",
    "form": "the line is not in the form of any command, and no rule prescribes one",
    "house": "a ruling of this house where the rules are silent (docs/rulings*.md): who may join, a bound on a value",
    "service": "the game's own service, not its rules: the list, absence, the bounds on one message's work",
}


@dataclass(frozen=True)
class Refusal:
    """``why`` a command is refused; ``rule`` the rule that grounds it (several: "4, 20"), or
    else ``ruleless`` the reason no rule does."""
    why: str
    rule: str = ""
    ruleless: Ruleless | None = None

    def __post_init__(self) -> None:
        if bool(self.rule) == (self.ruleless is not None):
            raise ValueError(f"a refusal has a rule or a reason to have none, not both or neither: {self!r}")

    @property
    def citation(self) -> str:
        """"rule 7", "rules 2-8 and 2-9" (``rule`` "2-8, 2-9"); "" for a refusal no rule grounds."""
        *rest, last = self.rule.split(", ")
        return f"rules {', '.join(rest)} and {last}" if rest else f"rule {last}" if last else ""

    def text(self, tail: str = "nothing done") -> str:
        """The answer's words: the reason, the rule unless the reason names it already, ``tail``."""
        cited = self.citation
        said = self.why if not cited or self._names(cited) else f"{self.why} ({cited})"
        return f"{said}; {tail}" if tail else said

    def _names(self, cited: str) -> bool:
        """Whether the reason names the rule already ("rule 10 is repealed"; not "rule 1" in "rule 10")."""
        return re.search(re.escape(cited) + r"(?![\w-])", self.why.replace('"', ""), re.I) is not None


class Refused(Exception):
    """A refusal raised where it is found (a change line that cannot be applied) and answered where
    it is caught; read as text it is the reason with its rule."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.text(""))
        self.refusal = refusal
