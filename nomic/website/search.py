"""Full-text search with no server: a Pagefind index of the built site, in ``pagefind/``.

``nomic build`` makes it after the pages are written (and only when a page changed or there is no
index yet: Pagefind cannot add to an index, so a changed site is indexed whole). Pages say what
is indexed: ``data-pagefind-body`` on the main content of the pages that hold the game's texts (rules
with every version, matters, judgments, the ledger, the list's threads and messages; not navigation,
footers or listings, which repeat them and would double the index's cost), and
``data-pagefind-filter`` attributes of that ``<main>`` give the filters kind (rule, proposal,
post...), author and month. Pagefind is shown only those pages (hard links in a folder of its own),
so it does not parse every listing to find nothing there, and parses only their ``<main>`` (``ROOT``:
the head, header and footer were a third of its work on a matter's page); ``IGNORED`` and
``data-pagefind-ignore`` leave out, within them, what other indexed pages already hold. The search
page (``search.html``) runs Pagefind's own interface; every page's search box is a plain form that
leads there, so without JavaScript it is a link to that page, which then lists the site's indexes
instead.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from nomic.website.pages import Page

INDEX = "pagefind"  # the index's folder at the site's root (CONTRACT.md)
BODY = b"data-pagefind-body"  # on the <main> of the pages with text to index
ROOT = "main"  # all Pagefind parses of a page (the filters are attributes of <main>): not the head, header, footer
IGNORED = ".crumbs, .vote-links"  # navigation and mail-to links: no text of the game's, on every indexed page


class SearchError(Exception):
    """Pagefind could not index the site."""


@dataclass(frozen=True)
class SearchIndex:
    files: int
    bytes: int


def index(site: Path, timeout: float = 600) -> SearchIndex:
    """Index ``site`` into ``site/pagefind/``, replacing the index there only once the new one is whole.

    Each run writes into its own new folder, so two runs at once (the daemon's and an operator's
    ``nomic build``) never write into or remove each other's; one that takes over ``timeout``
    seconds is killed and fails."""
    new = Path(tempfile.mkdtemp(prefix=f".{INDEX}.new.", dir=site))
    old = new.with_name(new.name.replace(".new.", ".old."))
    view = Path(tempfile.mkdtemp(prefix=f".{INDEX}.view.", dir=site))
    try:
        _link_indexed(site, view)
        done = subprocess.run([sys.executable, "-m", "pagefind", "--site", str(view), "--output-path", str(new),
                               "--keep-index-url", "--silent", "--root-selector", ROOT,
                               "--exclude-selectors", IGNORED],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        shutil.rmtree(new, ignore_errors=True)
        raise SearchError(f"pagefind took over {timeout:g} s; killed") from None
    finally:
        shutil.rmtree(view, ignore_errors=True)
    if done.returncode != 0 or not (new / "pagefind.js").is_file():
        shutil.rmtree(new, ignore_errors=True)
        raise SearchError(f"pagefind failed: {(done.stderr or done.stdout).strip()[-500:]}")
    _swap(new, site / INDEX, old)
    files = [f for f in (site / INDEX).rglob("*") if f.is_file()]
    return SearchIndex(len(files), sum(f.stat().st_size for f in files))


def _link_indexed(site: Path, view: Path) -> None:
    """Link into ``view``, at the same paths, the pages of ``site`` that hold text to index: Pagefind
    then reads only those (it would parse every listing and player page to find none there). A page
    whose text merely mentions the marker is linked too, and Pagefind skips it as it would have."""
    for folder, subfolders, files in os.walk(site):
        here = Path(folder)
        subfolders[:] = [d for d in subfolders if not (d.startswith(".") or here == site and d == INDEX)]
        for name in files:
            page = here / name
            if not name.endswith(".html") or BODY not in page.read_bytes():
                continue
            linked = view / page.relative_to(site)
            linked.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(page, linked)
            except OSError:  # a file system without hard links
                shutil.copyfile(page, linked)


def _swap(new: Path, current: Path, old: Path, tries: int = 5) -> None:
    """Put ``new`` in place of ``current``; an overlapping run that put its own there first is
    moved aside in turn (a rename onto a folder that is not empty fails), so the last run wins."""
    for _ in range(tries):
        try:
            if current.exists():
                os.replace(current, old)
            os.replace(new, current)
            break
        except OSError:
            continue
        finally:
            shutil.rmtree(old, ignore_errors=True)
    shutil.rmtree(new, ignore_errors=True)


def page(_m: object) -> Iterator[Page]:
    """The search page (its form's target on every page)."""
    yield Page("search.html", "search.html")
