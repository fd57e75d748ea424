"""Which shard of the search index a page is in (nomic/website/search.py indexes each shard apart).

Pagefind cannot add to an index, so the site's index is cut into shards, each its own bundle, and a
rebuild indexes again only the shards holding a page it wrote or removed. A page's shard follows from
its path and its own bytes alone, so the writer names it as it writes the page (the manifest keeps
it) and it never changes while the page does not:

- a numbered page (``submissions/1234.html``, ``matters/7.html``, ``rules/8.html``, ``rules/8-2.html``,
  ``ledger-3.html``) is in the block of ``BLOCK`` numbers of its kind (``submissions-1``);
- a page with a month (its search filter: the list's threads and messages, ``m/<message-id>/``) is
  in its folder's month (``m-2026-01``);
- any other page is in its first folder's or its own name's shard (``rules``, ``judgments``).

So a shard's size is bounded by the block, or by one month's mail, not by the size of the game.
"""
from __future__ import annotations

import re

BODY = b"data-pagefind-body"  # on the <main> of the pages with text to index
BLOCK = 1000  # numbered pages per shard: a re-index after one new Proposal reads at most this many
NUMBERED = re.compile(r"([a-z]+)[/-]([0-9]+)(?:-[^/]*)?\.html")  # rules/8-2.html: a second rule 8
MONTH = re.compile(rb'<main [^>]*\sdata-month="([0-9]{4}-[0-9]{2})"')


def shard_of(path: str, html: bytes) -> str | None:
    """The shard of the page at ``path`` (from the site's root) with these bytes; None if it is not
    indexed. (Player text cannot forge the month's attribute on ``<main>``: its quotes are escaped.)"""
    if not path.endswith(".html") or BODY not in html:
        return None
    numbered = NUMBERED.fullmatch(path)
    if numbered:
        return f"{numbered[1]}-{int(numbered[2]) // BLOCK}"
    top = re.sub(r"[^a-z0-9]+", "-", path.partition("/")[0].removesuffix(".html").lower()).strip("-") or "pages"
    month = MONTH.search(html)
    return f"{top}-{month[1].decode()}" if month else top
