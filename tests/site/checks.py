"""Checks over a built site: strict HTML5 parsing and internal links."""
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
    return {el.get("id") for el in parse(path).iter() if el.get("id")}


def links(doc: ElementTree.Element) -> list[str]:
    out = []
    for el in doc.iter():
        for attr in ("href", "src"):
            if el.get(attr) is not None:
                out.append(el.get(attr))
    return out


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
