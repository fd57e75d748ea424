"""Rule 19's chime and the daily digest, after ``nomic tick`` ends a day."""
from __future__ import annotations

from tests.support import EMPEROR, LIST_ADDRESS, at

ALICE, BOB, CAROL = "alice@wonder.land", "bob@builder.org", "carol@c.org"


def setup_day(game) -> None:
    game.send(ALICE, "Subscribe", at=at(1, 1))
    game.send(BOB, "Digest on", at=at(1, 1))
    game.propose(CAROL, "Free cake", "Cake for all.", at=at(1, 2))
    game.judge("Accept 1", at=at(1, 3))
    game.send(CAROL, "Cake day", "The cake is served.", to=LIST_ADDRESS, message_id="cake@c.org", at=at(1, 4))
    game.send(ALICE, "Re: Cake day", "Thanks!", to=LIST_ADDRESS, message_id="thanks@wonder.land", at=at(1, 5),
              headers={"In-Reply-To": "<cake@c.org>"})


def test_a_day_end_rings_one_chime_to_every_subscriber_and_one_digest_to_digest_members(game, relay):
    setup_day(game)
    assert "day_end" in game.tick(at(2, 0))
    game.cli("send")
    chimes = [a for a in relay.arrived if "The Bell Tower" in str(a.mail["Subject"])]
    assert sorted(r for a in chimes for r in a.rcpt_tos) == [ALICE, BOB, CAROL, EMPEROR]  # Carol: a player
    [emperors] = [a.mail for a in chimes if a.rcpt_tos == [EMPEROR]]  # by office: no list headers, no unsubscribe
    assert (emperors["List-Id"], emperors["List-Unsubscribe"]) == (None, None)
    chime = next(a.mail for a in chimes if a.rcpt_tos == [ALICE])
    assert chime["Subject"] == "[Test Nomic] The Bell Tower: day 1 ends, day 2 begins"
    assert chime["Auto-Submitted"] == "auto-generated"
    assert chime["List-Id"] == "Test Nomic players <players.imperial.test>"
    st = game.state()
    text = chime.get_content()
    assert "day 1 of Test Nomic has ended, and day 2 begins" in text
    assert "Proposal 1 (Free cake) by carol@c.org: accepted" in text
    assert f"{CAROL} +3 (Proposal 1 accepted" in text
    assert f"Temperature: {st['temperature']} K" in text
    assert f"It: {st['it']}" in text
    assert f"Player of the Day: {st['player_of_the_day'] or 'none'}" in text
    assert "The game: https://nomic.test/" in text
    [row] = [r for r in game.outbox() if r["kind"] == "chime"]
    head = game.cli("replay", "--verify").split(" head ")[1].split(";")[0]  # the tick was the last entry
    assert f"Journal head after entry {row['seq']}:\n  {head}\n" in text

    digests = [a for a in relay.arrived if str(a.mail["Subject"]).startswith("Test Nomic Digest")]
    assert [a.rcpt_tos for a in digests] == [[BOB]]
    d = digests[0].mail
    assert d["Subject"] == "Test Nomic Digest, Vol 1, Issue 1"
    assert d.get_content_type() == "multipart/mixed"
    masthead, toc, inner, footer = d.iter_parts()
    assert "Today's Topics:" in toc.get_content()
    assert "1. [Test Nomic] Proposal 1: Free cake (The Humble Scribe)" in toc.get_content()  # its announcement
    assert "2. [Test Nomic] Proposal 1 accepted: Free cake (The Humble Scribe)" in toc.get_content()
    assert "3. Cake day (carol@c.org)" in toc.get_content()
    assert "4. Re: Cake day (alice@wonder.land)" in toc.get_content()
    assert inner.get_content_type() == "multipart/digest"
    parts = list(inner.iter_parts())
    assert [p.get_content_type() for p in parts] == ["message/rfc822"] * 4
    posted = parts[2].get_content()
    assert (posted["Message-ID"], posted["From"], posted.get_content().strip()) == (
        "<cake@c.org>", CAROL, "The cake is served.")
    assert "End of Test Nomic Digest, Vol 1, Issue 1" in footer.get_content()
    # per-message members got the posts themselves, digest members did not
    assert sorted(r for a in relay.arrived if a.mail["Message-ID"] == "<cake@c.org>" for r in a.rcpt_tos) == [
        ALICE, CAROL]
    game.verify()


def test_a_day_without_list_traffic_sends_a_chime_but_no_digest(game, relay):
    game.send(BOB, "Digest on", at=at(1, 1))
    game.tick(at(2, 0))
    game.cli("send")
    assert [str(a.mail["Subject"]) for a in relay.to(BOB)] == [
        "Re: Digest on", "[Test Nomic] The Bell Tower: day 1 ends, day 2 begins"]


def test_the_next_digest_holds_only_what_came_after_the_last(game, relay):
    setup_day(game)
    game.tick(at(2, 0))
    game.send(ALICE, "Day two", "Morning!", to=LIST_ADDRESS, message_id="morning@wonder.land", at=at(2, 1))
    game.tick(at(3, 0))
    game.cli("send")
    digests = [a.mail for a in relay.to(BOB) if str(a.mail["Subject"]).startswith("Test Nomic Digest")]
    assert [d["Subject"] for d in digests] == ["Test Nomic Digest, Vol 1, Issue 1", "Test Nomic Digest, Vol 1, Issue 2"]
    inner = list(digests[1].iter_parts())[2]
    assert [p.get_content()["Message-ID"] for p in inner.iter_parts()] == ["<morning@wonder.land>"]


def test_a_plain_digest_member_gets_the_rfc_1153_text(game, relay):
    game.send(CAROL, "Digest plain", at=at(1, 1))
    setup_day(game)
    assert game.state()["subscribers"][0] == {"email": CAROL, "digest": True, "plain": True, "since": at(1, 1)}
    game.tick(at(2, 0))
    game.cli("send")
    [d] = [a.mail for a in relay.to(CAROL) if str(a.mail["Subject"]).startswith("Test Nomic Digest")]
    assert d.get_content_type() == "text/plain"
    text = d.get_content()
    assert ("Today's Topics:\n\n    1. [Test Nomic] Proposal 1: Free cake (The Humble Scribe)\n"
            "    2. [Test Nomic] Proposal 1 accepted: Free cake (The Humble Scribe)\n") in text
    assert "\n" + "-" * 70 + "\n\nDate: Mon, 05 Jan 2026 02:00:00 +0000\nFrom: The Humble Scribe" in text
    assert ("\n" + "-" * 30 + "\n\nFrom: carol@c.org\nTo: players@imperial.test\n"
            "Subject: Cake day\nMessage-ID: <cake@c.org>\n\nThe cake is served.\n\n" + "-" * 30 + "\n") in text
    assert text.endswith("\nEnd of Test Nomic Digest, Vol 1, Issue 1\n" + "*" * 40 + "\n")
