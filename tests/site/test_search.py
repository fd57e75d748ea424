"""Search: ``nomic build`` indexes the site with Pagefind; the search box of any page leads to the
search page, which finds rules (every version), matters by their author and list posts by a phrase;
without JavaScript the box is a plain link to a page of the site's indexes."""
from __future__ import annotations

import gzip
import json
import os
import re
import time
from pathlib import Path

import pytest

from nomic.game import Game
from nomic.site import build
from tests.site import browser
from tests.site.game import CAROL, play_days
from tests.support import at

GIVE_UP = 60  # seconds a search may take on a loaded machine before the test gives up (not a speed test)


def pages_with_main(site: Path) -> list[Path]:
    return [p for p in site.rglob("*.html") if "<main" in p.read_text() and "pagefind" not in p.parts]


def test_every_page_has_the_search_box_and_the_pages_of_texts_are_indexed(site):
    pages = pages_with_main(site)
    assert len(pages) > 50
    indexed = []
    for page in pages:
        text = page.read_text()
        root = "../" * (len(page.relative_to(site).parts) - 1)
        assert f'<form class="search" role="search" action="{root}search.html" method="get">' in text, page
        if re.search(r'<main id="main" data-pagefind-body[ >]', text):
            indexed.append(str(page.relative_to(site)))
    kinds = sorted({re.sub(r"[^/]*\.html$", "", p).split("/")[0] or p for p in indexed})
    assert kinds == ["ledger-1.html", "list", "m", "rules", "submissions"]
    assert "rules/index.html" not in indexed and "submissions/index.html" not in indexed
    assert (site / "pagefind/pagefind-ui.js").is_file()
    shards = json.loads((site / "pagefind/shards.json").read_bytes())  # each a bundle, all merged by the search page
    assert shards == ["ledger-0", "list-2026-01", "m-2026-01", "rules-0", "submissions-0"]
    assert all((site / "pagefind" / s / "pagefind-entry.json").is_file() for s in shards)
    assert os.listdir(site / "pagefind/.stale") == []  # every shard marked was indexed


def test_pages_carry_the_filters_kind_author_and_month_on_their_main(site):
    """On ``<main>``: Pagefind is given --root-selector main and reads nothing outside it."""
    def filters(path: str) -> list[tuple[str, str]]:
        main = re.search(r"<main [^>]*>", (site / path).read_text())[0]
        named = re.search(r'data-pagefind-filter="([^"]*)"', main)[1].split(", ")
        return [(name, re.search(rf'{attribute}="([^"]*)"', main)[1])
                for name, attribute in (re.fullmatch(r"(\w+)\[([\w-]+)\]", f).groups() for f in named)]
    assert filters("rules/8.html") == [("kind", "rule")]
    assert filters("submissions/4.html") == [("kind", "proposal"), ("author", "Dave"), ("month", "2026-01")]
    assert filters("m/cake-talk@test/index.html") == [("kind", "post"), ("author", "alice via Test Nomic"),
                                                     ("month", "2026-01")]


def test_the_index_files_each_matter_under_its_filters(site):
    """Pagefind reads the filters where the pages put them (it parses nothing outside ``<main>``)."""
    records = {}
    for fragment in site.glob("pagefind/**/fragment/*.pf_fragment"):  # one bundle, or one per shard
        raw = gzip.decompress(fragment.read_bytes())  # "pagefind_dcd" and the record in JSON
        record = json.loads(raw[raw.index(b"{"):])
        records[record["url"]] = record
    assert records["/submissions/4.html"]["filters"] == {"kind": ["proposal"], "author": ["Dave"], "month": ["2026-01"]}
    assert records["/submissions/4.html"]["meta"]["title"].startswith("Proposal 4: Float free")
    assert records["/rules/8.html"]["filters"] == {"kind": ["rule"]}
    assert records["/m/cake-talk@test/index.html"]["filters"]["author"] == ["alice via Test Nomic"]


