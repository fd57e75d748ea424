"""The players' list posts as threads, like a mail reader: by In-Reply-To/References."""
from __future__ import annotations

from collections.abc import Iterator

from nomic.website.reader import ListPost


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
