"""Sender authentication: authres, dkim (dkimpy, DNS injected), office passphrases (issue 5)."""
from __future__ import annotations

import dkim
import pytest

from mailer import dkim as dkim_mode
from tests.mailer.support import configure, dkim_key, outbox_mail
from tests.support import EMPEROR, SCRIBE, make_mail

ALICE = "alice@wonder.land"
MX = "mx.imperial.test"


def authres_game(make_play, authserv_id: str = MX):
    play = make_play(auth="authres")
    if authserv_id:
        configure(play, f'authserv_id = "{authserv_id}"\n', after='mode = "authres"')
    return play


def propose_with(play, results: list[str], sender: str = ALICE, n: int = 1) -> str:
    headers = {"Authentication-Results": results[0]} if len(results) == 1 else {}
    raw = make_mail(sender, "Proposal: Free cake", message_id=f"auth{n}@x", headers=headers)
    if len(results) > 1:  # several headers, topmost first
        raw = b"".join(f"Authentication-Results: {r}\n".encode() for r in results) + raw
    path = play.dir.parent / f"auth{n}.eml"
    path.write_bytes(raw)
    return play.cli("ingest", "--at", "2026-01-05T01:00:00Z", str(path))


@pytest.mark.parametrize("result, ok", [
    (f"{MX}; dkim=pass header.d=wonder.land header.s=sel; spf=pass smtp.mailfrom=wonder.land", True),
    (f"{MX}; dmarc=pass (p=reject) header.from=wonder.land", True),
    (f"{MX}; dkim=pass header.d=mail.wonder.land", True),  # relaxed alignment: same organisation
    (f"{MX}; dkim=pass header.d=bulkmailer.test; spf=pass smtp.mailfrom=wonder.land", False),  # not aligned
    (f"{MX}; dkim=fail header.d=wonder.land; dmarc=fail header.from=wonder.land", False),
    ("mx.evil.test; dkim=pass header.d=wonder.land", False),  # someone else's authserv-id
    (f"{MX}; spf=pass smtp.mailfrom=wonder.land", False),  # SPF alone says nothing about From
    (f"{MX}; dkim=pass header.d=land", False),  # a bare TLD is a public suffix: it never aligns
    (f"{MX}; dmarc=pass header.from=land", False),
])
def test_authres_needs_an_aligned_pass_from_our_authserv_id(make_play, result, ok):
    play = authres_game(make_play)
    out = propose_with(play, [result])
    assert ("recorded as Proposal 1" in out) is ok
    assert len(play.state()["submissions"]) == int(ok)
    outbox = play.outbox()
    assert [m["to"] for m in outbox if m["kind"] == "answer"] == ([[ALICE]] if ok else [])
    assert ok or outbox == []  # nothing is sent about what is not authenticated


@pytest.mark.parametrize("sender, domain, ok", [
    ("x@evil.co.uk", "co.uk", False),  # a public suffix, not an organisation
    ("x@evil.co.uk", "mail.evil.co.uk", True),
    ("x@alice.github.io", "github.io", False),  # the list's private section counts too
    ("x@alice.github.io", "bob.github.io", False),
])
def test_authres_alignment_is_by_organisational_domain(make_play, sender, domain, ok):
    play = authres_game(make_play)
    out = propose_with(play, [f"{MX}; dkim=pass header.d={domain}"], sender=sender)
    assert ("recorded as Proposal 1" in out) is ok


def test_trust_topmost_header_trusts_only_the_topmost_header(make_play):
    play = authres_game(make_play, authserv_id="")
    configure(play, "trust_topmost_header = true\n", after='mode = "authres"')
    forged_below = ["mx.imperial.test; dkim=none", "mx.imperial.test; dkim=pass header.d=wonder.land"]
    assert "not authenticated" in propose_with(play, forged_below, n=1)
    ours_on_top = list(reversed(forged_below))
    assert "recorded as Proposal 1" in propose_with(play, ours_on_top, n=2)


def test_forged_emperor_changes_nothing_and_gets_no_answer(make_play):
    play = authres_game(make_play)
    propose_with(play, [f"{MX}; dkim=pass header.d=wonder.land"])
    raw = make_mail(EMPEROR, "judgment", "Accept 1", message_id="forged@x",
                    headers={"Authentication-Results": f"{MX}; dkim=pass header.d=evil.test"})
    path = play.dir.parent / "forged.eml"
    path.write_bytes(raw)
    assert "not authenticated; nothing done" in play.cli("ingest", "--at", "2026-01-05T02:00:00Z", str(path))
    assert play.state()["submissions"][0]["status"] == "pending"
    assert [m["to"] for m in play.outbox() if m["kind"] == "answer"] == [[ALICE]]
    play.verify()


def _signed(private: bytes, domain: str, sender: str, subject: str, body: str, n: int) -> bytes:
    raw = make_mail(sender, subject, body, message_id=f"dkim{n}@x").replace(b"\n", b"\r\n")
    return dkim.sign(raw, b"sel", domain.encode(), private,
                     include_headers=[b"From", b"To", b"Subject", b"Message-ID"]) + raw


def test_dkim_mode_verifies_in_process_with_injected_dns(make_play, monkeypatch):
    private, record = dkim_key(2048)
    records = {b"sel._domainkey.wonder.land.": record, b"sel._domainkey.elsewhere.test.": record,
               b"sel._domainkey.land.": record}
    monkeypatch.setattr(dkim_mode, "dnsfunc", lambda name, timeout=5: records.get(name))
    play = make_play(auth="dkim")
    mails = {
        "good": _signed(private, "wonder.land", ALICE, "Proposal: Signed cake", "Cake.", 1),
        "tampered": _signed(private, "wonder.land", ALICE, "Proposal: Tampered", "Cake.", 2)
        .replace(b"Cake.", b"Pie!!"),
        "unaligned": _signed(private, "elsewhere.test", ALICE, "Proposal: Unaligned", "Cake.", 3),
        "top-level domain": _signed(private, "land", ALICE, "Proposal: Signed by .land", "Cake.", 5),
        "unsigned": make_mail(ALICE, "Proposal: Unsigned", message_id="dkim4@x"),
    }
    outcomes = {}
    for name, raw in mails.items():
        path = play.dir.parent / f"{name}.eml"
        path.write_bytes(raw)
        outcomes[name] = play.cli("ingest", "--at", "2026-01-05T01:00:00Z", str(path))
    assert "recorded as Proposal 1" in outcomes["good"]
    for name in ("tampered", "unaligned", "top-level domain", "unsigned"):
        assert "not authenticated" in outcomes[name], name
    assert [s["title"] for s in play.state()["submissions"]] == ["Signed cake"]
    play.verify()  # the verdict is in the journal: a replay needs no DNS


def test_office_passphrase_is_required_and_never_echoed(make_play):
    play = make_play()
    configure(play, 'emperor_passphrase = "open sesame"\n', after=f'scribe = "{SCRIBE}"')
    play.propose(ALICE, "Free cake")
    assert "not authenticated; nothing done" in play.judge("Accept 1")
    assert "not authenticated; nothing done" in play.judge("Accept 1\nPassphrase: open barley")
    assert play.state()["submissions"][0]["status"] == "pending"
    out = play.judge("Accept 1\npassphrase: open sesame", at="2026-01-05T03:00:00Z")
    assert "accepted" in out and "not understood" not in out
    assert play.state()["submissions"][0]["status"] == "accepted"
    answers = outbox_mail(play)
    assert [str(m["To"]) for m in answers] == [ALICE, EMPEROR]  # none to the two failures
    assert "sesame" not in answers[1].get_content()
    play.verify()
