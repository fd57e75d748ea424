"""Checks over a built site: strict HTML5 parsing, internal links, and what a reader sees of an element."""
from __future__ import annotations

import json
from itertools import count
from pathlib import Path
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

import html5lib

from nomic.game import Game
from nomic.site import build
from nomic.website import SiteMemory


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def parse(path: Path) -> ElementTree.Element:
    """Parse strictly: any HTML5 parse error raises."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(path.read_bytes())


def ids(path: Path) -> set[str]:
    return {el.get("id", "") for el in parse(path).iter() if el.get("id")}


def links(doc: ElementTree.Element) -> list[str]:
    return [value for el in doc.iter() for value in (el.get("href"), el.get("src")) if value is not None]


def broken_links(site: Path) -> list[str]:
    """Every internal link that does not resolve to a file (and an id, for #fragments)."""
    broken, id_cache = [], {}
    for page in pages(site):
        for href in links(parse(page)):
            parts = urlsplit(href)
            if parts.scheme or parts.netloc:
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            where = f"{page.relative_to(site)} -> {href}"
            if site / "pagefind" in target.parents and not (site / "pagefind").exists():
                continue  # the search index: nomic build makes it, not website.build (tests/site/test_search.py)
            if not target.is_file() or site.resolve() not in target.parents:
                broken.append(where)
                continue
            if parts.fragment and target.suffix == ".html":
                if target not in id_cache:
                    id_cache[target] = ids(target)
                if parts.fragment not in id_cache[target]:
                    broken.append(where + " (no such anchor)")
    return broken


def _tag(el: ElementTree.Element) -> str:
    return str(el.tag).rsplit("}", 1)[-1]


def site_own(doc: ElementTree.Element, page: Path, site: Path) -> set[ElementTree.Element]:
    """The site's own form and scripts, which player text may never make: the search box of every
    page (a form, its label, input and button, exactly), and the search page's two scripts."""
    forms = [f for f in doc.iter() if _tag(f) == "form" and f.get("class") == "search"]
    root = "../" * (len(page.relative_to(site).parts) - 1)
    assert [f.get("action") for f in forms] == [f"{root}search.html"], page
    assert [(_tag(e), e.get("type"), e.get("name")) for e in forms[0].iter() if _tag(e) in ("input", "button")] == [
        ("input", "search", "q"), ("button", "submit", None)], page
    own = {forms[0], *forms[0].iter()}
    if page == site / "search.html":
        scripts = [e for e in doc.iter() if _tag(e) == "script"]
        assert [e.get("src") for e in scripts] == ["pagefind/pagefind-ui.js", "static/search.js"]
        own.update(scripts)
    return own


def words(el: ElementTree.Element | None) -> str:
    assert el is not None
    return " ".join("".join(el.itertext()).split())


def facts(dl: ElementTree.Element | None) -> dict[str, str]:
    """A definition list as {term: description}."""
    assert dl is not None
    return {words(d.find("dt")): words(d.find("dd")) for d in dl}


def rows(table: ElementTree.Element | None) -> list[tuple[str, ...]]:
    """A table's body rows, cell by cell."""
    body = None if table is None else table.find("tbody")
    assert body is not None
    return [tuple(words(td) for td in tr) for tr in body]


def files(site: Path) -> dict[str, object]:
    """Every file's bytes; the manifest's parts (bookkeeping, not the site) as what they record."""
    return {p.relative_to(site).as_posix(): json.loads(p.read_bytes()) if p.parent.name == ".manifest"
            else p.read_bytes() for p in site.rglob("*") if p.is_file()}


class Rebuilds:
    """A game's site rebuilt after each step with one memory, as the daemon does; each rebuild is a
    check build (a page kept by its key must render to the same bytes) and must come out byte for
    byte as a full build from scratch (a fresh memory, an empty directory)."""

    def __init__(self, game: Path, out: Path) -> None:
        self.game, self.out, self.memory, self.builds = game, out, SiteMemory(), count(1)

    def build(self) -> Path:
        build(Game(self.game), self.out, memory=self.memory, check=True)
        fresh = self.out.with_name(f"{self.out.name}-fresh-{next(self.builds)}")
        build(Game(self.game), fresh, memory=SiteMemory())
        assert files(self.out) == files(fresh)
        return self.out