def test_without_javascript_the_search_page_lists_the_indexes(site):
    text = (site / "search.html").read_text()
    noscript = text[text.index("<noscript>"):text.index("</noscript>")]
    assert '<a href="rules/index.html">' in noscript and '<a href="list/index.html">' in noscript
    assert "script-src 'self' 'wasm-unsafe-eval'" in text
    assert "script-src 'none'" in (site / "index.html").read_text()  # no other page may run a script


def search(page: browser.Tab, base: str, words: str, want: str) -> str:
    """Type ``words`` into the search box of the home page, press Enter, and read the results
    (asking for more until ``want`` shows or there are no more)."""
    page.goto(base + "index.html")
    page.type_into("#search-box", words)
    page.press_enter()
    assert page.wait_for("Page.loadEventFired", 30), page.console()
    end = time.monotonic() + GIVE_UP
    while want not in (text := page.text()) and time.monotonic() < end:
        page.call("Runtime.evaluate", expression="document.querySelector('.pagefind-ui__button')?.click()")
        page.wait_for("no such event", 0.5)
    return text


@pytest.mark.skipif(browser.binary() is None, reason="chromium is not installed")
@pytest.mark.sqlite_only
def test_the_search_box_finds_a_rule_by_its_second_version_a_proposal_by_its_author_and_a_post(site):
    rule8 = (site / "rules/8.html").read_text()
    first_version = rule8[rule8.index('id="v1"'):]
    assert "without" in rule8 and "without" not in first_version  # a word of version 2 only
    with browser.serve(site) as base, browser.tab() as page:
        assert "Rule 8. Titular Consistency" in search(page, base, "without", "Rule 8. Titular Consistency")
        assert "Proposal 4: Float free" in search(page, base, "Dave", "Proposal 4: Float free")
        assert "Cake talk" in search(page, base, "Who likes lemon", "Cake talk")
        assert [m for m in page.console() if "Content Security Policy" in m] == []


def bundles(site: Path) -> dict[str, dict[str, tuple[int, int]]]:
    """Each shard's bundle: its files with their inodes and modification times."""
    shards = json.loads((site / "pagefind/shards.json").read_bytes())
    return {shard: {f.relative_to(site).as_posix(): (f.stat().st_ino, f.stat().st_mtime_ns)
                    for f in (site / "pagefind" / shard).rglob("*")} for shard in shards}


@pytest.mark.skipif(browser.binary() is None, reason="chromium is not installed")
@pytest.mark.sqlite_only
def test_after_one_more_proposal_only_its_shards_are_indexed_again_and_it_is_found(make_play, tmp_path):
    play = make_play(day_mode="fixed")
    play_days(play)
    out = tmp_path / "public"
    play.cli("build", "--out", str(out))
    before = bundles(out)
    play.send(CAROL, "Proposal: More bells", "Bells at noon, and marzipan for the ringers.", at=at(4, 2),
              name="Carol")
    report = build(Game(play.dir), out, search=True)
    after = bundles(out)
    assert sorted(after) == sorted(before) == ["ledger-0", "list-2026-01", "m-2026-01", "rules-0", "submissions-0"]
    # its page (and the "next" link of Proposal 7's), and its announcement to the list; no other bundle is touched
    assert sorted(s for s in after if after[s] != before[s]) == ["m-2026-01", "submissions-0"]
    assert report.search is not None and (report.search.shards, report.search.pages) == (2, 21 + 8)
    assert os.listdir(out / "pagefind/.stale") == []
    with browser.serve(out) as base, browser.tab() as page:
        assert "Proposal 8: More bells" in search(page, base, "marzipan", "Proposal 8: More bells")
        assert "Rule 8. Titular Consistency" in search(page, base, "without", "Rule 8. Titular Consistency")
        kinds = page.call("Runtime.evaluate", returnByValue=True, expression=(
            "Array.from(document.querySelectorAll('fieldset')).filter(f => f.querySelector('legend')?.textContent"
            ".trim() === 'kind').flatMap(f => Array.from(f.querySelectorAll('label'), l => l.textContent.trim()))"))
        # the filters of every shard, merged: rules, submissions, and the list's posts and announcements
        assert {re.sub(r" \(\d+\)$", "", k) for k in kinds["result"]["value"]} == {
            "announcement", "point of order", "post", "proposal", "rule"}
