"""Atom feeds (RFC 4287) for submissions and for the Bell Tower's chimes.

Feeds are read by programs that fetch them from anywhere, so their links are
absolute, made from ``[game] site_url``.
"""
from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

from markupsafe import Markup

from nomic.website.model import SiteModel
from nomic.website.pages import Page
from nomic.website.text import iso, markdown

LATEST = 50


def _base(m: SiteModel) -> str:
    url = str(m.data.game.get("site_url") or "http://localhost/")
    return url if url.endswith("/") else url + "/"


def _tag(m: SiteModel, what: str) -> str:
    host = urlsplit(_base(m)).hostname or "localhost"
    return f"tag:{host},{m.state.started:%Y-%m-%d}:{what}"


def _notes(e) -> str:
    """A chime's notes as an HTML list (escaped again by the template: Atom's type="html")."""
    summary = e.data.get("summary") if isinstance(e.data.get("summary"), dict) else {}
    notes = summary.get("notes") if isinstance(summary.get("notes"), list) else []
    return str(Markup("<ul>{}</ul>").format(Markup("").join(Markup("<li>{}</li>").format(n) for n in notes))) \
        if notes else ""


def feeds(m: SiteModel) -> Iterator[Page]:
    base, st = _base(m), m.state
    subs = list(reversed(st.submissions))[:LATEST]
    entries = [{"id": _tag(m, f"submission/{s.number}"), "href": f"{base}submissions/{s.number}.html",
                "title": f"{s.number}. {s.title or '(no title)'} ({s.status})",
                "updated": iso(s.judged_at or s.received_at or st.started),
                "author": m.people.name(s.author), "content": str(markdown(s.text))} for s in subs]
    yield Page("feeds/submissions.xml", "feed.xml", {
        "id": _tag(m, "submissions"), "title": f"{m.data.game['name']}: submissions",
        "self_href": f"{base}feeds/submissions.xml", "alternate": f"{base}submissions/index.html",
        "updated": max((e["updated"] for e in entries), default=iso(st.started)), "entries": entries})
    chimes = list(reversed(m.data.of_kind("day_end")))[:LATEST]
    entries = [{"id": _tag(m, f"chime/{e.data.get('day')}/{e.id}"), "href": f"{base}bell-tower.html#chime-{e.id}",
                "title": f"Day {e.data.get('day')} ends, day {e.data.get('new_day')} begins",
                "updated": iso(e.at), "author": "The Humble Scribe", "content": _notes(e)} for e in chimes]
    yield Page("feeds/chimes.xml", "feed.xml", {
        "id": _tag(m, "chimes"), "title": f"{m.data.game['name']}: the Bell Tower",
        "self_href": f"{base}feeds/chimes.xml", "alternate": f"{base}bell-tower.html",
        "updated": max((e["updated"] for e in entries), default=iso(st.started)), "entries": entries})
