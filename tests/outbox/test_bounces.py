"""VERP bounces: delivery to a member stops after bounces on bounce_limit days, and the operator is told."""
from __future__ import annotations

from tests.support import LIST_ADDRESS, SCRIBE, at

ALICE, BOB = "alice@wonder.land", "bob@builder.org"

DSN = """\
From: Mail Delivery System <MAILER-DAEMON@wonder.land>
To: {verp}
Subject: Undelivered Mail Returned to Sender
Message-ID: <dsn{n}@wonder.land>
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="b"

--b
Content-Type: text/plain

The mail system: <{rcpt}>: host mx.wonder.land said: 550 5.1.1 mailbox unavailable

--b
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.wonder.land

Final-Recipient: rfc822; {rcpt}
Action: {action}
Status: 5.1.1

--b--
"""


def bounce(game, tmp_path, verp: str, n: int, when: str, action: str = "failed") -> None:
    path = tmp_path / f"dsn{n}.eml"
    path.write_text(DSN.format(verp=verp, rcpt=ALICE, n=n, action=action))
    game.cli("ingest", "--at", when, str(path))


def post(game, n: int, when: str) -> None:
    game.send(BOB, f"Post {n}", "text", to=LIST_ADDRESS, message_id=f"post{n}@builder.org", at=when)


def test_delivery_stops_after_bounces_on_three_days_and_the_operator_is_told(game, relay, tmp_path):
    game.send(ALICE, "Subscribe", at=at(1, 1))
    game.send(BOB, "Subscribe", at=at(1, 1))
    post(game, 1, at(1, 2))
    game.cli("send")
    [verp] = {a.mail_from for a in relay.to(ALICE) if a.mail["Message-ID"] == "<post1@builder.org>"}
    bounce(game, tmp_path, verp, 1, at(1, 3))
    bounce(game, tmp_path, verp, 2, at(1, 4))  # the same day: counted once
    bounce(game, tmp_path, verp, 3, at(2, 3), action="delayed")  # not a failure
    bounce(game, tmp_path, verp.replace("@", "x@"), 4, at(2, 4))  # a forged VERP address
    bounce(game, tmp_path, verp, 5, at(2, 5))
    assert [r["kind"] for r in game.outbox() if r["kind"] == "operator"] == []
    bounce(game, tmp_path, verp, 6, at(3, 3))
    [note] = [r for r in game.outbox() if r["kind"] == "operator"]
    assert (note["to"], note["subject"]) == ([SCRIBE], f"List delivery to {ALICE} disabled after 3 bounces")
    post(game, 2, at(3, 4))
    [copy] = [r for r in game.outbox() if r["message_id"] == "<post2@builder.org>"]
    assert copy["to"] == [BOB]
    assert game.state()["subscribers"][0]["email"] == ALICE  # still a member
    game.send(ALICE, "Subscribe", at=at(3, 5))  # asking again turns delivery back on
    post(game, 3, at(3, 6))
    [copy] = [r for r in game.outbox() if r["message_id"] == "<post3@builder.org>"]
    assert copy["to"] == [ALICE, BOB]
    assert not [r for r in game.outbox() if r["kind"] == "answer" and r["to"] == ["mailer-daemon@wonder.land"]]

