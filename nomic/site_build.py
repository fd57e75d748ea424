"""``nomic build``: the static website (see nomic/website/)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from nomic.website import build

if TYPE_CHECKING:
    from nomic.game import Game


def build_site(game: "Game", out: Path) -> int:
    """Render the site into ``out``; returns the number of pages the site holds."""
    return build(game, out).pages
