"""Events in words: one line of HTML per event, with players and submissions linked."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from nomic.website.reader import EventRecord


@dataclass(frozen=True)
class People:
    """Who an address is on the site: a name and, for players, their page."""
    names: dict[str, str]
    slugs: dict[str, str]
    offices: dict[str, str]  # address -> "TIE" / "THS"
    _links: dict = field(default_factory=dict, compare=False, repr=False)  # made once per build

    def name(self, address: str | None) -> str:
        if not address:
            return "nobody"
        return self.names.get(address) or self.offices.get(address) or address.split("@")[0]

    def link(self, address: str | None, root: str) -> Markup:
        made = self._links.get((address, root))
        if made is None:
            slug = self.slugs.get(address or "")
            made = escape(self.name(address)) if slug is None else Markup(
                f'<a href="{escape(root)}players/{escape(slug)}.html">{escape(self.name(address))}</a>')
            self._links[(address, root)] = made
        return made


    def linkify(self, text: str, root: str) -> Markup:
        """Engine-written text (a chime's notes) with every player's address as a link to them."""
        found = sorted((a for a in self.slugs if a in text), key=len, reverse=True)
        if not found:
            return escape(text)
        pattern = re.compile(r"(?<![\w.+-])(" + "|".join(map(re.escape, found)) + r")(?![\w-])")
        parts = pattern.split(text)  # odd items are the addresses
        return Markup("").join(self.link(p, root) if i % 2 else escape(p) for i, p in enumerate(parts))


def _sub(n: object, root: str) -> Markup:
    return Markup('<a href="{}submissions/{}.html">{}</a>').format(root, n, n) if n else Markup("")


def _signed(n: object) -> str:
    return f"{n:+d}" if isinstance(n, int) else str(n)


def _score(d: dict, p: People, root: str) -> Markup:
    return Markup("{} {} points, now {}: {}").format(
        p.link(d.get("player"), root), _signed(d.get("delta")), d.get("score"), d.get("cause", ""))


def _temperature(d: dict, p: People, root: str) -> Markup:
    return Markup("temperature {} K &rarr; {} K: {}").format(d.get("old"), d.get("new"), d.get("cause", ""))


def _draw(d: dict, p: People, root: str) -> Markup:
    return Markup("dice <code>{}</code>: {} from {}&ndash;{}").format(
        d.get("label"), d.get("result"), d.get("low"), d.get("high"))


def _judged(d: dict, p: People, root: str) -> Markup:
    reason = Markup(" ({})").format(d["reason"]) if d.get("reason") else ""
    return Markup("submission {} judged: {}{}").format(_sub(d.get("number"), root), d.get("status"), reason)


def _submitted(d: dict, p: People, root: str) -> Markup:
    return Markup("{} submitted {} {}").format(
        p.link(d.get("author"), root), "Proposal" if d.get("kind") == "proposal" else "Point of Order",
        _sub(d.get("number"), root))


def _joined(d: dict, p: People, root: str) -> Markup:
    profile = d.get("profile")
    bits = format(profile, "016b") if isinstance(profile, int) else "?"
    return Markup("{} joined the game with Profile <code>{}</code> ({})").format(
        p.link(d.get("player"), root), bits, profile)


def _winner(d: dict, p: People, root: str) -> Markup:
    return Markup("{} is The Exalted Winner").format(p.link(d.get("player"), root))


def _day_end(d: dict, p: People, root: str) -> Markup:
    return Markup("the Bell Tower chimes: day {} ends, day {} begins").format(d.get("day"), d.get("new_day"))


def _profile(d: dict, p: People, root: str) -> Markup:
    old, new = d.get("old"), d.get("new")
    fmt = (lambda v: format(v, "016b") if isinstance(v, int) else "?")
    return Markup("Profile of {} <code>{}</code> &rarr; <code>{}</code>: {}").format(
        p.link(d.get("player"), root), fmt(old), fmt(new), d.get("cause", ""))


def _it(d: dict, p: People, root: str) -> Markup:
    why = Markup(" ({})").format(d["why"]) if d.get("why") else ""
    return Markup("{} is It{}").format(p.link(d.get("player"), root), why)


def _category(d: dict, p: People, root: str) -> Markup:
    return Markup("{} becomes {}").format(p.link(d.get("player"), root), d.get("category"))


def _proclamation(d: dict, p: People, root: str) -> Markup:
    changes = d.get("changes") or []
    return Markup('<a href="{}rules/index.html#proclamation-{}">Proclamation {}</a>: {}{}').format(
        root, d.get("number"), d.get("number"), d.get("title", ""),
        Markup(" ({})").format("; ".join(map(str, changes))) if changes else "")


def _directive(d: dict, p: People, root: str) -> Markup:
    if d.get("area"):
        return Markup("Directive: proposals in the area {}").format(d["area"])
    return Markup("Directive revoked{}").format(Markup(" ({})").format(d["revoked"]) if d.get("revoked") else "")


def _generic(kind: str) -> Callable[[dict, People, str], Markup]:
    def describe(d: dict, p: People, root: str) -> Markup:
        parts = [Markup("{}: {}").format(k, p.link(None if v is None else str(v), root) if k in ("player", "author", "target") else v)
                 for k, v in d.items() if isinstance(v, (str, int, float, bool)) or v is None]
        return Markup("{}{}{}").format(kind.replace("_", " "), Markup(": ") if parts else "",
                                       Markup(", ").join(parts))
    return describe


DESCRIBERS: dict[str, Callable[[dict, People, str], Markup]] = {
    "score": _score, "temperature": _temperature, "draw": _draw, "judged": _judged,
    "submitted": _submitted, "joined": _joined, "winner": _winner, "day_end": _day_end,
    "profile": _profile, "it": _it, "category": _category, "proclamation": _proclamation,
    "directive": _directive,
}


def describe(event: EventRecord, people: People, root: str) -> Markup:
    return DESCRIBERS.get(event.kind, _generic(event.kind))(event.data, people, root)
