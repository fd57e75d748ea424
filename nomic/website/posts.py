"""The players' list posts as threads, like a mail reader: by In-Reply-To/References."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nomic.website.reader import ListPost


def threads(posts: list[ListPost]) -> list[tuple[ListPost, list[tuple[int, ListPost]]]]:
    """Each thread's root and its posts as (depth, post) in reading order.

    A post's parent is the nearest message it references that the archive
    holds; a post with none starts a thread. Threads are ordered by their
    latest post, newest first.
    """
    kept = Threads()
    kept.update(posts, None)
    return kept.threads()


@dataclass
class Threads:
    """The threads of ``threads``, kept across builds (the reader's ``Known``) and brought up to
    date by ``update`` with the posts that are new (posts are only ever added to).

    A new post is placed as ``threads`` would place it unless it changes where an older post
    belongs (an older post referenced its Message-ID, or a post has it already): then all are
    placed again (and at every update, once two posts share a Message-ID). Threads keep their place (``roots``) in the order they started; ``keys`` says
    what each is made of (its root, size, latest post and ``token``: what the caller's pages
    show of their posters); ``pages`` each one's page, by place (made once each); ``changed``, ``since``
    and ``version`` as ``Family.changes`` wants.
    """
    posts: list[ListPost] | None = None  # the list read in (the reader's, only added to)
    count: int = 0
    token: object = None
    roots: list[ListPost] = field(default_factory=list)
    keys: list[tuple] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)
    changed: set[int] = field(default_factory=set)
    version: object = field(default_factory=object)
    since: object = None
    _by_id: dict[str, ListPost] = field(default_factory=dict)
    _children: dict[str, list[ListPost]] = field(default_factory=dict)
    _place: dict[str, int] = field(default_factory=dict)  # each post's thread, by Message-ID
    _referenced: set[str] = field(default_factory=set)
    _walks: dict[int, list[tuple[int, ListPost]]] = field(default_factory=dict)

    def update(self, posts: list[ListPost], token: object) -> None:
        """Read in ``posts[count:]``; with a new ``token``, every thread changes."""
        fresh = posts is not self.posts or len(posts) < self.count or len(self._by_id) < self.count or any(
            p.message_id in self._referenced or p.message_id in self._by_id for p in posts[self.count:])
        changed = self._place_all(posts) if fresh else {
            place for p in posts[self.count:] if (place := self._add(p)) is not None}
        if token != self.token or fresh:
            changed = set(range(len(self.roots)))
        self.posts, self.count, self.token = posts, len(posts), token
        self.keys.extend([()] * (len(self.roots) - len(self.keys)))
        self.pages.extend(f"list/thread-{root.seq}.html" for root in self.roots[len(self.pages):])
        for i in changed:
            self._walks.pop(i, None)
            walk = self.walk(i)
            self.keys[i] = (self.roots[i].seq, len(walk), max(p.seq for _, p in walk), token)
        self.changed = changed
        self.since, self.version = (None if fresh else self.version), object()

    def walk(self, i: int) -> list[tuple[int, ListPost]]:
        """Thread ``i``'s posts as (depth, post), in reading order."""
        made = self._walks.get(i)
        if made is None:
            made = self._walks[i] = self._walk(self.roots[i])
        return made

    def threads(self) -> list[tuple[ListPost, list[tuple[int, ListPost]]]]:
        """As ``threads`` gives them: by their latest post, newest first."""
        out = [(root, self.walk(i)) for i, root in enumerate(self.roots)]
        out.sort(key=lambda t: max(p.seq for _, p in t[1]), reverse=True)
        return out

    def _place_all(self, posts: list[ListPost]) -> set[int]:
        self._by_id = {p.message_id: p for p in posts}
        self.roots, self.keys, self.pages = [], [], []
        self._children, self._place, self._referenced, self._walks = {}, {}, set(), {}
        for p in posts:
            self._referenced.update(p.references)
            parent = self._parent(p)
            if parent is None:
                self.roots.append(p)
            else:
                self._children.setdefault(parent, []).append(p)
        for i in range(len(self.roots)):
            for _, p in self.walk(i):
                self._place.setdefault(p.message_id, i)
        return set(range(len(self.roots)))

    def _parent(self, p: ListPost) -> str | None:
        return next((r for r in p.references if r in self._by_id and r != p.message_id), None)

    def _add(self, p: ListPost) -> int | None:
        """Place a new post (the place of its thread; None if it is in none, as a reply to posts
        that reply to each other is not)."""
        parent = self._parent(p)
        self._by_id[p.message_id] = p
        self._referenced.update(p.references)
        if parent is None:
            self.roots.append(p)
            place: int | None = len(self.roots) - 1
        else:
            self._children.setdefault(parent, []).append(p)
            place = self._place.get(parent)
        if place is not None:
            self._place[p.message_id] = place
        return place

    def _walk(self, root: ListPost) -> list[tuple[int, ListPost]]:
        """``root``'s thread depth first, each post before its replies in their order; by a stack, not
        recursion: a chain of thousands of replies is a thread like any other."""
        out: list[tuple[int, ListPost]] = []
        stack = [(0, root)]
        while stack:
            depth, p = stack.pop()
            out.append((depth, p))
            stack.extend((depth + 1, c) for c in reversed(self._children.get(p.message_id, [])))
        return out
