"""The players' list: subscriptions by mail, posts to every per-message member with list headers."""
from __future__ import annotations

from tests.outbox.conftest import SITE
from tests.support import LIST_ADDRESS

ALICE, BOB, CAROL, DAVE = "alice@wonder.land", "bob@builder.org", "carol@c.org", "dave@d.org"
SINCE = "2026-01-05T01:00:00Z"  # when game.send's mail arrives, unless told


def subscribe(game, who: str, *lines: str) -> str:
    return game.send(who, "Subscribe", "\n".join(lines))


def test_a_subscription_by_authenticated_mail_takes_effect_at_once(game):
    out = subscribe(game, ALICE)
    assert f"{ALICE} is subscribed to {LIST_ADDRESS}" in out
    game.send(BOB, "Digest on")
    assert game.state()["subscribers"] == [{"email": ALICE, "digest": False, "plain": False, "since": SINCE},
                                           {"email": BOB, "digest": True, "plain": False, "since": SINCE}]
    out = game.send(ALICE, "Unsubscribe")
    assert f"{ALICE} is unsubscribed" in out
    assert game.state()["subscribers"] == [{"email": BOB, "digest": True, "plain": False, "since": SINCE}]
    game.verify()


def test_a_post_reaches_every_per_message_member_with_list_headers(game, relay):
    subscribe(game, ALICE)
    subscribe(game, BOB)
    game.send(CAROL, "Digest on")
    game.propose(DAVE, "Free cake")  # a player who is not a member may post (players are members: Dave leaves)
    game.send(DAVE, "Unsubscribe")
    game.send(DAVE, "Cake, anyone?", "I bring the cake.", to=LIST_ADDRESS, message_id="cake@d.org",
              name="Dave Dough")
    game.cli("send")
    copies = [a for a in relay.arrived if a.mail["Message-ID"] == "<cake@d.org>"]
    assert sorted(r for a in copies for r in a.rcpt_tos) == [ALICE, BOB]  # Carol reads the digest
    for a in copies:
        rcpt = a.rcpt_tos[0]
        local, domain = rcpt.split("@")
        assert a.mail_from.startswith(f"game-bounces+{local}={domain}.") and a.mail_from.endswith("@imperial.test")
        m = a.mail
        assert m["From"] == f"Dave Dough via Test Nomic <{LIST_ADDRESS}>"
        assert m["Reply-To"] == DAVE
        assert m["Subject"] == "[Test Nomic] Cake, anyone?"
        assert m["List-Id"] == "Test Nomic players <players.imperial.test>"
        assert m["List-Post"] == f"<mailto:{LIST_ADDRESS}>"
        assert m["List-Archive"] == f"<{SITE}list/>"
        token = m["List-Unsubscribe"].split(">")[0].removeprefix(f"<{SITE}unsubscribe/")
        assert m["List-Unsubscribe"] == f"<{SITE}unsubscribe/{token}>, <mailto:ths@imperial.test?subject=unsubscribe>"
        assert m["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert m["X-Loop"] == LIST_ADDRESS and m["Precedence"] == "list"
        body = m.get_content()
        assert body.startswith("I bring the cake.\n\n____")
        assert f"Test Nomic players' list: {LIST_ADDRESS}" in body
    tokens = {a.mail["List-Unsubscribe"] for a in copies}
    assert len(tokens) == 2  # each recipient's own unsubscribe link
    [row] = [r for r in game.outbox() if r["kind"] == "list"]
    assert (row["to"], row["status"], row["deliveries"]) == ([ALICE, BOB], "sent", {"sent": 2})


def test_a_proposal_copied_to_the_list_is_a_submission_and_a_post(game, relay):
    subscribe(game, ALICE)
    out = game.send(CAROL, "Proposal: Cake for all", "Everyone gets cake.", message_id="cc@c.org",
                    headers={"Cc": LIST_ADDRESS})
    assert "recorded as Proposal 1" in out
    assert [(s["number"], s["author"], s["title"]) for s in game.state()["submissions"]] == [
        (1, CAROL, "Cake for all")]
    game.cli("send")
    copies = [a for a in relay.arrived if a.mail["Message-ID"] == "<cc@c.org>"]
    assert sorted(r for a in copies for r in a.rcpt_tos) == [ALICE, CAROL]  # Carol, now a player, is on the list
    assert {a.mail["Subject"] for a in copies} == {"[Test Nomic] Proposal: Cake for all"}
    [answer] = [a for a in relay.arrived if a.mail["In-Reply-To"] == "<cc@c.org>"]
    assert answer.rcpt_tos == [CAROL]  # mail to the Scribe is answered even when the list is copied
    game.verify()


def test_a_non_member_may_not_post_and_is_told_why(game, relay):
    subscribe(game, ALICE)
    game.send(CAROL, "Hello all", "hi", to=LIST_ADDRESS, message_id="hi@c.org")
    game.cli("send")
    assert [a.rcpt_tos for a in relay.arrived if a.mail["Subject"] == "[Test Nomic] Hello all"] == []
    [notice] = relay.to(CAROL)
    assert notice.mail["Subject"] == "Not posted: Hello all"
    assert notice.mail["In-Reply-To"] == "<hi@c.org>"
    assert "only members of the list and players may post" in notice.mail.get_content()


def test_our_own_list_mail_is_never_posted_again(game, relay):
    subscribe(game, ALICE)
    game.send(ALICE, "[Test Nomic] Loop", "x", to=LIST_ADDRESS,
              headers={"List-Id": "Test Nomic players <players.imperial.test>"})
    game.send(ALICE, "Loop 2", "x", to=LIST_ADDRESS, headers={"X-Loop": LIST_ADDRESS})
    game.cli("send")
    assert [a for a in relay.arrived if "Loop" in str(a.mail["Subject"])] == []
    assert [r["kind"] for r in game.outbox()] == ["answer"]


def test_a_post_without_message_id_or_date_gets_both(game, relay):
    subscribe(game, ALICE)
    game.send(ALICE, "Bare", "x", to=LIST_ADDRESS, message_id=False, at="2026-01-05T07:30:00Z")
    game.cli("send")
    [copy] = [a.mail for a in relay.to(ALICE) if a.mail["Subject"] == "[Test Nomic] Bare"]
    assert copy["Date"] == "Mon, 05 Jan 2026 07:30:00 +0000"
    assert copy["Message-ID"].startswith("<list.2.") and copy["Message-ID"].endswith("@imperial.test>")


def test_judgments_and_proclamations_are_announced_to_the_list(game, relay):
    subscribe(game, ALICE)
    game.send(BOB, "Proposal: Free cake", message_id="cake@builder.org")
    game.judge("Accept 1", at="2026-01-05T02:00:00Z")
    game.send("tie@imperial.test", "Proclamation: More points", "Set accept_points = 4", at="2026-01-05T03:00:00Z")
    game.cli("send")
    submitted, judged, proclaimed = [a.mail for a in relay.to(ALICE) if a.mail["List-Id"] and a.mail["X-Loop"]]
    assert submitted["Message-ID"].startswith("<sub1.submitted.")  # mailer/imperial/announce.py
    assert judged["Subject"] == "[Test Nomic] Proposal 1 accepted: Free cake"
    assert judged["Message-ID"].startswith("<sub1.judged.")
    assert judged["References"] == "<cake@builder.org>"
    assert judged["Auto-Submitted"] == "auto-generated"
    assert judged.get_content().startswith(
        'The Emperor has judged Proposal 1, "Free cake" by bob@builder.org: accepted.\n'
        "  bob@builder.org +3 (Proposal 1 accepted), now 3\n")
    assert proclaimed["Subject"] == "[Test Nomic] Proclamation 1: More points"
    assert proclaimed.get_content().startswith(
        'The Emperor proclaims: Proclamation 1, "More points".\n'
        "It governs submissions from number 2 on (rule 7).\n\nSet accept_points = 4\n")


def test_a_proposal_ignored_on_arrival_is_announced_as_the_scribes_doing_not_the_emperors(game, relay):
    """Issue 31: it read "The Emperor has judged Proposal 1, "" by ...", under a subject ending "ignored:"."""
    subscribe(game, ALICE)
    game.send(BOB, "Proposal:", "Everyone gets cake.")
    game.cli("send")
    submitted, ignored = [a.mail for a in relay.to(ALICE) if a.mail["List-Id"] and a.mail["X-Loop"]]
    assert submitted["Subject"] == "[Test Nomic] Proposal 1 (no title)"
    assert submitted.get_content().startswith("Proposal 1 (no title)\nby bob <bob@builder.org>, game day 1.\n"
                                              "It was ignored on arrival: it has no title (rule 8).\n")
    assert ignored["Subject"] == "[Test Nomic] Proposal 1 ignored (no title)"
    assert ignored.get_content().startswith(
        "Proposal 1 by bob@builder.org was ignored on arrival, without the Emperor.\n"
        "Reason: it has no title (rule 8)\n\nGame day 1, temperature 298 K.\n")


def test_the_emperor_may_post_without_being_a_member(game, relay):
    subscribe(game, ALICE)
    game.send("tie@imperial.test", "A word from the throne", "Behave.", to=LIST_ADDRESS, message_id="throne@imperial.test")
    game.cli("send")
    assert [a.rcpt_tos for a in relay.arrived if a.mail["Message-ID"] == "<throne@imperial.test>"] == [[ALICE]]
