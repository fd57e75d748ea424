"""Incremental builds: a rebuild writes only the pages whose bytes changed."""
from __future__ import annotations

import pytest
from pathlib import Path

from storage.config import parse_time
from nomic.game import Game
from nomic.site import build
from nomic.website import SiteMemory, StaleKeys
from nomic.website import writer
from nomic.website.imperial import generators, listing
from nomic.website.writer import manifest_pages
from tests.site.checks import broken_links, files, parse, words
from tests.site.game import ALICE, BOB, CAROL, play_days
from tests.support import EMPEROR, LIST_ADDRESS, at, make_mail


def manifest(site) -> dict:
    return manifest_pages(site)


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
    announced = [p.split("/")[1] for p in changed if p.startswith("m/")][0]  # its announcement to the list
    assert announced.startswith("sub8.submitted.")
    assert changed == [
        "archive/game-2026-01.mbox", "archive/index.html",  # the month's mbox, and its count
        "feeds/submissions.xml", f"feeds/thread-{announced}.xml", "index.html",
        f"m/{announced}/index.html", f"m/{announced}/message.eml", "players/carol.html",
        "submissions/7.html",  # its "next" link now leads to 8
        "submissions/8.html", "submissions/by-carol.html", "submissions/index.html",
        "submissions/pending.html", "submissions/players.html"]
    assert report.written == len(changed)


def test_a_new_block_rewrites_the_list_pages_near_it_not_one_per_block(make_play, tmp_path, monkeypatch):
    """Blocks of one number, a window of one block either side: the game's 7 submissions are 7 list
    pages, and the 8th Proposal opens an 8th. Rewritten: the pages whose window it enters or moves (5
    and 6), the last newest's on its own page now (7), the new one and the page of every block; the
    pages of numbers 1 to 4 are kept (before, every page linked to every block and was rewritten).
    From any list page, every block is two clicks away: through the page of every block."""
    monkeypatch.setattr(generators, "BLOCK", 1)
    monkeypatch.setattr(listing, "WINDOW", 1)
    play = make_play(day_mode="fixed")
    play_days(play)
    out = tmp_path / "public"
    build(Game(play.dir), out)
    old = manifest(out)
    play.send(CAROL, "Proposal: More bells", "Bells at noon.", at=at(4, 2), name="Carol")
    build(Game(play.dir), out)
    new = manifest(out)
    changed = sorted(p for p in new if p.startswith("submissions/index") and old.get(p) != new[p])
    assert changed == ["submissions/index-5.html", "submissions/index-6.html", "submissions/index-7.html",
                       "submissions/index-blocks.html", "submissions/index.html"]
    assert block_links(out / "submissions" / "index-3.html") == [
        ("index.html", "newest"), (None, "…"), ("index-4.html", "4–4"), ("index-3.html", "3–3"),
        ("index-2.html", "2–2"), ("index-1.html", "1–1"), ("index-blocks.html", "all blocks")]
    assert block_links(out / "submissions" / "index-blocks.html") == [
        ("index.html", "8–8"), *((f"index-{n}.html", f"{n}–{n}") for n in range(7, 0, -1))]
    assert broken_links(out) == []
    build(Game(play.dir), tmp_path / "fresh")
    assert files(out) == files(tmp_path / "fresh")


