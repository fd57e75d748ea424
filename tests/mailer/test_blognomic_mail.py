"""BlogNomic's mail, through the real command line: each matter announced at once to the list and the
Admins (a bare FOR in a reply to it is a vote), each resolution with its tally line, the daily mail
at 00:00 UTC (docs/contract.md "BlogNomic"; mailer/blognomic/)."""
from __future__ import annotations

from email.message import EmailMessage
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.cli.ruleset_play import RulesetPlay
from tests.mailer.support import outbox_mail

ADMIN, ALICE, BOB = "admin@blog.test", "alice@blog.test", "bob@blog.test"
CAROL, DAVE = "carol@blog.test", "dave@blog.test"
MEMBERS = [ALICE, BOB, CAROL, DAVE]  # the Admin subscribed too, but hears of matters by office


@pytest.fixture
def game(tmp_path, new_database_url) -> RulesetPlay:
    return five_pactmakers(tmp_path, new_database_url())


def five_pactmakers(tmp_path, database_url: str, auto_resolve: str = "true") -> RulesetPlay:
    """Five Pactmakers (the Admin from game.toml, four who joined and subscribed), the daily mail on,
    and Alice's Proposal 1."""
    play = RulesetPlay(tmp_path / "blog", "blognomic", database_url,
                       {"blognomic": {"auto_resolve": auto_resolve, "daily_mail": "true", "admission": '"auto"'}})
    for i, who in enumerate(MEMBERS):
        play.send(who, "Join", "Subscribe", at=f"2026-01-05T00:0{i + 1}:00Z", name=who.split("@")[0].capitalize())
    play.send(ADMIN, "Subscribe", at="2026-01-05T00:05:00Z")
    play.send(ALICE, "Proposal: Free cake", 'Enact rule "Cake": Cake for all.', at="2026-01-05T01:00:00Z",
              message_id="cake@blog.test")
    return play


def _sent(play: RulesetPlay) -> list[tuple[str, list[str], str]]:
    """(kind, recipients, subject) of every mail but the answers, oldest first."""
    return [(m["kind"], m["to"], m["subject"]) for m in play.outbox() if m["kind"] != "answer"]


def _links(mail: EmailMessage) -> dict[str, tuple[str, str, str]]:
    """The one-click vote links of an announcement: icon -> (address, subject, body) as a mail client reads them."""
    links = {}
    for line in mail.get_content().splitlines():
        icon, _, url = line.strip().partition(": ")
        if url.strip().startswith("mailto:"):
            parts = urlsplit(url.strip())
            query = parse_qs(parts.query)
            links[icon] = (parts.path, query["subject"][0], query["body"][0])
    return links


def test_a_new_matter_is_announced_at_once_to_the_list_and_to_each_admin(game):
    subject = "[BlogNomic] Proposal 1: Free cake"
    assert _sent(game) == [("officer", [ADMIN], subject), ("announcement", MEMBERS, subject)]
    admins, listed = outbox_mail(game, "officer")[0], outbox_mail(game, "announcement")[0]
    assert (admins["To"], listed["To"]) == (ADMIN, "players@blog.test")
    assert admins["Message-ID"] == listed["Message-ID"]
    assert listed["Message-ID"].startswith("<sub1.opened.6.") and listed["Message-ID"].endswith("@blog.test>")
    assert (listed["References"], listed["In-Reply-To"]) == ("<cake@blog.test>", None)  # under Alice's own mail
    assert listed["List-Id"] == "BlogNomic players <players.blog.test>" and admins["List-Id"] is None
    assert listed.get_content().splitlines()[:8] == [
        'Proposal 1: "Free cake"',
        "by Alice <alice@blog.test>, open for voting from 2026-01-05 01:00 UTC; Quorum 3.",
        "",
        'Enact rule "Cake": Cake for all.',
        "",
        "Rule changes, if enacted:",
        '  Enact rule "Cake" (dynastic)',
        ""]
    assert _links(listed) == {icon: ("ths@blog.test", f"Re: {subject}", f"{icon} 1")
                              for icon in ("FOR", "AGAINST", "DEFERENTIAL")}


def test_a_bare_vote_in_a_reply_to_the_announcement_counts_for_its_matter(game):
    announcement = outbox_mail(game, "announcement")[0]
    game.reply(BOB, announcement["Message-ID"].strip("<>"), "AGAINST", at="2026-01-05T02:00:00Z",
               subject=f"Re: {announcement['Subject']}")
    game.send(CAROL, "my votes", "DEFERENTIAL 1", at="2026-01-05T02:30:00Z")
    assert game.state()["matters"][0]["votes"] == {ALICE: "FOR", BOB: "AGAINST", CAROL: "DEFERENTIAL"}


