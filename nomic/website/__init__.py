"""The public website, built like Pelican: reader -> model -> generators -> writer.

- ``reader``: one consistent read of state, events and list posts from a narrow source (``SiteSource``;
  nomic/site.py makes one of a game and is what callers build with).
- ``rulesets``: the game's ruleset's site package: its model (who is who, which events a matter
  caused, rule page names), its generators (pages as (path, template, plain context); the shared
  ones in ``shared``/``archive``) and its navigation.
- ``writer``: renders with the ruleset's templates, then the shared ones, and writes only what changed.

A build is cheap when little changed: pages are lazy behind plain keys (thousands at
once in a ``Family``), and a caller that builds again (the daemon, every few seconds)
passes the same ``SiteMemory``: new events only are read, keys are hashed only when they
differ, templates stay compiled, and rendered text and list tables are reused.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from nomic.website import mail_archive
from nomic.website.memory import SiteMemory
from nomic.website.reader import SiteSource, read
from nomic.website.rulesets import site_for
from nomic.website.search import due, index, mark, page as search_page
from nomic.website.writer import StaleKeys, WriteReport, Writer

if TYPE_CHECKING:
    from nomic.record_head import Head

__all__ = ["SiteMemory", "SiteSource", "StaleKeys", "WriteReport", "build"]


def build(source: SiteSource, out: Path, csp: bool = True, memory: SiteMemory | None = None,
          check: bool = False, search: bool = False) -> WriteReport:
    """Build the site of a game, read from ``source``, into ``out``; only changed files are written.

    ``memory``: what earlier builds of this site remembered (none: a fresh memory, as for a
    build from scratch); the caller keeps it for the next build. ``check``: render the pages an
    unchanged key would keep as well, and raise ``StaleKeys`` if any came out different.
    ``csp`` puts a Content-Security-Policy that forbids every script in each
    page: a second wall behind the sanitiser (the XSS tests turn it off to
    prove the sanitiser alone holds). ``search``: then index again with Pagefind (``search.py``) the
    shards of the search index with a page written or removed (every shard, if there is no index
    yet); the report's ``shards`` name those, for a caller that indexes apart (the daemon). Callers
    that build often run it inside ``nomic.tuning.no_collection()``.
    """
    memory = memory if memory is not None else SiteMemory()
    data = read(source, memory)
    ruleset = data.state.ruleset
    parts = site_for(ruleset)
    writer = Writer(out, {"name": data.game["name"], "csp": csp, "address": data.game["address"],
                          "list_address": data.game["list_address"], "nav": [list(n) for n in parts.nav],
                          "feeds": [list(f) for f in parts.feeds], "record": _footer(data.record)},
                    ruleset, memory, check)
    model = parts.model(data, memory)
    for generate in (*parts.generators, mail_archive.generate, search_page):
        for item in generate(model):
            writer.add(item)
    writer.static()
    report = writer.finish()
    if search:
        mark(out, report.shards)
        if due(out):
            report.search = index(out)
    return report


def _footer(record: "Head | None") -> dict | None:
    """What every page's footer names of the public record: it changes with each clock step (not
    with each mail, or every page would be written again after every message)."""
    return None if record is None else {"count": record.count, "hash": record.hash, "journal_hash": record.journal_hash}
