"""A page to be written: where it goes, which template renders it, and with what."""
from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field


@dataclass(slots=True)
class Page:
    """``context`` may be a function, called only when the page must be rendered; such a page
    has a ``key`` that changes whenever its context would, so an unchanged page costs nothing.

    A key is plain data (str, int, bool, None, datetime, tuples and lists of those) whose
    ``==`` agrees with its JSON: the writer compares it with the previous build's key and
    hashes it only when it differs, so one place in a key must not hold 1 in one build and
    True or 1.0 in another.
    """
    path: str  # relative to the site root, "/"-separated
    template: str  # site/<template>: the ruleset's (rendering/templates/<ruleset>/site/), else the shared
    context: dict | Callable[[], dict] = field(default_factory=dict)
    key: object = None

    def make_context(self) -> dict:
        return self.context() if callable(self.context) else self.context

    @property
    def root(self) -> str:
        """The relative way back to the site root: links work from any path and from file://."""
        return "../" * self.path.count("/")


@dataclass(slots=True)
class Family:
    """Pages made alike, one per item (each submission's page, each player's): one template, paths
    at one depth, and a key per member (as for ``Page``). The writer compares the members' keys
    with the previous build's all at once, so an unchanged member costs next to nothing, and
    calls ``context(i)`` only for a member it renders.

    ``changes``, where the caller knows them: (since, now, places): the paths and keys are those
    the family had at version ``since`` (any object, compared by identity) but at ``places`` and
    beyond ``since``'s length; they are version ``now``. The writer then compares no others.

    ``data``, for files written as bytes (as ``RawFile``): member i's bytes; ``template`` and
    ``context`` are then not used.
    """
    name: str  # the family's own, among all families
    template: str
    paths: list[str]
    keys: Sequence[object]
    context: Callable[[int], dict]
    changes: tuple[object, object, Collection[int]] | None = None
    data: Callable[[int], bytes] | None = None

    @property
    def root(self) -> str:
        return "../" * self.paths[0].count("/") if self.paths else ""

    def page(self, i: int) -> Page:
        return Page(self.paths[i], self.template, lambda: self.context(i), self.keys[i])


@dataclass(frozen=True, slots=True)
class Fragment:
    """Part of a page rendered by a macro of ``site/<template>`` and kept across pages and builds:
    when a page changes around it (a list page's block links), it is not rendered again.
    ``key`` is plain data that determines what ``args()`` gives (as for a page's key)."""
    macro: str
    key: object
    args: Callable[[], tuple] = field(compare=False)
    template: str = "macros.html"


@dataclass(frozen=True, slots=True)
class RawFile:
    """A file written as bytes, not rendered (an archived message, a month's mbox): ``data()`` is
    called only when ``key`` (plain data, as for a page's) differs from the last build's."""
    path: str
    key: object
    data: Callable[[], bytes] = field(compare=False)
