"""What enacting a BlogNomic matter would do (engine/preview.py), shown in the answer to it and its
announcement: each rule its change lines enact, amend or repeal as a diff, the mechanics switched,
the parameters its ``Set`` lines change, and its prose, which an Admin applies by hand. Computed on
a copy of the rules and parameters: the matter changes nothing now."""
from __future__ import annotations

from datetime import datetime

from engine import preview as shown
from engine.blognomic import changes, mechanics
from engine.blognomic.state import BlogState, VotableMatter
from engine.preview import RuleView
from engine.state import Rule


def lines(state: BlogState, m: VotableMatter, at: datetime) -> list[str]:
    after, parameters = [r.model_copy(deep=True) for r in state.rules], dict(state.parameters)
    changes.apply(after, m.changes, "preview", at, m.title, parameters)
    return shown.lines(_views(state.rules), _views(after), mechanics.values(state.parameters),
                       mechanics.values(parameters), changes.prose(m.text))


def _views(rules: list[Rule]) -> dict[int, RuleView]:
    return {i: RuleView(f'rule "{r.title}" ({r.section})', r.text, tuple(mechanics.mechanics_of(r)))
            for i, r in enumerate(rules) if not r.repealed}
