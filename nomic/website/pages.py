"""A page to be written: where it goes, which template renders it, and with what."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Page:
    path: str  # relative to the site root, "/"-separated
    template: str  # under templates/site/
    context: dict = field(default_factory=dict)

    @property
    def root(self) -> str:
        """The relative way back to the site root: links work from any path and from file://."""
        return "../" * self.path.count("/")
