"""A page to be written: where it goes, which template renders it, and with what."""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Page:
    """``context`` may be a function, called only when the page must be rendered; such a page
    has a ``key`` that changes whenever its context would, so an unchanged page costs nothing."""
    path: str  # relative to the site root, "/"-separated
    template: str  # under templates/site/
    context: dict | Callable[[], dict] = field(default_factory=dict)
    key: str | None = None

    def make_context(self) -> dict:
        return self.context() if callable(self.context) else self.context

    @property
    def root(self) -> str:
        """The relative way back to the site root: links work from any path and from file://."""
        return "../" * self.path.count("/")


def key(*parts: object) -> str:
    """A stable key (not Python's per-process ``hash``) for what a lazy page is made from."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()
