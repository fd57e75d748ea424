"""The players' list archive, threaded by In-Reply-To/References like a mail reader.

The threads are kept across builds (``posts.Threads``): a rebuild looks at the threads a new
post joined, not at every post."""
from __future__ import annotations

import hashlib
from collections.abc import Iterator

import orjson

from nomic.website.model import SiteModel
from nomic.website.pages import Family, Page
from nomic.website.posts import Threads
from nomic.website.reader import ListPost
from nomic.website.text import when


def post(m: SiteModel, depth: int, p: ListPost) -> dict:
    return {"id": f"post-{p.seq}", "depth": min(depth, 6), "at": when(p.at),
            "subject": m.text.inline(p.subject or "(no subject)"),
            "author": m.poster(p),
            "text": m.text.markdown(p.text)}


def archive(m: SiteModel) -> Iterator[Page | Family]:
    kept = m.data.threads
    kept.update(m.data.posts, _posters(m))
    yield Family("list threads", "thread.html", list(kept.pages),
                 list(kept.keys), lambda i: _thread(m, kept.walk(i)), changes=(kept.since, kept.version, kept.changed))
    yield Page("list/index.html", "archive.html", lambda: _listing(m, kept),
               key=(kept.count, m.data.posts[-1].seq if m.data.posts else None, kept.token,
                    m.data.game["list_address"], m.data.game["address"]))


def _posters(m: SiteModel) -> str:
    """What the archive shows of who wrote each post (``SiteModel.poster``): players' names and the
    offices' labels, as one digest (a change to any name makes every thread's page again)."""
    return hashlib.sha256(orjson.dumps([m.people.names, m.people.offices], option=orjson.OPT_SORT_KEYS)).hexdigest()


def _thread(m: SiteModel, posts: list[tuple[int, ListPost]]) -> dict:
    root = posts[0][1]
    return {"subject": root.subject or "(no subject)", "posts": [post(m, d, p) for d, p in posts]}


def _listing(m: SiteModel, kept: Threads) -> dict:
    listing = [{"href": f"thread-{root.seq}.html", "subject": m.text.inline(root.subject or "(no subject)"),
                "posts": len(posts), "last": when(max(p.at for _, p in posts)), "started_by": m.poster(root)}
               for root, posts in kept.threads()]
    return {"threads": listing, "list_address": m.data.game["list_address"], "game_address": m.data.game["address"]}
