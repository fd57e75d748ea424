"""Which shard of the search index each ruleset's indexed pages are in: numbered pages in blocks of
1,000 of their kind, posts and messages by their month, any other page by its name; a page that is
not indexed is in none, and player text cannot move a page to another month's shard."""
from __future__ import annotations

import pytest

from nomic.website.shards import shard_of


def page(month: str | None = None, text: str = "") -> bytes:
    """A page as the site's templates write it: its filters are attributes of its <main>."""
    filters = f' data-pagefind-filter="kind[data-kind], month[data-month]" data-kind="post" data-month="{month}"' \
        if month else ""
    return f'<html><head></head><body><main id="main" data-pagefind-body{filters}>{text}</main></body></html>'.encode()


@pytest.mark.parametrize("path, html, shard", [
    ("submissions/999.html", page("2026-01"), "submissions-0"),  # Imperial
    ("submissions/1000.html", page("2026-03"), "submissions-1"),
    ("rules/8.html", page(), "rules-0"),
    ("rules/8-2.html", page(), "rules-0"),  # a second rule 8
    ("ledger-3.html", page(), "ledger-0"),
    ("proposals/301.html", page("2026-01"), "proposals-0"),  # Suber
    ("rules/2105.html", page(), "rules-2"),
    ("judgments.html", page(), "judgments"),
    ("matters/12345.html", page("2026-02"), "matters-12"),  # BlogNomic
    ("rules/1.2.html", page(), "rules"),  # B Nomic: rules by their labels
    ("rules/r5-2.html", page(), "rules"),
    ("list/thread-14.html", page("2026-01"), "list-2026-01"),  # every ruleset's list and public mail
    ("m/cake-talk@test/index.html", page("2025-12"), "m-2025-12"),
    ("submissions/index.html", b"<html><body><main id=\"main\">listing</main></body></html>", None),
    ("m/x@test/message.eml", page("2026-01"), None),
])
def test_each_indexed_page_has_its_shard(path: str, html: bytes, shard: str | None) -> None:
    assert shard_of(path, html) == shard


def test_player_text_cannot_name_another_month() -> None:
    forged = '&lt;main data-month=&#34;1999-01&#34;&gt; data-month=&#34;1999-01&#34;'
    assert shard_of("m/x@test/index.html", page(None, forged)) == "m"
    assert shard_of("m/x@test/index.html", page("2026-01", forged)) == "m-2026-01"
    # nor can a name, in an attribute of <main> before the month: its quotes are escaped
    author = b' data-author="Eve &#34; data-month=&#34;1999-01"'
    assert shard_of("m/x@test/index.html", page("2026-01").replace(b" data-month", author + b" data-month")) == "m-2026-01"
