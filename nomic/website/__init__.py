"""The public website, built like Pelican: reader -> generators -> writer.

- ``reader``: one consistent read of state, events and list posts from the database.
- ``model``: who is who, which events a submission caused, rule page names.
- ``generators``/``archive``/``feeds``: pages as (path, template, plain context).
- ``writer``: renders with the templates in ``templates/site/`` and writes only what changed.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from nomic.website import archive, feeds, generators
from nomic.website.model import SiteModel, build_model
from nomic.website.pages import Page
from nomic.website.reader import read
from nomic.website.writer import WriteReport, Writer

if TYPE_CHECKING:
    from nomic.game import Game

__all__ = ["build", "pages"]


def pages(m: SiteModel) -> Iterator[Page]:
    for generate in [*generators.GENERATORS, archive.archive, feeds.feeds]:
        yield from generate(m)


def build(game: "Game", out: Path, csp: bool = True) -> WriteReport:
    """Build the site of ``game`` into ``out``; only changed files are written.

    ``csp`` puts a Content-Security-Policy that forbids every script in each
    page: a second wall behind the sanitiser (the XSS tests turn it off to
    prove the sanitiser alone holds).
    """
    data = read(game)
    writer = Writer(out, {"name": data.game["name"], "csp": csp,
                          "address": data.game["address"], "list_address": data.game["list_address"]})
    for page in pages(build_model(data)):
        writer.page(page)
    writer.static()
    return writer.finish()