def test_each_resolution_is_announced_with_the_standard_tally_line(game):
    announcement = outbox_mail(game, "announcement")[0]
    game.reply(BOB, announcement["Message-ID"].strip("<>"), "FOR", at="2026-01-05T02:00:00Z")
    game.send(CAROL, "votes", "FOR 1", at="2026-01-05T03:00:00Z")
    game.tick("2026-01-05T13:00:00Z")
    subject = "[BlogNomic] Proposal 1 enacted: Free cake"
    assert _sent(game)[2:] == [("officer", [ADMIN], subject), ("announcement", MEMBERS, subject)]
    mail = outbox_mail(game, "announcement")[-1]
    assert mail["Message-ID"].startswith("<sub1.resolved.") and mail["References"] == "<cake@blog.test>"
    assert mail["Date"] == "Mon, 05 Jan 2026 13:00:00 +0000"
    assert mail.get_content().splitlines()[:5] == [
        'Proposal 1, "Free cake" by Alice <alice@blog.test>: enacted.',
        "Enacted 3-0 (Quorum 3)",
        "",
        "What it changed:",
        '  Enact rule "Cake": enacted in the dynastic rules']
    game.verify()


def test_a_matter_failed_by_an_admin_says_who_failed_it(tmp_path, new_database_url):
    game = five_pactmakers(tmp_path, new_database_url(), auto_resolve="false")
    game.send(ADMIN, "resolving", "Fail 1", at="2026-01-05T02:00:00Z")  # not Unpopular: the rules refuse
    assert [k for k, _, _ in _sent(game)] == ["officer", "announcement"]  # nothing resolved, nothing told
    for who in (BOB, CAROL, DAVE):
        game.send(who, "votes", "AGAINST 1", at="2026-01-05T03:00:00Z")
    game.send(ADMIN, "resolving", "Fail 1", at="2026-01-05T14:00:00Z")
    mail = outbox_mail(game, "announcement")[-1]
    assert mail["Subject"] == "[BlogNomic] Proposal 1 failed: Free cake"
    assert mail.get_content().splitlines()[:3] == [
        'Proposal 1, "Free cake" by Alice <alice@blog.test>: failed.',
        "Failed 1-3 (Quorum 3)",
        "Resolved by admin@blog.test."]


def test_the_daily_mail_at_midnight_utc_says_what_is_pending_what_resolved_and_who_is_idle(game):
    game.send(BOB, "votes", "FOR 1", at="2026-01-05T02:00:00Z")
    game.send(CAROL, "votes", "FOR 1", at="2026-01-05T03:00:00Z")
    game.send(BOB, "Proposal: More cake", "Seconds.", at="2026-01-05T04:00:00Z")
    game.send(DAVE, "Idle", at="2026-01-05T05:00:00Z")
    game.tick("2026-01-05T13:00:00Z")
    assert [k for k, _, _ in _sent(game)][-1] == "announcement"  # no daily before midnight
    assert "daily" in game.tick("2026-01-06T00:00:00Z")
    subject = "[BlogNomic] 2026-01-06: 1 pending, 1 resolved in the last day"
    assert [s for s in _sent(game) if s[0] != "personal"][-2:] == [("officer", [ADMIN], subject),
                                                                  ("daily", MEMBERS, subject)]
    assert [to for k, to, _ in _sent(game) if k == "personal"] == [[ADMIN], [ALICE], [CAROL]]  # Bob wrote it, Dave is Idle
    mail = outbox_mail(game, "daily")[0]
    assert mail["Date"] == "Tue, 06 Jan 2026 00:00:00 +0000" and mail["List-Id"] is not None
    assert mail.get_content().splitlines()[:11] == [
        "BlogNomic at 00:00 UTC on 2026-01-06: Dynasty 1; Quorum 3.",
        "",
        "Pending, oldest first:",
        '  Proposal 2 "More cake" by bob@blog.test: 1 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)',
        "    not yet Enactable: it is not Popular (1 FOR, Quorum 3)",
        "",
        "Resolved in the last day:",
        '  Proposal 1 "Free cake": Enacted 3-0 (Quorum 3)',
        "",
        f"Idle: {DAVE}",
        ""]
    assert game.tick("2026-01-06T12:00:00Z") == (  # 24 hours before Proposal 2's 48 (from 04:00)
        "clock step 2026-01-06T12:00:00Z: journal entry 13: reminder\n")
    assert game.tick("2026-01-06T13:00:00Z") == "nothing due\n"  # the next is due at the next midnight
    game.verify()


def test_a_silent_pactmaker_is_named_near_the_seven_day_mark(game):
    for day in range(6, 11):  # Alice, Bob and Carol write every day; the Admin and Dave do not
        for who in (ALICE, BOB, CAROL):
            game.send(who, "hello", "Subscribe", at=f"2026-01-{day:02d}T12:00:00Z")
    game.tick("2026-01-11T00:00:00Z")
    text = outbox_mail(game, "daily")[-1].get_content()
    assert ("Near the seven-day mark (an Admin may idle them from the time shown):\n"
            f"  {ADMIN}: last wrote 2026-01-05T00:05:00Z, from 2026-01-12T00:05:00Z\n"
            f"  {DAVE}: last wrote 2026-01-05T00:04:00Z, from 2026-01-12T00:04:00Z\n") in text


