"""Counting Nomic's site: the shared pages alone (it has no templates of its own)."""
from nomic.website import shared
from nomic.website.memory import SiteMemory
from nomic.website.model import SiteModel, people
from nomic.website.reader import SiteData
from nomic.website.rulesets import Guide, SiteParts


def build_model(data: SiteData, memory: SiteMemory) -> SiteModel:
    return SiteModel(data=data, people=people(data, {}), memory=memory)


SITE = SiteParts(
    model=build_model, generators=(shared.dice, shared.how_to_play),
    nav=(("how-to-play.html", "How to play"), ("dice.html", "Fair dice")), feeds=(),
    offices_heading="Commands of the offices",
    guide=Guide("Counting Nomic", "Every player may count.", ""))
