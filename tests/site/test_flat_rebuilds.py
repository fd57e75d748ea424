"""A rebuild's work follows what changed, not the size of the game (issue 33): the writer finds
the pages it no longer makes from what the last build made, and a list of submissions by blocks
reads again only the blocks whose rows changed."""
from __future__ import annotations

from pathlib import Path

import orjson

from nomic.website import SiteMemory
from nomic.website.imperial.listing import Listing
from nomic.website.pages import Family, RawFile
from nomic.website.writer import FORMAT, PARTS, Manifest, Writer, manifest_pages

SITE = {"name": "Test", "csp": True, "address": "", "list_address": "", "nav": [], "feeds": [], "record": None}


def write(out: Path, memory: SiteMemory, families: dict[str, list[str]], singles: list[str]) -> list[str]:
    """Build ``out`` of raw files (a family's member's bytes are its path): the paths removed."""
    writer = Writer(out, SITE, "imperial", memory)
    for name, paths in families.items():
        writer.add(Family(name, "", paths, paths, lambda i: {}, data=lambda i, paths=paths: paths[i].encode()))
    for path in singles:
        writer.add(RawFile(path, path, lambda path=path: path.encode()))
    removed = writer.finish().removed
    assert removed >= 0
    return sorted(str(p.relative_to(out)) for p in out.rglob("*.txt") if p.is_file())


def test_a_rebuild_removes_what_it_no_longer_makes_and_keeps_what_moved(tmp_path):
    out, memory = tmp_path / "site", SiteMemory()
    write(out, memory, {"a": ["a/1.txt", "a/2.txt", "a/3.txt"], "b": ["b/1.txt"]}, ["s/1.txt", "s/2.txt", "s/3.txt"])
    # the same again, and then with "a" shorter (its last member now a single page), "b" gone,
    # one single page gone and another now a member of "a"
    write(out, memory, {"a": ["a/1.txt", "a/2.txt", "a/3.txt"], "b": ["b/1.txt"]}, ["s/1.txt", "s/2.txt", "s/3.txt"])
    files = write(out, memory, {"a": ["a/1.txt", "s/2.txt"]}, ["s/1.txt", "a/3.txt"])
    assert files == ["a/1.txt", "a/3.txt", "s/1.txt", "s/2.txt"]
    assert sorted(p for p in manifest_pages(out) if p.endswith(".txt")) == files
    # a family made afresh with its members in another order loses none of them
    files = write(out, memory, {"a": ["s/2.txt", "a/1.txt"]}, ["s/1.txt", "a/3.txt"])
    assert files == ["a/1.txt", "a/3.txt", "s/1.txt", "s/2.txt"]


def rows(*numbers_and_statuses: tuple[int, str]) -> list[tuple]:
    return [(n, "proposal", f"Order {n}", "link", status, None, 1) for n, status in numbers_and_statuses]


def test_a_listing_reads_again_only_the_blocks_whose_rows_changed():
    listing = Listing("index", "All submissions")
    listing.update(rows(*((n, "pending") for n in range(1, 251))), None, 100)
    assert listing.changed is None and listing.paths == [
        "submissions/index-1.html", "submissions/index-2.html", "submissions/index.html"]  # oldest first
    keys = listing.keys
    # number 42 judged: the page of numbers 1-100 alone (the oldest block: the first place)
    listing.update(rows(*((n, "accepted" if n == 42 else "pending") for n in range(1, 251))), {42}, 100)
    assert listing.changed == [0] and listing.keys[1:] == keys[1:] and listing.keys[0] != keys[0]
    assert keys[0][3][41][4] == "pending"  # the last build's keys are left as they were
    # number 301 opens a block: the listing is made again
    listing.update(rows(*((n, "pending") for n in range(1, 302))), {301}, 100)
    assert listing.changed is None and len(listing.paths) == 4
    assert listing.titles[2] == "All submissions, numbers 201–300"


def keyed(listing: Listing) -> dict[str, object]:
    return dict(zip(listing.paths, listing.keys)) | ({listing.every_path: listing.every} if listing.every else {})


