"""One delivery's trouble is its own: an address that is not ASCII (SMTPUTF8), any error of one delivery."""
from __future__ import annotations

from mailer import sender
from tests.outbox.conftest import configure
from tests.outbox.test_sender import deliveries

ALICE, JOSE = "alice@wonder.land", "josé@example.org"


def join(game, tmp_path) -> None:
    """José (whose address is not ASCII, RFC 6532) subscribes by mail, then Alice: two answers, José's first."""
    raw = (f"From: José <{JOSE}>\nTo: ths@imperial.test\nSubject: Join\nMessage-ID: <join@example.org>\n"
           "Content-Type: text/plain; charset=utf-8\n\nSubscribe\n").encode()
    path = tmp_path / "jose.eml"
    path.write_bytes(raw)
    game.cli("ingest", "--at", "2026-01-05T01:00:00Z", str(path))
    game.send(ALICE, "Join", "Subscribe", at="2026-01-05T01:01:00Z")


def test_a_non_ascii_address_goes_with_smtputf8_when_the_relay_offers_it(game, relay, tmp_path):
    join(game, tmp_path)
    game.cli("send")
    [to_jose] = relay.to(JOSE)
    assert to_jose.mail_from.startswith("game-bounces+josé=example.org.")
    assert to_jose.data.startswith(b"From: The Humble Scribe <ths@imperial.test>\r\nTo: jos\xc3\xa9@example.org\r\n")
    assert (to_jose.mail["To"], to_jose.mail["Subject"], to_jose.mail["In-Reply-To"]) == (
        JOSE, "Re: Join", "<join@example.org>")
    assert [a.rcpt_tos for a in relay.arrived] == [[JOSE], [ALICE]]
    assert [(d.rcpt, d.status) for d in deliveries(game)] == [(JOSE, "sent"), (ALICE, "sent")]


def test_without_smtputf8_a_non_ascii_address_fails_alone_at_once(make_play, ascii_relay, tmp_path):
    game = configure(make_play(), ascii_relay.address)
    join(game, tmp_path)
    game.cli("send")
    game.cli("send", "--at", "2027-01-01T00:00:00Z")  # never tried again
    jose, alice = deliveries(game)
    assert (jose.rcpt, jose.status, jose.attempts, jose.last_error) == (
        JOSE, "failed", 1, f"the address {JOSE} is not ASCII and the relay {ascii_relay.address} "
        "does not offer SMTPUTF8 (RFC 6531), so it cannot be sent")
    assert (alice.status, [a.rcpt_tos for a in ascii_relay.arrived]) == ("sent", [[ALICE]])
    assert [(r["to"], r["status"], r["last_error"]) for r in game.outbox()] == [
        ([JOSE], "failed", jose.last_error), ([ALICE], "sent", None)]


def test_any_error_of_one_delivery_is_retried_and_the_pass_goes_on(game, relay, monkeypatch):
    game.send(ALICE, "Join", "Subscribe")
    game.send("bob@builder.org", "Join", "Subscribe")
    personalize = sender.personalize

    def broken_for_alice(raw, row, rcpt, ls):
        if rcpt == ALICE:
            raise RuntimeError("cannot make Alice's copy\x00")
        return personalize(raw, row, rcpt, ls)
    monkeypatch.setattr(sender, "personalize", broken_for_alice)
    game.cli("send", "--at", "2026-01-05T02:00:00Z")
    alice, bob = deliveries(game)
    assert (alice.status, alice.attempts, alice.next_attempt, alice.last_error) == (
        "queued", 1, "2026-01-05T02:01:00Z", "RuntimeError: cannot make Alice's copy")
    assert bob.status == "sent" and [a.rcpt_tos for a in relay.arrived] == [["bob@builder.org"]]
    monkeypatch.setattr(sender, "personalize", personalize)
    game.cli("send", "--at", "2026-01-05T02:01:00Z")
    assert [(d.rcpt, d.status, d.attempts) for d in deliveries(game)] == [(ALICE, "sent", 2), ("bob@builder.org", "sent", 1)]
