"""The players' list archive, threaded by In-Reply-To/References like a mail reader."""
from __future__ import annotations

from collections.abc import Iterator

from nomic.website.model import SiteModel
from nomic.website.posts import threads
from nomic.website.pages import Page
from nomic.website.reader import ListPost
from nomic.website.text import when


def post(m: SiteModel, depth: int, p: ListPost) -> dict:
    return {"id": f"post-{p.seq}", "depth": min(depth, 6), "at": when(p.at),
            "subject": m.text.inline(p.subject or "(no subject)"),
            "author": m.poster(p),
            "text": m.text.markdown(p.text)}


def archive(m: SiteModel) -> Iterator[Page]:
    listing = []
    for root, posts in threads(m.data.posts):
        path = f"list/thread-{root.seq}.html"
        listing.append({"href": f"thread-{root.seq}.html", "subject": m.text.inline(root.subject or "(no subject)"),
                        "posts": len(posts), "last": when(max(p.at for _, p in posts)),
                        "started_by": post(m, 0, root)["author"]})
        yield Page(path, "thread.html", {"subject": root.subject or "(no subject)",
                                         "posts": [post(m, d, p) for d, p in posts]})
    yield Page("list/index.html", "archive.html", {"threads": listing,
                                                   "list_address": m.data.game["list_address"],
                                                   "game_address": m.data.game["address"]})
