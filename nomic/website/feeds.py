"""Atom feeds (RFC 4287): what every ruleset's feeds share.

Feeds are read by programs that fetch them from anywhere, so their links are
absolute, made from ``[game] site_url``.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from nomic.website.model import SiteModel
from nomic.website.pages import Page
from nomic.website.text import iso

LATEST = 50  # entries in a feed


def base(m: SiteModel) -> str:
    url = str(m.data.game.get("site_url") or "http://localhost/")
    return url if url.endswith("/") else url + "/"


def tag(m: SiteModel, what: str) -> str:
    host = urlsplit(base(m)).hostname or "localhost"
    return f"tag:{host},{m.state.started:%Y-%m-%d}:{what}"


def feed(m: SiteModel, name: str, title: str, alternate: str, entries: list[dict]) -> Page:
    """``feeds/NAME.xml``; each entry has id, href, title, updated (ISO), author and content (HTML)."""
    b = base(m)
    return Page(f"feeds/{name}.xml", "feed.xml", {
        "id": tag(m, name), "title": f"{m.data.game['name']}: {title}",
        "self_href": f"{b}feeds/{name}.xml", "alternate": f"{b}{alternate}",
        "updated": max((e["updated"] for e in entries), default=iso(m.state.started)), "entries": entries})
