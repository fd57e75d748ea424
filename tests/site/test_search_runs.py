"""Pagefind runs that overlap (the daemon's rebuild and an operator's ``nomic build``) each finish
with a whole index and leave nothing behind; the daemon's runs go beside the fold, one at a time;
a shard is marked with its pages and indexed again alone."""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from nomic.daemon import Indexer
from nomic.website.search import INDEX, due, index, mark


def small_site(root: Path, pages: int = 3) -> Path:
    site = root / "site"
    site.mkdir()
    for n in range(pages):
        (site / f"p{n}.html").write_text(f"<html><body><main data-pagefind-body><h1>Rule {n}</h1>"
                                         f"<p>ponies {n}</p></main></body></html>", encoding="utf-8")
    mark(site, {"p": [f"p{n}.html" for n in range(pages)]})
    return site


def test_two_runs_at_once_both_leave_a_whole_index_and_no_leftover(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    results: list[object] = []
    runs = [threading.Thread(target=lambda: results.append(index(site))) for _ in range(2)]
    for run in runs:
        run.start()
    for run in runs:
        run.join(120)
    assert [type(r).__name__ for r in results] == ["SearchIndex", "SearchIndex"]
    assert (site / INDEX / "p" / "pagefind.js").is_file()
    assert sorted(p.name for p in site.iterdir()) == ["p0.html", "p1.html", "p2.html", INDEX]
    pagefinds = {f.name for f in (site / INDEX / "p").iterdir()
                 if f.is_file() and f.name != "pagefind-entry.json" and f.suffix != ".pf_meta"}
    assert {"pagefind.js", "pagefind-ui.js", "pagefind-ui.css"} < pagefinds  # Pagefind's own files, beside
    assert {p.name for p in (site / INDEX).iterdir()} == {".lock", ".stale", "p", "shards.json", *pagefinds}
    assert all((site / INDEX / name).samefile(site / INDEX / "p" / name) for name in pagefinds)  # one copy
    assert json.loads((site / INDEX / "shards.json").read_bytes()) == ["p"]
    assert list((site / INDEX / ".stale").iterdir()) == []


def test_a_shard_with_no_page_left_is_removed_and_one_not_marked_is_not_touched(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    (site / "q.html").write_text("<html><body><main data-pagefind-body><p>llamas</p></main></body></html>")
    mark(site, {"q": ["q.html"]})
    index(site)
    kept = (site / INDEX / "p" / "pagefind-entry.json").stat()
    (site / "q.html").unlink()
    mark(site, {"q": []})
    again = index(site)
    assert (again.shards, again.pages, again.files) == (1, 0, 0)
    assert json.loads((site / INDEX / "shards.json").read_bytes()) == ["p"]
    assert not (site / INDEX / "q").exists()
    now = (site / INDEX / "p" / "pagefind-entry.json").stat()
    assert (now.st_ino, now.st_mtime_ns) == (kept.st_ino, kept.st_mtime_ns)


def test_the_daemon_s_indexer_runs_once_more_after_requests_made_while_it_ran(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    indexer = Indexer(site, "indexer-test")
    indexer.request()
    (site / "p3.html").write_text("<html><body><main data-pagefind-body><p>llamas</p></main></body></html>",
                                  encoding="utf-8")
    mark(site, {"p": [f"p{n}.html" for n in range(4)]})
    indexer.request()  # while the first runs, or after it: either way the last page is indexed
    deadline = time.monotonic() + 120
    while indexer._thread is not None:
        assert time.monotonic() < deadline, "the indexer did not finish"
        time.sleep(0.05)
    pages = list((site / INDEX / "p").glob("fragment/*"))
    assert len(pages) == 4  # p0..p3: the page written while it ran is in the index


def test_a_new_mark_of_a_shard_replaces_its_older_ones(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    mark(site, {"p": ["p0.html"], "q": ["q.html"]})
    mark(site, {"p": ["p0.html", "p1.html"]})
    marks = sorted((site / INDEX / ".stale").iterdir())
    assert [m.name.split(".")[0] for m in marks] == ["p", "q"]
    assert json.loads(marks[0].read_bytes()) == ["p0.html", "p1.html"]


def test_work_is_due_while_a_shard_is_marked_or_there_is_no_list_of_shards(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    assert due(site)
    index(site)
    assert not due(site)
    mark(site, {"p": ["p0.html"]})
    assert due(site)
    index(site)
    (site / INDEX / "shards.json").unlink()  # an index of an older form, or one half removed
    assert due(site)
