"""The players' list archive, threaded by In-Reply-To/References like a mail reader."""
from __future__ import annotations

from collections.abc import Iterator

from nomic.website.model import SiteModel
from nomic.website.pages import Page
from nomic.website.reader import ListPost
from nomic.website.text import when


def threads(posts: list[ListPost]) -> list[tuple[ListPost, list[tuple[int, ListPost]]]]:
    """Each thread's root and its posts as (depth, post) in reading order.

    A post's parent is the nearest message it references that the archive
    holds; a post with none starts a thread. Threads are ordered by their
    latest post, newest first.
    """
    by_id = {p.message_id: p for p in posts}
    children: dict[str, list[ListPost]] = {}
    roots = []
    for p in posts:
        parent = next((r for r in p.references if r in by_id and r != p.message_id), None)
        if parent is None:
            roots.append(p)
        else:
            children.setdefault(parent, []).append(p)

    def walk(p: ListPost, depth: int) -> Iterator[tuple[int, ListPost]]:
        yield depth, p
        for c in children.get(p.message_id, []):
            yield from walk(c, depth + 1)

    out = [(r, list(walk(r, 0))) for r in roots]
    out.sort(key=lambda t: max(p.seq for _, p in t[1]), reverse=True)
    return out


def _post(m: SiteModel, depth: int, p: ListPost) -> dict:
    return {"id": f"post-{p.seq}", "depth": min(depth, 6), "at": when(p.at),
            "subject": m.text.inline(p.subject or "(no subject)"),
            "author": m.people.name(p.sender) if p.sender in m.people.names else (p.name or p.sender.split("@")[0]),
            "text": m.text.markdown(p.text)}


def archive(m: SiteModel) -> Iterator[Page]:
    listing = []
    for root, posts in threads(m.data.posts):
        path = f"list/thread-{root.seq}.html"
        listing.append({"href": f"thread-{root.seq}.html", "subject": m.text.inline(root.subject or "(no subject)"),
                        "posts": len(posts), "last": when(max(p.at for _, p in posts)),
                        "started_by": _post(m, 0, root)["author"]})
        yield Page(path, "thread.html", {"subject": root.subject or "(no subject)",
                                         "posts": [_post(m, d, p) for d, p in posts]})
    yield Page("list/index.html", "archive.html", {"threads": listing,
                                                   "list_address": m.data.game["list_address"],
                                                   "game_address": m.data.game["address"]})
