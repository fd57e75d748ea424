"""Atom feeds of an Imperial game: its submissions and the Bell Tower's chimes."""
from __future__ import annotations

from collections.abc import Iterator

from markupsafe import Markup

from nomic.website.feeds import LATEST, base, feed, tag
from nomic.website.imperial.model import ImperialModel, day_summary
from nomic.website.pages import Page
from nomic.website.reader import EventRecord
from nomic.website.text import iso


def _notes(e: EventRecord) -> str:
    """A chime's notes as an HTML list (escaped again by the template: Atom's type="html")."""
    notes = day_summary(e)[2]
    return str(Markup("<ul>{}</ul>").format(Markup("").join(Markup("<li>{}</li>").format(n) for n in notes))) \
        if notes else ""


def feeds(m: ImperialModel) -> Iterator[Page]:
    b, st = base(m), m.state
    entries = [{"id": tag(m, f"submission/{s.number}"), "href": f"{b}submissions/{s.number}.html",
                "title": f"{s.number}. {s.title or '(no title)'} ({s.status})",
                "updated": iso(s.judged_at or s.received_at or st.started),
                "author": m.people.name(s.author), "content": str(m.text.markdown(s.text))}
               for s in st.submissions[:-LATEST - 1:-1]]
    yield feed(m, "submissions", "submissions", "submissions/index.html", entries)
    entries = [{"id": tag(m, f"chime/{e.data.get('day')}/{e.id}"), "href": f"{b}bell-tower.html#chime-{e.id}",
                "title": f"Day {e.data.get('day')} ends, day {e.data.get('new_day')} begins",
                "updated": iso(e.at), "author": "The Humble Scribe", "content": _notes(e)}
               for e in reversed(m.data.of_kind("day_end")[-LATEST:])]
    yield feed(m, "chimes", "the Bell Tower", "bell-tower.html", entries)
