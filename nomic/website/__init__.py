"""The public website, built like Pelican: reader -> generators -> writer.

- ``reader``: one consistent read of state, events and list posts from the database.
- ``model``: who is who, which events a submission caused, rule page names.
- ``generators``/``archive``/``feeds``: pages as (path, template, plain context).
- ``writer``: renders with the templates in ``rendering/templates/site/`` and writes only what changed.

A build is cheap when little changed: pages are lazy behind plain keys (thousands at
once in a ``Family``), and a process that builds again (the daemon, every few seconds)
keeps what it learnt: new events only are read, keys are hashed only when they differ,
templates stay compiled, and rendered text and list tables are reused (see ``forget``).
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from nomic.website import archive, feeds, generators, text, writer
from nomic.website.model import SiteModel, build_model
from nomic.website.pages import Family, Page
from nomic.website.reader import read
from nomic.website.writer import WriteReport, Writer

if TYPE_CHECKING:
    from nomic.game import Game

__all__ = ["build", "forget", "pages"]


def pages(m: SiteModel) -> Iterator[Page | Family]:
    for generate in [*generators.GENERATORS, archive.archive, feeds.feeds]:
        yield from generate(m)


def build(game: "Game", out: Path, csp: bool = True) -> WriteReport:
    """Build the site of ``game`` into ``out``; only changed files are written.

    ``csp`` puts a Content-Security-Policy that forbids every script in each
    page: a second wall behind the sanitiser (the XSS tests turn it off to
    prove the sanitiser alone holds).
    """
    with _no_collection():
        data = read(game)
        writer = Writer(out, {"name": data.game["name"], "csp": csp,
                              "address": data.game["address"], "list_address": data.game["list_address"]})
        for item in pages(build_model(data)):
            writer.add(item)
        writer.static()
        return writer.finish()


def forget() -> None:
    """Drop what this process remembers of earlier builds by content (fingerprints, templates,
    fragments, rendered text); what it knows of a game's journal and of an output directory is
    checked against them each build, and stays."""
    writer.forget()
    text.markdown.cache_clear()
    text.inline.cache_clear()


@contextmanager
def _no_collection() -> Iterator[None]:
    """No cyclic garbage collection during a build.

    A build makes many small short-lived objects (keys, rows, pages) beside a large
    game state; each collection pass would walk that whole state again (in a game of
    10,000 submissions, over half of a rebuild's time). The few cycles a build leaves
    are collected afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
