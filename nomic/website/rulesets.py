"""Which site a game gets: each ruleset's site package, found from the one list
(engine/ruleset.RULESETS) and imported only when a game asks for it.

A package (``nomic/website/imperial/``, ...) gives ``SITE``: the model its generators read, the
generators in the order they run (the shared ones of ``nomic/website/shared.py`` and ``archive``
among them), the navigation, the feeds, and its guide (what docs/reference.md says of it); its
templates are in ``rendering/templates/<ruleset>/site/``, looked up before the shared
``rendering/templates/site/`` (a ruleset may have none of its own).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.ruleset import part
from nomic.website.memory import SiteMemory
from nomic.website.model import SiteModel
from nomic.website.pages import Family, Page
from nomic.website.reader import SiteData

Generator = Callable[[Any], Iterator[Page | Family]]


@dataclass(frozen=True)
class Guide:
    """What docs/reference.md (``python -m nomic.reference``) says of a ruleset besides its declarations."""
    name: str  # the game's name, as the reference's heading gives it
    intro: str  # what the words in capitals of its commands stand for
    offices: str  # the heading of its offices' commands (none: it has no offices)
    variables: bool = False  # it has game variables (``engine/<ruleset>/variables.py``)


@dataclass(frozen=True)
class SiteParts:
    model: Callable[[SiteData, SiteMemory], SiteModel]
    generators: tuple[Generator, ...]
    nav: tuple[tuple[str, str], ...]  # (path, label), in the order shown on every page
    feeds: tuple[tuple[str, str, str], ...]  # (path, title, short name) of each Atom feed
    offices_heading: str  # How to play: the heading of the offices' commands
    guide: Guide


def site_for(ruleset: str) -> SiteParts:
    """The site part of ``ruleset`` (``nomic/website/<ruleset>/``'s ``SITE``)."""
    return part(ruleset, "site").SITE  # type: ignore[no-any-return]
