"""Rule "Tags" (edition 149): "Votable Matters require the [Core] tag in order to make changes to
the Core Rules, and the [Appendix] tag in order to make changes to the Appendix Rules."

Checked twice: when a matter arrives (its answer says which change lines will not be applied) and
when it is enacted (the rules may have changed in between: the rule moved, "Tags" repealed). An
edition without a rule named "Tags" (109) needs no tag. A change line outside its tag's rules is
refused alone; the matter and its other changes stand (a blog post is not refused for a line).
"""
from __future__ import annotations

import re

from engine.blognomic.state import Change
from engine.state import Rule
from engine.refusal import Refusal

RULE = "Tags"
NEEDED = {"core": "Core", "appendix": "Appendix"}  # a rule's section -> the tag a change to it needs
_TAG = re.compile(r"\[([^\[\]]{1,40})\]")


def of_title(title: str) -> set[str]:
    """The tags in a matter's title, "[Core] Wording Fix" -> {"core"} (case-insensitive)."""
    return {t.strip().casefold() for t in _TAG.findall(title)}


def refusal(rules: list[Rule], title: str, change: Change) -> Refusal | None:
    """Why rule Tags forbids ``change`` in a matter titled ``title``, or None."""
    live = [r for r in rules if not r.repealed]
    if not any(r.title.casefold() == RULE.casefold() for r in live):
        return None
    target = next((r for r in live if r.title.casefold() == change.name.casefold()), None)
    section = change.section if change.action == "enact" or target is None else (target.section or "")
    tag = NEEDED.get(section)
    if tag is None or tag.casefold() in of_title(title):
        return None
    return Refusal(f"a change to the {tag} Rules needs the [{tag}] tag in the title", RULE)