def test_a_new_block_changes_a_few_pages_of_a_long_list_not_one_per_block():
    """300 blocks, and a 301st opened: the pages whose window of links it enters or moves, the newest
    block's (now on its own NAME-K.html), the new one and the page of every block: 7, as at 10 blocks."""
    for blocks in (10, 300):
        listing = Listing("index", "All submissions")
        listing.update(rows(*((n, "pending") for n in range(1, 100 * blocks + 1))), None, 100)
        before = keyed(listing)
        listing.update(rows(*((n, "pending") for n in range(1, 100 * blocks + 2))), {100 * blocks + 1}, 100)
        after = keyed(listing)
        changed = sorted(path for path, key in after.items() if before.get(path) != key)
        assert changed == sorted([*(f"submissions/index-{k}.html" for k in range(blocks - 4, blocks + 1)),
                                  "submissions/index-blocks.html", "submissions/index.html"]), blocks
        assert before.keys() - after.keys() == set()


def test_a_list_page_links_to_a_window_of_blocks_the_ends_and_the_page_of_every_block():
    listing = Listing("accepted", "Submissions accepted")
    listing.update(rows(*((n, "accepted") for n in range(1, 2001) if n % 100)), None, 100)  # 20 blocks
    middle = listing.paths.index("submissions/accepted-10.html")
    assert listing.links[middle] == (
        ("accepted.html", "newest"), ("", "…"),
        ("accepted-13.html", "1201–1300"), ("accepted-12.html", "1101–1200"), ("accepted-11.html", "1001–1100"),
        ("accepted-10.html", "901–1000"),
        ("accepted-9.html", "801–900"), ("accepted-8.html", "701–800"), ("accepted-7.html", "601–700"),
        ("", "…"), ("accepted-1.html", "1–100"), ("accepted-blocks.html", "all blocks"))
    assert listing.links[-1][:5] == (("accepted.html", "1901–2000"), ("accepted-19.html", "1801–1900"),
                                     ("accepted-18.html", "1701–1800"), ("accepted-17.html", "1601–1700"), ("", "…"))
    assert listing.every == tuple((f"accepted-{b}.html" if b < 20 else "accepted.html", f"{b * 100 - 99}–{b * 100}")
                                  for b in range(20, 0, -1))
    # five blocks or fewer: every page links to each, and there is no page of every block
    listing.update(rows(*((n, "accepted") for n in range(1, 501))), None, 100)
    assert listing.every == () and all(len(links) == 5 for links in listing.links)


def test_a_manifest_part_is_written_as_orjson_writes_it_with_sorted_keys():
    manifest = Manifest.of({f"p/{i}.html": {"sha256": f"{i:064x}", "input": None if i % 2 else "ab"} for i in range(600)})
    manifest.add("p/ü.html", {"input": "x", "sha256": "y", "shard": "2026-01"})
    manifest.remove("p/7.html")
    for k in range(PARTS):
        assert manifest.part(k) == orjson.dumps({"format": FORMAT, "pages": manifest.parts[k]},
                                                option=orjson.OPT_SORT_KEYS)


def test_a_new_ledger_entry_changes_no_ledger_page_link_until_it_opens_a_block():
    """Every ledger page lists every page's link, so a link that named the ledger's last change made
    each new entry rewrite them all (they are keyed by the links): only an entry opening a block may."""
    from types import SimpleNamespace

    from nomic.website.imperial.generators import LEDGER_BLOCK, ledger_links

    def links(count: int) -> list[dict]:
        return ledger_links([SimpleNamespace(n=n) for n in range(1, count + 1)])  # type: ignore[misc]

    full = 3 * LEDGER_BLOCK
    assert [link["label"] for link in links(full - 1)] == ["1–500", "501–1000", "1001 on"]
    assert links(full - 1) == links(full)  # the newest block filling up
    assert [link["label"] for link in links(full + 1)] == ["1–500", "501–1000", "1001–1500", "1501 on"]
