"""One delivery's trouble is its own: an address that is not ASCII (SMTPUTF8), any error of one delivery."""
from __future__ import annotations

from mailer import sender
from tests.outbox.conftest import configure
from tests.outbox.test_sender import deliveries
from tests.support import LIST_ADDRESS

ALICE, JOSE = "alice@wonder.land", "josé@example.org"


def from_jose(game, tmp_path, to: str, subject: str, body: str, when: str) -> None:
    """Mail from José, whose address is not ASCII (RFC 6532: raw UTF-8 in the header)."""
    raw = (f"From: José <{JOSE}>\nTo: {to}\nSubject: {subject}\nMessage-ID: <{subject.lower()}@example.org>\n"
           f"Content-Type: text/plain; charset=utf-8\n\n{body}\n").encode()
    path = tmp_path / f"{subject}.eml"
    path.write_bytes(raw)
    game.cli("ingest", "--at", when, str(path))


def join(game, tmp_path) -> None:
    """José subscribes by mail, then Alice; then José posts to the list: answers to each, then Alice's copy."""
    from_jose(game, tmp_path, "ths@imperial.test", "Join", "Subscribe", "2026-01-05T01:00:00Z")
    game.send(ALICE, "Join", "Subscribe", at="2026-01-05T01:01:00Z")
    from_jose(game, tmp_path, LIST_ADDRESS, "Hola", "Hola a todos.", "2026-01-05T01:02:00Z")


def test_a_non_ascii_address_goes_with_smtputf8_when_the_relay_offers_it(game, relay, tmp_path):
    join(game, tmp_path)
    game.cli("send")
    to_jose, to_alice, copy_to_jose, copy_to_alice = relay.arrived
    assert to_jose.mail_from.startswith("game-bounces+josé=example.org.")
    assert to_jose.data.startswith(b"From: The Humble Scribe <ths@imperial.test>\r\nTo: jos\xc3\xa9@example.org\r\n")
    assert (to_jose.rcpt_tos, to_jose.mail["To"], to_jose.mail["Subject"], to_jose.mail["In-Reply-To"]) == (
        [JOSE], JOSE, "Re: Join", "<join@example.org>")
    assert (to_alice.rcpt_tos, to_alice.smtputf8) == ([ALICE], False)  # all ASCII: as ever
    assert (copy_to_jose.rcpt_tos, copy_to_alice.rcpt_tos) == ([JOSE], [ALICE])
    assert (copy_to_alice.mail["Reply-To"], copy_to_alice.smtputf8) == (JOSE, True)  # UTF-8 headers, said so
    assert [d.status for d in deliveries(game)] == ["sent"] * 4


def test_without_smtputf8_a_non_ascii_address_fails_alone_at_once(make_play, ascii_relay, tmp_path):
    game = configure(make_play(), ascii_relay.address)
    join(game, tmp_path)
    game.cli("send")
    game.cli("send", "--at", "2027-01-01T00:00:00Z")  # never tried again
    jose, alice, copy_to_jose, copy_to_alice = deliveries(game)
    error = (f"the address {JOSE} is not ASCII and the relay {ascii_relay.address} "
             "does not offer SMTPUTF8 (RFC 6531), so it cannot be sent")
    assert [(d.rcpt, d.status, d.attempts, d.last_error) for d in (jose, copy_to_jose)] == [(JOSE, "failed", 1, error)] * 2
    assert (alice.status, copy_to_alice.status) == ("sent", "sent")  # UTF-8 headers go without SMTPUTF8, as ever
    assert [(a.rcpt_tos, a.smtputf8) for a in ascii_relay.arrived] == [([ALICE], False), ([ALICE], False)]
    assert [(r["to"], r["status"], r["last_error"]) for r in game.outbox()] == [
        ([JOSE], "failed", error), ([ALICE], "sent", None), ([JOSE, ALICE], "sent", error)]


def test_any_error_of_one_delivery_is_retried_and_the_pass_goes_on(game, relay, monkeypatch):
    game.send(ALICE, "Join", "Subscribe")
    game.send("bob@builder.org", "Join", "Subscribe")
    personalize = sender.personalize

    def broken_for_alice(mail, rcpt, ls):
        if rcpt == ALICE:
            raise RuntimeError("cannot make Alice's copy\x00")
        return personalize(mail, rcpt, ls)
    monkeypatch.setattr(sender, "personalize", broken_for_alice)
    game.cli("send", "--at", "2026-01-05T02:00:00Z")
    alice, bob = deliveries(game)
    assert (alice.status, alice.attempts, alice.next_attempt, alice.last_error) == (
        "queued", 1, "2026-01-05T02:01:00Z", "RuntimeError: cannot make Alice's copy")
    assert bob.status == "sent" and [a.rcpt_tos for a in relay.arrived] == [["bob@builder.org"]]
    monkeypatch.setattr(sender, "personalize", personalize)
    game.cli("send", "--at", "2026-01-05T02:01:00Z")
    assert [(d.rcpt, d.status, d.attempts) for d in deliveries(game)] == [(ALICE, "sent", 2), ("bob@builder.org", "sent", 1)]
