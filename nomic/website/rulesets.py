"""Which site a game gets: each ruleset's site package, imported only when a game asks for it.

A package (``nomic/website/imperial/``, ...) gives ``SITE``: the model its generators read, the
generators in the order they run (the shared ones of ``nomic/website/shared.py`` and ``archive``
among them), the navigation and the feeds; its templates are in
``rendering/templates/<ruleset>/site/``, looked up before the shared ``rendering/templates/site/``.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from nomic.website.memory import SiteMemory
from nomic.website.model import SiteModel
from nomic.website.pages import Family, Page
from nomic.website.reader import SiteData

PACKAGES = {"imperial": "nomic.website.imperial", "blognomic": "nomic.website.blognomic",
            "suber": "nomic.website.suber", "bnomic": "nomic.website.bnomic"}

Generator = Callable[[Any], Iterator[Page | Family]]


@dataclass(frozen=True)
class SiteParts:
    model: Callable[[SiteData, SiteMemory], SiteModel]
    generators: tuple[Generator, ...]
    nav: tuple[tuple[str, str], ...]  # (path, label), in the order shown on every page
    feeds: tuple[tuple[str, str, str], ...]  # (path, title, short name) of each Atom feed
    offices_heading: str  # How to play: the heading of the offices' commands


def site_for(ruleset: str) -> SiteParts:
    try:
        package = PACKAGES[ruleset]
    except KeyError:
        raise ValueError(f"no site for the ruleset {ruleset!r} (known: {', '.join(sorted(PACKAGES))})") from None
    return importlib.import_module(package).SITE  # type: ignore[no-any-return]