def test_the_temperature_table_is_paged_and_a_new_change_rewrites_a_page_or_three(make_play, tmp_path, monkeypatch):
    """Pages of two changes: the chart's page lists the newest (one or two) and links to each older
    page, which lists its two and links to the pages beside it. A new change rewrites the chart's
    page alone, or when it opens a page, the one before it (now on a page of its own, new) and the
    one before that too (its newer link); the older pages are kept (before, one page held all)."""
    monkeypatch.setattr(generators, "TEMPERATURE_PAGE", 2)
    play = make_play(day_mode="fixed")
    play_days(play)
    out = tmp_path / "public"
    build(Game(play.dir), out)
    old = manifest(out)
    rows = [len(parse(page).findall(".//table/tbody/tr")) for page in sorted(out.glob("temperature-*.html"))]
    n = sum(rows) + len(parse(out / "temperature.html").findall(".//table/tbody/tr"))
    assert n > 4 and rows == [2] * ((n - 1) // 2)
    assert block_links(out / "temperature-2.html") == [("temperature-3.html", "newer: 5–6"),
                                                         ("temperature-1.html", "older: 1–2")]
    assert block_links(out / "temperature.html") == [(f"temperature-{j}.html", f"{2 * j - 1}–{2 * j}")
                                                     for j in range((n - 1) // 2, 0, -1)]
    play.send(CAROL, "Proposal: More bells", "Bells at noon.", at=at(4, 2), name="Carol")
    play.judge("Accept 8", at=at(4, 3))  # (an accepted Proposal warms the game: rule 12)
    build(Game(play.dir), out)
    new = manifest(out)
    more = sum(len(parse(page).findall(".//table/tbody/tr")) for page in out.glob("temperature*.html")) - n
    changed = sorted(p for p in new if p.startswith("temperature") and old.get(p) != new[p])
    k = (n + more - 1) // 2  # the older pages now
    assert more >= 1 and changed == (["temperature.html"] if k == (n - 1) // 2 else
                                     [f"temperature-{k - 1}.html", f"temperature-{k}.html", "temperature.html"])
    assert broken_links(out) == []
    build(Game(play.dir), tmp_path / "fresh")
    assert files(out) == files(tmp_path / "fresh")


def block_links(page: Path) -> list[tuple[str | None, str]]:
    """The links (href, text) of a list page's navigation between blocks of numbers."""
    nav = next(el for el in parse(page).iter("nav") if el.get("class") == "filters pages")
    return [(item[0].get("href") if len(item) else None, words(item)) for item in nav.iter("li")]


class Rebuilt:
    """Plays into one in-process Game, as the daemon does, rebuilding its site after every step
    with the one ``SiteMemory`` it keeps.

    After each rebuild the site must be byte for byte what a full build from scratch
    (a fresh Game, an empty directory, a fresh memory) makes of the same game.
    """

    def __init__(self, play, out: Path, fresh: Path):
        self.game, self.dir, self.out, self.fresh = Game(play.dir), play.dir, out, fresh
        self.memory = SiteMemory()
        self.builds = 0
        self.rebuild()

    def send(self, sender: str, subject: str, body: str = "", at: str = at(1), **kw) -> None:
        kw.setdefault("message_id", f"direct-{self.builds}@test")
        self.game.inbox.receive(make_mail(sender, subject, body, **kw), parse_time(at))
        self.game.process()
        self.rebuild()

    def judge(self, line: str, at: str = at(1)) -> None:
        self.send(EMPEROR, "judgment", line, at=at)

    def tick(self, at: str) -> None:
        self.game.tick(parse_time(at))
        self.game.process()
        self.rebuild()

    def refold(self) -> None:
        """Derive the state and events again from the journal (``nomic rebuild``), in this process."""
        self.game.rebuild()
        self.rebuild()

    def rebuild(self) -> None:
        build(self.game, self.out, memory=self.memory)
        self.builds += 1
        fresh = self.fresh / str(self.builds)
        build(Game(self.dir), fresh, memory=SiteMemory())
        assert files(self.out) == files(fresh), f"after build {self.builds}"


@pytest.mark.slow  # a full build after every one of many rebuilds
def test_every_rebuild_is_byte_identical_to_a_full_build(make_play, tmp_path, monkeypatch):
    """Small blocks, so that new submissions and ledger entries open new list pages too, and a
    window of one block, so that list pages leave blocks out of their links, and pages of two
    temperature changes, so that new changes open new pages of them."""
    monkeypatch.setattr(generators, "BLOCK", 2)
    monkeypatch.setattr(listing, "WINDOW", 1)
    monkeypatch.setattr(generators, "TEMPERATURE_PAGE", 2)
    monkeypatch.setattr(generators, "LEDGER_BLOCK", 2)
    play = make_play(day_mode="fixed")
    rebuilt = Rebuilt(play, tmp_path / "public", tmp_path / "fresh")
    play_days(rebuilt)
    rebuilt.send(ALICE, "Re: Cake talk", "Lemon, again.", to=LIST_ADDRESS, at=at(4, 1),
                 headers={"In-Reply-To": "<cake-talk@test>"})
    # a reply that arrives before the post it answers: the threads it was in join that post's
    rebuilt.send(BOB, "Re: Tea talk", "Earl Grey.", to=LIST_ADDRESS, at=at(4, 1), message_id="tea-reply@test",
                 headers={"In-Reply-To": "<tea-talk@test>"})
    rebuilt.send(CAROL, "Tea talk", "Tea, anyone?", to=LIST_ADDRESS, at=at(4, 1), message_id="tea-talk@test")
    rebuilt.send(CAROL, "Proposal: More bells", "Bells at *noon*.", at=at(4, 2), name="Carol")
    rebuilt.send("erin@new.org", "Proposal: Hello", "A new player.", at=at(4, 3), name="Erin")
    rebuilt.judge("Accept 8\nReject 9", at=at(4, 4))
    rebuilt.tick(at(5, 0))
    rebuilt.refold()
    rebuilt.send(BOB, "Proposal: After the refold", "Still counted.", at=at(5, 1), name="Bob")
    assert rebuilt.builds > 20


def test_a_check_build_renders_kept_pages_and_finds_their_keys_sound(played, site_copy):
    report = build(Game(played.dir), site_copy, check=True)
    assert (report.rendered, report.written) == (0, 0)


def test_a_check_build_names_the_pages_whose_key_misses_what_they_show(played, site_copy, monkeypatch):
    """A key that leaves out the title shown: the page is kept by its key, and the check says so."""
    made = generators._submission
    monkeypatch.setattr(generators, "_submission", lambda m, s, root: {**made(m, s, root), "title": "Renamed"})
    assert build(Game(played.dir), site_copy).written == 0  # kept by the unchanged keys
    with pytest.raises(StaleKeys) as raised:
        build(Game(played.dir), site_copy, check=True)
    assert str(raised.value) == "unchanged key, changed bytes: " + ", ".join(
        f"submissions/{n}.html" for n in range(1, 8))


def test_a_message_page_removed_behind_a_kept_memory_is_written_again_in_its_turn(played, tmp_path, monkeypatch):
    """A rebuild looks again at IN_TURN of the directories it knows (here 2 of the mail archive's
    dozens, one per message): the page is back once its directory's turn has come."""
    monkeypatch.setattr(writer, "IN_TURN", 2)
    game, out, memory = Game(played.dir), tmp_path / "public", SiteMemory()
    build(game, out, memory=memory)
    page = out / "m" / "cake-talk@test" / "index.html"
    made = page.read_bytes()
    page.unlink()
    turns = len(memory.outputs[out.resolve()].order) // 2 + 1
    written = [build(game, out, memory=memory).written for _ in range(turns)]
    assert (sorted(written), page.read_bytes()) == ([0] * (turns - 1) + [1], made)
    build(Game(played.dir), tmp_path / "fresh")
    assert files(out) == files(tmp_path / "fresh")


def test_a_page_removed_behind_a_kept_memory_is_written_again(played, tmp_path):
    """The daemon keeps its memory: the next rebuild still sees what someone else removed."""
    game, out, memory = Game(played.dir), tmp_path / "public", SiteMemory()
    build(game, out, memory=memory)
    assert build(game, out, memory=memory).written == 0
    page = out / "submissions" / "3.html"
    made = page.read_bytes()
    page.unlink()
    report = build(game, out, memory=memory)
    assert (report.rendered, report.written, page.read_bytes()) == (1, 1, made)
