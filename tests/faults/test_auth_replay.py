"""Genuine signed mail put to another use: replayed with headers prepended, re-sent from a private
exchange, or wrapped so that the game reads other headers than the DKIM verifier checked.

In each attack the DKIM signature still verifies; what must stop it is that the game reads only
the headers the signature covers, and only mail that names the game among its signed recipients.
"""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from itertools import count

import dkim
import pytest
from sqlmodel import Session, select

from mailer import dkim as dkim_mode
from mailer.auth import Verdict, authenticate
from mailer.message import parse_head
from mailer.outbox import OutboxMessage
from nomic.game import Game
from storage.settings.common import AuthSection
from tests.mailer.support import dkim_key
from tests.support import EMPEROR, GAME_ADDRESS, LIST_ADDRESS

MX = "mx.imperial.test"
ALICE, BOB = "alice@wonder.land", "bob@example.org"
OWNED = (GAME_ADDRESS, LIST_ADDRESS)
START = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
SIGNED = [b"From", b"To", b"Subject", b"Message-ID", b"In-Reply-To", b"References"]
_ids = count(1)


@pytest.fixture
def keys(monkeypatch) -> dict[str, bytes]:
    """A key for each of imperial.test, wonder.land and example.org, published in injected DNS."""
    pairs = {d: dkim_key() for d in ("imperial.test", "wonder.land", "example.org")}
    records = {f"sel._domainkey.{d}.".encode(): record for d, (_, record) in pairs.items()}
    monkeypatch.setattr(dkim_mode, "dnsfunc", lambda name, timeout=5: records.get(name))
    return {d: private for d, (private, _) in pairs.items()}


