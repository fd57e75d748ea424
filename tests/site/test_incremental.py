"""Incremental builds: a rebuild writes only the pages whose bytes changed."""
from __future__ import annotations

import json

from nomic.website import build
from nomic.game import Game
from tests.site.game import CAROL, play_days
from tests.support import at


def manifest(site) -> dict:
    return json.loads((site / ".manifest.json").read_text())["pages"]


def test_a_rebuild_with_nothing_new_writes_nothing(played, site_copy):
    before = {p: (site_copy / p).stat().st_mtime_ns for p in manifest(site_copy)}
    report = build(Game(played.dir), site_copy)
    assert (report.rendered, report.written, report.removed) == (0, 0, 0)
    assert report.pages == len(before)
    assert {p: (site_copy / p).stat().st_mtime_ns for p in manifest(site_copy)} == before


def test_after_one_new_submission_only_the_pages_it_changes_are_rewritten(make_play, tmp_path):
    play = make_play(day_mode="fixed")
    play_days(play)
    out = tmp_path / "public"
    first = build(Game(play.dir), out)
    assert first.written == first.pages
    old = manifest(out)
    play.send(CAROL, "Proposal: More bells", "Bells at noon.", at=at(4, 2), name="Carol")
    report = build(Game(play.dir), out)
    new = manifest(out)
    changed = sorted(p for p in new if old.get(p, {}).get("sha256") != new[p]["sha256"])
    assert changed == [
        "feeds/submissions.xml", "index.html", "players/carol.html",
        "submissions/7.html",  # its "next" link now leads to 8
        "submissions/8.html", "submissions/by-carol.html", "submissions/index.html",
        "submissions/pending.html", "submissions/players.html"]
    assert report.written == len(changed)
