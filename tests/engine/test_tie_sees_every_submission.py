"""Rule 3: TIE judges each Proposal, so every new submission is announced at once to TIE and to
the list, threaded, and TIE's bare ``Accept``, ``Reject`` or ``Ignore because ...`` in a reply to
the announcement judges it."""
from __future__ import annotations

import re

from tests.engine.imperial_play import ALICE, BOB, CAROL, sub
from tests.engine.rule_support import mails
from tests.support import EMPEROR

BODY = "Cake for all.\nRaise section 3\nArea: food\nSet accept_points = 4\n"
TIE_COPY = """\
Proposal 1: "Cake"
by Alice <alice@wonder.land>, game day 1.

Cake for all.
Raise section 3
Area: food
Set accept_points = 4

Requests it carries:
  raise section 3
  area: food

Rule changes, if accepted (rule 7: from submission 1 on):
  set accept_points = 4 (now 3)

If accepted:
    Mechanics: none changed
    Parameters: accept_points: 3 -> 4
    To apply by hand: nothing

The Emperor judges it with one line in a reply to this mail:
  Accept
  Reject
  Ignore because REASON

-- 
The Humble Scribe, Test Nomic
"""


def announcements(play) -> list:
    """TIE's copy, then the list's, of the announcement of Proposal 1."""
    return [m for kind in ("emperor", "announcement") for m in mails(play, kind) if "Proposal 1:" in m["Subject"]]


def test_a_new_proposal_is_announced_to_tie_and_the_list_and_a_bare_accept_in_reply_judges_it(play):
    play.send(CAROL, "join the list", "Subscribe")
    play.send(ALICE, "Proposal: Cake", BODY, name="Alice", message_id="cake@wonder.land")
    tie, listed = announcements(play)
    for mail, to in ((tie, EMPEROR), (listed, "players@imperial.test")):
        assert (mail["From"], mail["To"], mail["Subject"]) == (
            "The Humble Scribe <ths@imperial.test>", to, "[Test Nomic] Proposal 1: Cake")
        assert re.fullmatch(r"<sub1\.submitted\.2\.[0-9a-f]{16}@imperial\.test>", mail["Message-ID"])
        assert (mail["References"], mail["In-Reply-To"], mail["Auto-Submitted"]) == (
            "<cake@wonder.land>", None, "auto-generated")
        assert mail.get_content() == TIE_COPY
    assert tie["List-Id"] is None and listed["List-Id"] is not None
    assert [(m["kind"], m["to"], m["subject"]) for m in play.outbox() if m["kind"] != "answer"] == [
        ("emperor", [EMPEROR], "[Test Nomic] Proposal 1: Cake"),
        ("announcement", [CAROL, ALICE], "[Test Nomic] Proposal 1: Cake")]  # Alice is a player: on the list

    out = play.send(EMPEROR, "Re: [Test Nomic] Proposal 1: Cake", "Accept",
                    headers={"In-Reply-To": tie["Message-ID"], "References": tie["Message-ID"]})
    assert ("Proposal 1 accepted: rule changes: accept_points 3 -> 4; raise not granted: the pool of "
            "wood chips is empty (rule 14); +4 points (now 4)") in out  # scored under its own change (rule 7)
    assert sub(play, 1)["status"] == "accepted"
    play.verify()


def test_a_bare_reject_or_ignore_in_reply_judges_the_announced_submission(play):
    play.propose(ALICE, "One")
    play.propose(BOB, "Two")
    one, two = mails(play, "emperor")
    out = play.send(EMPEROR, "Re: Proposal 2: Two", "Ignore because it repeats rule 4",
                    headers={"In-Reply-To": two["Message-ID"]})
    assert "Proposal 2 ignored (the Emperor: it repeats rule 4 (rule 4))" in out
    out = play.send(EMPEROR, "Re: Proposal 1: One", "Reject", headers={"In-Reply-To": one["Message-ID"]})
    assert "Proposal 1 rejected: -2 points (now -2)" in out
    assert [(s["number"], s["status"]) for s in play.state()["submissions"]] == [(1, "rejected"), (2, "ignored")]
    play.verify()


def test_points_of_order_and_proposals_ignored_on_arrival_are_announced_too(play):
    play.send(BOB, "Point of Order: Typo", "Score of alice should be 3")
    play.propose(ALICE, "")  # no title: ignored at once (rule 8)
    sent = [(m["To"], m["Subject"]) for m in mails(play, "emperor")]
    assert sent == [(EMPEROR, "[Test Nomic] Point of Order 1: Typo"), (EMPEROR, "[Test Nomic] Proposal 2 (no title)")]
    ignored = mails(play, "emperor")[1]
    assert "It was ignored on arrival: it has no title (rule 8)." in ignored.get_content()
    assert "The Emperor judges it" not in ignored.get_content()
    play.verify()
