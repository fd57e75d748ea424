"""Checks over a built site: strict HTML5 parsing, internal links, and what a reader sees of an element."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

import html5lib


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
            if not target.is_file() or site.resolve() not in target.parents:
                broken.append(where)
                continue
            if parts.fragment and target.suffix == ".html":
                if target not in id_cache:
                    id_cache[target] = ids(target)
                if parts.fragment not in id_cache[target]:
                    broken.append(where + " (no such anchor)")
    return broken


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
