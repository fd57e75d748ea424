"""The archive of the public mail: a page per message at m/<message-id>/ with the message as the list
distributed it, monthly mboxes any mail reader opens, an Atom feed per thread; nothing private in
any of it; a rebuild writes only what a new message changes."""
from __future__ import annotations

import hashlib
import mailbox
from email import message_from_bytes
from pathlib import Path

from nomic.website.public_mail import href_of, path_of
from tests.site.game import BOB, CAROL, play_days
from tests.support import LIST_ADDRESS, at, make_mail

PRIVATE_HEADERS = {"Received": "from home.test ([198.51.100.7]) by mx.test", "X-Originating-IP": "[198.51.100.7]",
                   "DKIM-Signature": "v=1; a=rsa-sha256; d=wonder.land; b=SIGNED"}


def game(make_play, tmp_path: Path):
    play = make_play(day_mode="fixed")
    play_days(play)
    odd = tmp_path / "odd.eml"
    odd.write_bytes(make_mail(BOB, "Odd id", "A Message-ID with a slash.", to=LIST_ADDRESS,
                              message_id="../../x/y@test", headers=PRIVATE_HEADERS))
    play.cli("ingest", "--at", at(4, 2), str(odd))
    site = tmp_path / "site"
    play.cli("build", "--out", str(site))
    return play, site


def subjects(path: Path) -> list[str]:
    return [str(m["Subject"]) for m in mailbox.mbox(path, create=False)]


def test_the_monthly_mboxes_hold_every_post_and_every_public_game_mail(make_play, tmp_path):
    play, site = game(make_play, tmp_path)
    assert subjects(site / "archive/2026-01.mbox") == [
        "[Test Nomic] Cake talk", "[Test Nomic] Re: Cake talk", "[Test Nomic] Weather", "[Test Nomic] Odd id"]
    public = [m for m in play.outbox() if m["kind"] in ("announcement", "chime")]
    game_mail = subjects(site / "archive/game-2026-01.mbox")
    assert len(game_mail) == len({m["text"].split("Message-ID: ")[1].split()[0] for m in public}) == 17
    assert game_mail[:2] == ["[Test Nomic] Proposal 1: Free *cake*", "[Test Nomic] Proposal 2: Longer days"]
    [cake] = [m for m in mailbox.mbox(site / "archive/2026-01.mbox") if m["Subject"] == "[Test Nomic] Cake talk"]
    assert "Who likes lemon?" in cake.get_payload(decode=True).decode()
    index = (site / "archive/index.html").read_text()
    assert 'href="2026-01.mbox" download>2026-01: the list</a> <span class="meta">4 messages' in index


def test_each_message_has_its_page_and_its_distributed_copy_without_anything_private(make_play, tmp_path):
    play, site = game(make_play, tmp_path)
    folder = site / "m/cake-talk@test"
    copy = message_from_bytes((folder / "message.eml").read_bytes())
    assert (copy["Subject"], copy["From"], copy["List-Id"]) == (
        "[Test Nomic] Cake talk", "alice via Test Nomic <players@imperial.test>", "Test Nomic players <players.imperial.test>")
    page = (folder / "index.html").read_text()
    assert "<h1>[Test Nomic] Cake talk</h1>" in page and "Who likes lemon?" in page
    assert '<a href="message.eml" download>' in page and "feeds/thread-cake-talk@test.xml" in page
    assert '<a href="../../m/cake-reply@test/index.html">[Test Nomic] Re: Cake talk</a>' in page  # the thread
    odd = [p for p in (site / "m").iterdir() if "Odd" in (p / "index.html").read_text()]
    assert [p.name for p in odd] == ["h-" + hashlib.sha256(b"../../x/y@test").hexdigest()[:40]]  # never "../"
    raw = (odd[0] / "message.eml").read_bytes()
    assert b"A Message-ID with a slash." in raw
    assert [h for h in PRIVATE_HEADERS if h.encode() in raw or PRIVATE_HEADERS[h].encode() in raw] == []


def test_a_matter_thread_has_a_feed_of_its_announcements(make_play, tmp_path):
    play, site = game(make_play, tmp_path)
    [feed] = [f for f in (site / "feeds").glob("thread-sub1.submitted.*.xml")]
    text = feed.read_text()
    titles = [line[7:-8] for line in text.splitlines() if line.startswith("<title>")]
    assert titles == ["Test Nomic: [Test Nomic] Proposal 1: Free *cake*",
                      "[Test Nomic] Proposal 1 accepted: Free *cake*", "[Test Nomic] Proposal 1: Free *cake*"]


def test_a_new_post_rewrites_its_own_files_and_the_month_not_the_other_messages(make_play, tmp_path):
    play, site = game(make_play, tmp_path)
    before = {p: p.stat().st_mtime_ns for p in (site / "m").rglob("*") if p.is_file()}
    mbox = (site / "archive/game-2026-01.mbox").stat().st_mtime_ns
    play.send(CAROL, "Re: Weather", "Warmer now.", to=LIST_ADDRESS, at=at(4, 3), message_id="warmer@test",
              headers={"In-Reply-To": "<weather@test>"})
    play.cli("build", "--out", str(site))
    after = {p: p.stat().st_mtime_ns for p in (site / "m").rglob("*") if p.is_file()}
    changed = sorted(str(p.relative_to(site)) for p in after if before.get(p) != after[p])
    assert changed == ["m/warmer@test/index.html", "m/warmer@test/message.eml", "m/weather@test/index.html"]
    assert (site / "archive/game-2026-01.mbox").stat().st_mtime_ns == mbox
    assert subjects(site / "archive/2026-01.mbox")[-1] == "[Test Nomic] Re: Weather"


def test_a_message_id_becomes_one_safe_folder_and_a_link_to_it():
    assert path_of("a/b%c@x.test") == "m/a%2Fb%25c@x.test"
    assert href_of("a/b%c@x.test") == "m/a%252Fb%2525c@x.test/index.html"  # the link names the folder
    assert path_of(".hidden@x") == "m/h-" + hashlib.sha256(b".hidden@x").hexdigest()[:40]
    assert path_of("x" * 200 + "@y") == "m/h-" + hashlib.sha256(("x" * 200 + "@y").encode()).hexdigest()[:40]