def _unsigned(sender: str, subject: str, body: str, *, to: str = GAME_ADDRESS,
              headers: dict[str, str] | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Message-ID"] = f"<replay{next(_ids)}@{sender.split('@')[1]}>"
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    return bytes(msg).replace(b"\n", b"\r\n")


def _signed(keys: dict[str, bytes], sender: str, subject: str, body: str, *, to: str = GAME_ADDRESS,
            headers: dict[str, str] | None = None, sign: list[bytes] = SIGNED) -> bytes:
    raw = _unsigned(sender, subject, body, to=to, headers=headers)
    domain = sender.split("@")[1]
    return dkim.sign(raw, b"sel", domain.encode(), keys[domain], include_headers=sign) + raw


def _game(make_play, mode: str) -> Game:
    play = make_play(auth=mode)
    toml = play.dir / "game.toml"
    toml.write_text(toml.read_text().replace(f'mode = "{mode}"', f'mode = "{mode}"\nauthserv_id = "{MX}"'))
    return Game(play.dir)


def _feed(game: Game, raw: bytes, at: datetime) -> tuple[dict, list[OutboxMessage]]:
    """Journal and play one message: its stored verdict and the mail it caused."""
    receipt = game.inbox.receive(raw, at, source="test")
    ((entry, _events),) = game.process()
    assert entry.seq == receipt.seq
    with Session(game.db) as s:
        answers = list(s.exec(select(OutboxMessage).where(OutboxMessage.seq == entry.seq)).all())
    return json.loads(entry.meta)["auth"], answers


def _dkim(raw: bytes, owned: tuple[str, ...] = OWNED) -> Verdict:
    return authenticate(raw, parse_head(raw), AuthSection(mode="dkim", authserv_id="", trust_topmost_header=False),
                        owned=owned)


def test_a_signed_accept_replayed_with_prepended_thread_headers_judges_nothing_else(make_play, keys):
    """The Emperor's "Accept" in reply to Proposal 1, re-sent with a new Message-ID, In-Reply-To,
    References and Subject on top: the unsigned copies would bind it to Proposal 2."""
    game = _game(make_play, "dkim")
    p1 = _signed(keys, ALICE, "Proposal: one", "Cake.")
    p2 = _signed(keys, BOB, "Proposal: two", "Pie.")
    assert _feed(game, p1, START)[0]["authenticated"] and _feed(game, p2, START)[0]["authenticated"]
    accept = _signed(keys, EMPEROR, "Re: Proposal: one", "Accept",
                     headers={"In-Reply-To": parse_head(p1).message_id.join("<>"),
                              "References": parse_head(p1).message_id.join("<>")})
    verdict, answers = _feed(game, accept, START + timedelta(minutes=1))
    assert verdict["authenticated"] and answers
    assert [s.status for s in game.state().submissions] == ["accepted", "pending"]

    two = parse_head(p2).message_id.join("<>")
    replay = (f"Message-ID: <replayed@evil.example>\r\nIn-Reply-To: {two}\r\nReferences: {two}\r\n"
              "Subject: Re: Proposal: two\r\n").encode() + accept
    verdict, answers = _feed(game, replay, START + timedelta(minutes=2))
    assert not verdict["authenticated"] and answers == []
    assert "Message-ID appears 2 times" in verdict["detail"]
    assert [s.status for s in game.state().submissions] == ["accepted", "pending"]
    ok, message = game.verify()
    assert ok, message


def test_copies_hidden_below_a_long_header_section_are_counted(make_play, keys):
    """Signed fields may be moved (a verifier takes them in h= order): the genuine From on top, forged
    thread headers under it, then 150 KB of padding before the genuine rest. The game's parser may
    stop early in such a header section, and then sees only the forged copies."""
    game = _game(make_play, "dkim")
    p1, p2 = _signed(keys, ALICE, "Proposal: one", "Cake."), _signed(keys, BOB, "Proposal: two", "Pie.")
    for proposal in (p1, p2):
        _feed(game, proposal, START)
    one, two = parse_head(p1).message_id.join("<>"), parse_head(p2).message_id.join("<>")
    accept = _signed(keys, EMPEROR, "Re: Proposal: one", "Accept", headers={"In-Reply-To": one, "References": one})
    assert _feed(game, accept, START + timedelta(minutes=1))[0]["authenticated"]

    head, _, body = accept.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    genuine_from = next(line for line in lines if line.startswith(b"From:"))
    forged = f"Message-ID: <hidden@evil.example>\r\nIn-Reply-To: {two}\r\nReferences: {two}\r\n".encode()
    padding = b"".join(b"X-Pad: %06d %s\r\n" % (n, b"x" * 60) for n in range(2000))
    rest = b"\r\n".join(line for line in lines if line != genuine_from)
    attack = genuine_from + b"\r\n" + forged + padding + rest + b"\r\n\r\n" + body
    verdict, answers = _feed(game, attack, START + timedelta(minutes=2))
    assert not verdict["authenticated"] and answers == []
    assert [s.status for s in game.state().submissions] == ["accepted", "pending"]
    detail = _dkim(attack).detail  # whatever the caller's parser saw, every copy is counted
    assert "Message-ID appears 2 times" in detail and "In-Reply-To appears 2 times" in detail


@pytest.mark.parametrize("mode", ["dkim", "authres"])
@pytest.mark.parametrize("message_id", [b"", b"Message-ID: not-an-id\r\n"])
def test_mail_without_a_message_id_is_refused(keys, mode, message_id):
    """The journal knows a message by its Message-ID; without one, by a hash of the bytes, so the same
    signed mail re-sent with any unsigned header added would count as new (a second "New day")."""
    mail = b"".join(message_id if line.startswith(b"Message-ID:") else line
                    for line in _unsigned(EMPEROR, "judgment", "New day").splitlines(keepends=True))
    raw = dkim.sign(mail, b"sel", b"imperial.test", keys["imperial.test"], include_headers=SIGNED) + mail
    if mode == "authres":
        raw = f"Authentication-Results: {MX}; dkim=pass header.d=imperial.test\r\n".encode() + raw
    verdict = authenticate(raw, parse_head(raw), AuthSection(mode=mode, authserv_id=MX, trust_topmost_header=False),
                           owned=OWNED)
    assert not verdict.authenticated
    assert verdict.detail.endswith("no Message-ID")


@pytest.mark.parametrize("header", ["Message-ID", "In-Reply-To", "References", "Subject", "To"])
def test_a_header_the_game_reads_must_be_covered_by_the_signature(keys, header):
    signed = [h for h in SIGNED if h.decode() != header]
    raw = _signed(keys, EMPEROR, "judgment", "Accept 1", sign=signed,
                  headers={"In-Reply-To": "<x@y>", "References": "<x@y>"})
    verdict = _dkim(raw)
    assert not verdict.authenticated
    assert f"{header} is not signed" in verdict.detail


def test_an_unsigned_cc_added_to_the_game_is_refused(keys):
    raw = _signed(keys, EMPEROR, "judgment", "Accept 1", to=BOB)
    verdict = _dkim(b"Cc: " + GAME_ADDRESS.encode() + b"\r\n" + raw)
    assert not verdict.authenticated
    assert "Cc is not signed" in verdict.detail


def test_a_repeated_signed_header_is_refused_even_one_the_game_does_not_read(keys):
    raw = _signed(keys, EMPEROR, "judgment", "Accept 1", headers={"Date": "Mon, 5 Jan 2026 01:00:00 +0000"},
                  sign=SIGNED + [b"Date"])
    assert _dkim(raw).authenticated
    verdict = _dkim(b"Date: Tue, 6 Jan 2026 01:00:00 +0000\r\n" + raw)
    assert not verdict.authenticated
    assert "Date appears 2 times" in verdict.detail


@pytest.mark.parametrize("header", [b"Received", b"DKIM-Signature"])
def test_a_signed_header_that_transit_adds_again_may_repeat(keys, header):
    """RFC 6376 5.4.2: a signer may sign a Received (or an earlier signer's DKIM-Signature); relays add
    more of them above the signature. The game reads neither, so more copies change nothing it reads."""
    earlier, delivered = {
        b"Received": (b"Received: from client by mx.imperial.test; Mon, 5 Jan 2026 00:59:00 +0000\r\n",
                      b"Received: from mx.imperial.test by ths; Mon, 5 Jan 2026 01:00:00 +0000\r\n"),
        b"DKIM-Signature": (_junk_signature("esp.example", 0), _junk_signature("relay.example", 1)),
    }[header]
    mail = earlier + _unsigned(EMPEROR, "judgment", "Accept 1")
    signer = dkim.DKIM(mail)
    signer.should_not_sign.discard(header.lower())
    signature = signer.sign(b"sel", b"imperial.test", keys["imperial.test"], include_headers=SIGNED + [header])
    verdict = _dkim(delivered + signature + mail)
    assert verdict.authenticated, verdict.detail
    assert verdict.detail == "dkim=pass imperial.test"


def test_the_emperors_private_mail_re_sent_to_the_game_is_not_obeyed(keys):
    """A player forwards ("bounces") the Emperor's signed mail to them on to the game, unchanged."""
    private = _signed(keys, EMPEROR, "between us", "Accept 1", to=BOB)
    verdict = _dkim(private)
    assert not verdict.authenticated
    assert "To/Cc names none of the game's addresses" in verdict.detail
    prepended = _dkim(f"To: {GAME_ADDRESS}\r\n".encode() + private)
    assert not prepended.authenticated and "To appears 2 times" in prepended.detail
    assert _dkim(_signed(keys, EMPEROR, "judgment", "Accept 1")).authenticated  # the control
    assert _dkim(_signed(keys, EMPEROR, "list post", "Hello all", to=LIST_ADDRESS)).authenticated
    assert _dkim(private, owned=()).authenticated  # owned left out: not checked


def test_authres_mode_also_requires_the_game_among_to_and_cc():
    """authres mode cannot see what was signed, but the signer's To is in every signature that
    matters (RFC 6376 5.4.1): a single To naming a player is the Emperor's private mail."""
    auth = AuthSection(mode="authres", authserv_id=MX, trust_topmost_header=False)
    result = f"Authentication-Results: {MX}; dkim=pass header.d=imperial.test\r\n".encode()

    def verdict(raw: bytes) -> Verdict:
        return authenticate(result + raw, parse_head(result + raw), auth, owned=OWNED)

    private = f"From: {EMPEROR}\r\nTo: {BOB}\r\nSubject: between us\r\nMessage-ID: <p@x>\r\n\r\nAccept 1\r\n".encode()
    assert "To/Cc names none of the game's addresses" in verdict(private).detail
    prepended = verdict(f"To: {GAME_ADDRESS}\r\n".encode() + private)
    assert not prepended.authenticated and "To appears 2 times" in prepended.detail
    assert verdict(private.replace(BOB.encode(), GAME_ADDRESS.encode())).authenticated


def _lone_cr_wrapper(raw: bytes) -> bytes:
    """Headers and a body hidden in one header line with bare CRs: the DKIM verifier (RFC 5322 lines
    end in CRLF) sees one unsigned X-Note header above the genuine ones; Python's parser ends lines
    at a bare CR too, so it reads the hidden From, To and Subject, then the hidden body."""
    hidden = f"X-Note: a\rFrom: {EMPEROR}\rTo: {GAME_ADDRESS}\rSubject: judgment\r\rAccept 1\r"
    return hidden.encode() + b"\r\n" + raw


@pytest.mark.parametrize("mode", ["dkim", "authres"])
def test_headers_hidden_behind_bare_carriage_returns_are_refused(make_play, keys, mode):
    def received(raw: bytes) -> bytes:  # in authres mode, what the game's MTA adds: the signature verifies
        domain = parse_head(raw).sender.split("@")[1]
        result = f"Authentication-Results: {MX}; dkim=pass header.d={domain}\r\n".encode()
        return result + raw if mode == "authres" else raw

    game = _game(make_play, mode)
    assert _feed(game, received(_signed(keys, ALICE, "Proposal: one", "Cake.")), START)[0]["authenticated"]
    hello = _signed(keys, EMPEROR, "Hello", "Good luck, all.")
    verdict, answers = _feed(game, received(_lone_cr_wrapper(hello)), START + timedelta(minutes=1))
    assert not verdict["authenticated"] and answers == []
    assert "bare CR" in verdict["detail"]
    assert game.state().submissions[0].status == "pending"


def _junk_signature(domain: str, n: int) -> bytes:
    return (f"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d={domain}; s=junk{n};\r\n"
            f" h=from:to:subject; bh=AAAA; b=AAAA\r\n").encode()


def _with_signatures(mail: bytes, signatures: bytes) -> bytes:
    """``mail`` with ``signatures`` below its own header fields (the game reads those first)."""
    head, _, body = mail.partition(b"\r\n\r\n")
    return head + b"\r\n" + signatures + b"\r\n" + body


def test_dkim_signatures_examined_per_message_are_capped(monkeypatch, keys):
    """2,000 signatures: at most 5 aligned ones cost a DNS look-up each, each with a timeout."""
    lookups: list[tuple[bytes, float]] = []
    real = dkim_mode.dnsfunc

    def counting(name: bytes, timeout: float = 5) -> bytes | None:
        lookups.append((name, timeout))
        return real(name, timeout=timeout)

    monkeypatch.setattr(dkim_mode, "dnsfunc", counting)
    aligned = b"".join(_junk_signature("imperial.test", n) for n in range(2000))
    verdict = _dkim(_with_signatures(_unsigned(EMPEROR, "judgment", "Accept 1"), aligned))
    assert not verdict.authenticated
    assert "1995 more aligned DKIM signatures not examined" in verdict.detail
    assert len(lookups) == 5 and all(0 < timeout <= 5 for _, timeout in lookups)

    lookups.clear()
    mail = _unsigned(EMPEROR, "judgment", "Accept 1")
    signature = dkim.sign(mail, b"sel", b"imperial.test", keys["imperial.test"], include_headers=SIGNED)
    unaligned = b"".join(_junk_signature(f"junk{n}.example", n) for n in range(2000))
    verdict = _dkim(_with_signatures(mail, unaligned + signature))  # the genuine signature is the 2,001st
    assert verdict.authenticated, verdict.detail
    assert [name for name, _ in lookups] == [b"sel._domainkey.imperial.test."]  # the others cost no look-up