def test_a_game_without_the_daily_mail_sends_none(tmp_path, new_database_url):
    play = RulesetPlay(tmp_path / "quiet", "blognomic", new_database_url(), {"blognomic": {"daily_mail": "false"}})
    play.send(ALICE, "Join", "Subscribe", at="2026-01-05T00:01:00Z")
    assert play.tick("2026-01-07T00:00:00Z") == "nothing due\n"
    assert [m["kind"] for m in play.outbox()] == ["answer"]


def test_a_hostile_title_stays_one_header_line_and_its_vote_links_still_prefill_exactly(game):
    title = 'Cake & "more"?=?utf-8?q?x?= %0D%0ABcc: x@evil.test é'
    game.send(BOB, f"Proposal: {title}", "Seconds.", at="2026-01-05T02:00:00Z")
    mail = outbox_mail(game, "announcement")[-1]
    stored = game.state()["matters"][1]["title"]  # the encoded word in the mail's Subject read as "x"
    assert stored == 'Cake & "more"?x %0D%0ABcc: x@evil.test é'
    subject = f"[BlogNomic] Proposal 2: {stored}"
    # one header, no Bcc made of the title (read back, Python may double the space before an encoded word)
    assert " ".join(mail["Subject"].split()) == subject and mail["Bcc"] is None
    assert _links(mail)["AGAINST"] == ("ths@blog.test", f"Re: {subject}", "AGAINST 2")


def test_a_digest_member_gets_the_days_announcements_with_the_daily_mail(game):
    game.send(DAVE, "Digest on", at="2026-01-05T02:00:00Z")
    game.send(BOB, "Proposal: More cake", "Seconds.", at="2026-01-05T04:00:00Z")
    assert [k for k, _, _ in _sent(game)][-1] == "announcement" and DAVE not in _sent(game)[-1][1]
    game.tick("2026-01-06T00:00:00Z")
    assert [(k, to) for k, to, _ in _sent(game) if k != "personal"][-3:] == [
        ("officer", [ADMIN]), ("daily", MEMBERS), ("digest", [DAVE])]
    digest = outbox_mail(game, "digest")[0]
    assert digest["Subject"] == "BlogNomic Digest, Vol 1, Issue 1"
    inner = next(p for p in digest.iter_parts() if p.get_content_type() == "multipart/digest")
    topics = [str(item.get_payload()[0]["Subject"]) for item in inner.iter_parts()]
    assert topics == ["[BlogNomic] Proposal 1: Free cake", "[BlogNomic] Proposal 2: More cake"]


def test_the_answer_to_a_matter_is_threaded_as_about_that_matter(game):
    """The answer to Alice's Proposal 1 and to a vote on it: Message-IDs ``sub1.answer...``."""
    game.send(BOB, "vote", "AGAINST 1", at="2026-01-05T02:00:00Z")
    answers = [m for m in outbox_mail(game) if m["To"] in (ALICE, BOB) and "answer" in m["Message-ID"]]
    assert [a["Message-ID"].split(".")[0] for a in answers][-2:] == ["<sub1", "<sub1"]


def test_applications_wait_in_the_daily_mail_and_the_applicant_hears_of_the_admins_answer(tmp_path, new_database_url):
    play = RulesetPlay(tmp_path / "admission", "blognomic", new_database_url(), {"blognomic": {"daily_mail": "true"}})
    play.send(ALICE, "Join", at="2026-01-05T01:00:00Z", name="Alice")
    play.send("sock@puppet.test", "Join", at="2026-01-05T02:00:00Z")
    assert "Alice" not in [p["name"] for p in play.state()["players"]]
    play.tick("2026-01-06T00:00:00Z")
    [mail] = [m for m in play.outbox() if m["kind"] == "officer"]
    assert mail["to"] == [ADMIN]
    assert ("Applications waiting for an Admin (\"Admit PLAYER\" or \"Refuse PLAYER\"), oldest first:\n"
            f"  Alice <{ALICE}>, applied 2026-01-05T01:00:00Z\n"
            "  sock@puppet.test, applied 2026-01-05T02:00:00Z\n") in mail["text"]
    play.send(ADMIN, "Roster", "Admit alice@blog.test\nRefuse sock@puppet.test", at="2026-01-06T09:00:00Z")
    letters = {m["to"][0]: m for m in play.outbox() if m["kind"] == "admission"}
    assert letters[ALICE]["subject"] == "[BlogNomic] You are a Pactmaker"
    assert letters["sock@puppet.test"]["subject"] == "[BlogNomic] Your application is refused"
    assert ("admin@blog.test, an Admin, has refused your application to join BlogNomic: you are not a Pactmaker.\n"
            "You may apply again by mailing \"Join\" to ths@blog.test.") in letters["sock@puppet.test"]["text"]
    assert [p["email"] for p in play.state()["players"]] == [ADMIN, ALICE] and play.state()["applicants"] == []
    play.tick("2026-01-07T00:00:00Z")
    assert "Applications waiting" not in [m for m in play.outbox() if m["kind"] == "officer"][-1]["text"]
    play.verify()
