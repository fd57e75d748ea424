"""Pages every ruleset's site has: the fair dice and how to play (read off the ruleset's declarations)."""
from __future__ import annotations

from collections.abc import Iterator

from engine.ruleset import ruleset_for
from nomic.website.commands import command_help
from nomic.website.model import SiteModel
from nomic.website.pages import Page
from nomic.website.rulesets import site_for
from nomic.website.text import when


def dice(m: SiteModel) -> Iterator[Page]:
    """The commitment, every draw, and the rolls players asked for (BlogNomic's ``Roll DICE6``), with
    what each gave (a generator's option, where the draw is its place in the list)."""
    yield Page("dice.html", "dice.html", lambda: _dice(m),
               key=(m.data.seed_hash, m.data.seed, m.events_key("roll", "draw"), m.people_key))


def _dice(m: SiteModel) -> dict:
    return {
        "seed_hash": m.data.seed_hash, "seed": m.data.seed,
        "rolls": [{"n": e.data.get("n"), "at": when(e.at), "player": m.people.link(e.data.get("player"), ""),
                   "die": e.data.get("die"), "result": e.data.get("result")} for e in m.data.of_kind("roll")],
        "draws": [{"at": when(e.at), "label": e.data.get("label"), "low": e.data.get("low"),
                   "high": e.data.get("high"), "result": e.data.get("result")} for e in m.data.of_kind("draw")]}


def how_to_play(m: SiteModel) -> Iterator[Page]:
    """The commands with mailto: links; the ruleset's ``site/how_to_play_intro.html`` opens the page."""
    ruleset = m.data.state.ruleset
    yield Page("how-to-play.html", "how_to_play.html", {
        **command_help(m.data.game, ruleset_for(ruleset)), "offices_heading": site_for(ruleset).offices_heading,
        "options": m.data.options})
