"""Full-text search with no server: a Pagefind index of the built site, in ``pagefind/``.

``nomic build`` makes it after the pages are written (and only when a page changed or there is no
index yet: Pagefind cannot add to an index, so a changed site is indexed whole). Pages say what
is indexed: ``data-pagefind-body`` on the main content of the pages that hold the game's texts (rules
with every version, matters, judgments, the ledger, the list's threads and messages; not navigation,
footers or listings, which repeat them and would double the index's cost), and
``data-pagefind-filter`` meta tags give the filters kind (rule, proposal, post...), author and
month. The search page (``search.html``) runs Pagefind's own interface; every page's search box
is a plain form that leads there, so without JavaScript it is a link to that page, which then
lists the site's indexes instead.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from nomic.website.pages import Page

INDEX = "pagefind"  # the index's folder at the site's root (CONTRACT.md)


class SearchError(Exception):
    """Pagefind could not index the site."""


@dataclass(frozen=True)
class SearchIndex:
    files: int
    bytes: int


def index(site: Path) -> SearchIndex:
    """Index ``site`` into ``site/pagefind/``, replacing the index there only once the new one is whole."""
    new, old = site / f".{INDEX}.new", site / f".{INDEX}.old"
    for leftover in (new, old):
        shutil.rmtree(leftover, ignore_errors=True)
    done = subprocess.run([sys.executable, "-m", "pagefind", "--site", str(site), "--output-path", str(new),
                           "--keep-index-url", "--silent"], capture_output=True, text=True, timeout=3600)
    if done.returncode != 0 or not new.is_dir():
        shutil.rmtree(new, ignore_errors=True)
        raise SearchError(f"pagefind failed: {(done.stderr or done.stdout).strip()[-500:]}")
    if (site / INDEX).exists():
        os.replace(site / INDEX, old)
    os.replace(new, site / INDEX)
    shutil.rmtree(old, ignore_errors=True)
    files = [f for f in (site / INDEX).rglob("*") if f.is_file()]
    return SearchIndex(len(files), sum(f.stat().st_size for f in files))


def page(_m: object) -> Iterator[Page]:
    """The search page (its form's target on every page)."""
    yield Page("search.html", "search.html")
