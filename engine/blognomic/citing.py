"""The title of the rule a refusal cites, as this game's edition and keywords name it.

The engine names BlogNomic's rules by edition 149's titles; edition 109 holds the same provisions
under other titles ("Votable Matters" for 149's "Votes", "Resolution of Proposals" for "Enacting
and Failing"), and a rule titled for the player keyword ("Pactmakers", "Idle Pactmakers") bears
the edition's and the Ascension Address's word ("Captains").
"""
from __future__ import annotations

from engine.blognomic.state import BlogState
from engine.refusal import Refusal

_EDITION_109 = {"Votes": "Votable Matters", "Enacting and Failing": "Resolution of Proposals"}


def rule(state: BlogState, title: str) -> str:
    """Edition 149's rule title ``title`` as this game names it."""
    if state.edition == "109":
        title = _EDITION_109.get(title, title)
    return title.replace("Pactmakers", f"{state.keywords['Pactmaker']}s")


def refusal(state: BlogState, why: str, title: str) -> Refusal:
    """A refusal citing edition 149's rule ``title`` as this game names it."""
    return Refusal(why, rule(state, title))
