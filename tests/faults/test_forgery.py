"""Forged senders, in authres and dkim modes: nothing changes and nobody is answered.

Each forgery is tried as the Emperor (judging a pending Proposal, ending the
day, proclaiming) and as players (a newcomer proposing, an existing player
proposing). A genuine message of each kind is sent last, as the control that
shows the forgeries were refused for their forgery and not for their content.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from itertools import count

import dkim
import pytest
from sqlmodel import Session, select

from mailer import dkim as dkim_mode
from mailer.outbox import OutboxMessage
from nomic.game import Game
from tests.mailer.support import dkim_key
from tests.support import EMPEROR

MX = "mx.imperial.test"
ALICE, BOB = "alice@wonder.land", "bob@example.org"
START = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
# (sender, subject, body): what each forgery tries to do
ACTS = [
    (EMPEROR, "judgment", "Accept 1"),
    (EMPEROR, "judgment", "New day"),
    (EMPEROR, "Proclamation: all power to me", "Rule 1 is repealed."),
    (ALICE, "Proposal: forged by someone else", "Cake."),
    (BOB, "Proposal: a newcomer who never wrote", "Pie."),
]
_ids = count(1)


def _mail(sender: str, subject: str, body: str, headers: list[tuple[str, str]] = ()) -> EmailMessage:
    msg = EmailMessage()
    for name, value in headers:
        msg[name] = value
    msg["From"] = sender
    msg["To"] = "ths@imperial.test"
    msg["Subject"] = subject
    msg["Message-ID"] = f"<forgery{next(_ids)}@test>"
    msg.set_content(body)
    return msg


def _results(domain: str) -> list[str | None]:
    """Authentication-Results that must not authenticate a From in ``domain`` (None: no header)."""
    tld = domain.rpartition(".")[2]
    return [
        None,
        f"{MX}; dkim=fail header.d={domain}", f"{MX}; dkim=neutral header.d={domain}",
        f"{MX}; dkim=none", f"{MX}; dkim=temperror header.d={domain}", f"{MX}; dkim=permerror header.d={domain}",
        f"{MX}; dkim=policy header.d={domain}", f"{MX}; dmarc=fail header.from={domain}",
        f"{MX}; dmarc=none header.from={domain}", f"{MX}; spf=pass smtp.mailfrom={domain}",
        f"{MX}; dkim=pass header.d=evil.example", f"{MX}; dkim=pass header.d={domain}.evil.example",
        f"{MX}; dkim=pass header.d=evil{domain}", f"{MX}; dmarc=pass header.from=evil.example",
        f"{MX}; dkim=pass", f"{MX}; dkim=fail (dkim=pass header.d={domain}) header.d={domain}",
        f"{MX} dkim=pass header.d={domain}",  # no semicolon: unparseable
        f"evil.example; dkim=pass header.d={domain}", f"{MX}.evil.example; dkim=pass header.d={domain}",
        f"x{MX}; dkim=pass header.d={domain}", f"{MX}; dmarc=pass header.from=evil.example; dkim=fail",
        f"{MX}; dkim=pass header.d={tld}", f"{MX}; dmarc=pass header.from={tld}",  # a public suffix never aligns
        f"{MX}; dkim=pass header.i=@{tld}",
    ]


def _authres_forgeries() -> list[tuple[str, bytes]]:
    out = []
    for sender, subject, body in ACTS:
        domain = sender.rpartition("@")[2]
        for result in _results(domain):
            headers = [("Authentication-Results", result)] if result else []
            out.append((f"{sender} {result}", bytes(_mail(sender, subject, body, headers))))
        genuine = f"{MX}; dkim=pass header.d={domain}"
        # A genuine result, but in the wrong place or for a From that is not the sender's alone:
        forwarded = _mail("mallory@evil.example", subject, body)
        forwarded.add_attachment(_mail(sender, subject, body, [("Authentication-Results", genuine)]))
        out.append((f"{sender} result inside an attachment", bytes(forwarded)))
        folded = bytes(_mail(sender, subject, body)).replace(
            f"Subject: {subject}\n".encode(), f"Subject: {subject}\n Authentication-Results: {genuine}\n".encode())
        out.append((f"{sender} result folded into the Subject", folded))
        two = _mail(f"{sender}, mallory@evil.example", subject, body, [("Authentication-Results", genuine)])
        out.append((f"{sender} two addresses in From", bytes(two)))
        raw = bytes(_mail(sender, subject, body, [("Authentication-Results", genuine)]))
        out.append((f"{sender} two From headers", b"From: mallory@evil.example\n" + raw))
    return out


def _game(make_play, mode: str) -> Game:
    play = make_play(auth=mode)
    toml = play.dir / "game.toml"
    toml.write_text(toml.read_text().replace(f'mode = "{mode}"', f'mode = "{mode}"\nauthserv_id = "{MX}"'))
    return Game(play.dir)


def _feed(game: Game, raw: bytes, at: datetime) -> list[OutboxMessage]:
    game.inbox.receive(raw, at, source="test")
    ((entry, _events),) = game.process()
    with Session(game.db) as s:
        return list(s.exec(select(OutboxMessage).where(OutboxMessage.seq == entry.seq)).all())


def _try_all(game: Game, forgeries: list[tuple[str, bytes]], genuine: list[bytes]) -> None:
    at = START
    assert _feed(game, genuine[0], at)  # alice's genuine Proposal 1: something for the Emperor to judge
    before = game.state().model_dump(mode="json")
    for name, raw in forgeries:
        at += timedelta(minutes=1)
        assert _feed(game, raw, at) == [], f"forgery answered: {name}"
        assert game.state().model_dump(mode="json") == before, f"forgery changed the game: {name}"
    print(f"\n{len(forgeries)} forgeries tried, none believed")
    for raw in genuine[1:]:  # the controls: the same acts, genuinely authenticated, do act
        at += timedelta(minutes=1)
        assert _feed(game, raw, at), "a genuine message got no answer"
    state = game.state()
    assert state.submissions[0].status == "accepted"
    ok, message = game.verify()
    assert ok, message


def test_authres_forgeries_change_nothing_and_get_no_answer(make_play):
    game = _game(make_play, "authres")
    genuine = [bytes(_mail(s, subj, b, [("Authentication-Results", f"{MX}; dkim=pass header.d={s.split('@')[1]}")]))
               for s, subj, b in [ACTS[3], ACTS[0]]]
    _try_all(game, _authres_forgeries(), genuine)


def _sign(msg: EmailMessage, domain: str, private: bytes, selector: bytes = b"sel", **kw) -> bytes:
    raw = bytes(msg).replace(b"\n", b"\r\n")
    return dkim.sign(raw, selector, domain.encode(), private,
                     include_headers=[b"From", b"To", b"Subject", b"Message-ID"], **kw) + raw


@pytest.fixture
def dns(monkeypatch):
    """Real keys for imperial.test, wonder.land and example.org (and the forger's evil.example) in injected DNS,
    and the forger's key "tld" published for each bare top-level domain (test, land, org)."""
    keys = {d: dkim_key() for d in ("imperial.test", "wonder.land", "example.org", "evil.example", "tld")}
    records = {f"sel._domainkey.{d}.".encode(): record for d, (_, record) in keys.items()}
    records |= {f"sel._domainkey.{tld}.".encode(): keys["tld"][1] for tld in ("test", "land", "org")}
    records[b"revoked._domainkey.imperial.test."] = b"v=DKIM1; k=rsa; p="
    monkeypatch.setattr(dkim_mode, "dnsfunc", lambda name, timeout=5: records.get(name))
    return {d: private for d, (private, _) in keys.items()}


def _dkim_forgeries(keys: dict[str, bytes]) -> list[tuple[str, bytes]]:
    forger, _ = dkim_key()
    out = []
    for sender, subject, body in ACTS:
        domain = sender.rpartition("@")[2]
        own = keys[domain]
        out += [
            (f"{sender} unsigned", bytes(_mail(sender, subject, body))),
            (f"{sender} signed by evil.example", _sign(_mail(sender, subject, body), "evil.example", keys["evil.example"])),
            (f"{sender} signed by the bare TLD",
             _sign(_mail(sender, subject, body), domain.rpartition(".")[2], keys["tld"])),
            (f"{sender} forger's key as d={domain}", _sign(_mail(sender, subject, body), domain, forger)),
            (f"{sender} revoked selector", _sign(_mail(sender, subject, body), domain, own, selector=b"revoked")),
            (f"{sender} unknown selector", _sign(_mail(sender, subject, body), domain, own, selector=b"nokey")),
            (f"{sender} body changed after signing",
             _sign(_mail(sender, subject, "Reject 1"), domain, own).replace(b"Reject 1", body.encode())),
            (f"{sender} subject changed after signing",
             _sign(_mail(sender, "harmless", body), domain, own).replace(b"Subject: harmless", f"Subject: {subject}".encode())),
        ]
        def mallory() -> bytes:
            return _sign(_mail("mallory@evil.example", subject, body), "evil.example", keys["evil.example"])
        out.append((f"{sender} From replaced after signing",
                    mallory().replace(b"From: mallory@evil.example", f"From: {sender}".encode())))
        out.append((f"{sender} second From header above a signed one", f"From: {sender}\r\n".encode() + mallory()))
    return out


def test_dkim_forgeries_change_nothing_and_get_no_answer(make_play, dns):
    game = _game(make_play, "dkim")
    genuine = [_sign(_mail(s, subj, b), s.split("@")[1], dns[s.split("@")[1]]) for s, subj, b in [ACTS[3], ACTS[0]]]
    _try_all(game, _dkim_forgeries(dns), genuine)


def test_dkim_body_length_limit_does_not_let_appended_commands_through(make_play, dns):
    """RFC 6376 section 8.2: with l=, anyone may append to a signed body. The Emperor's real signed mail
    (one that never reached the game, e.g. sent elsewhere) re-sent with an appended "Accept 1"."""
    game = _game(make_play, "dkim")
    assert _feed(game, _sign(_mail(*ACTS[3]), "wonder.land", dns["wonder.land"]), START)
    before = game.state().model_dump(mode="json")
    raw = bytes(_mail(EMPEROR, "judgment", "Ignore 9")).replace(b"\n", b"\r\n")
    signed = dkim.sign(raw, b"sel", b"imperial.test", dns["imperial.test"], length=True,
                       include_headers=[b"From", b"To", b"Subject"]) + raw
    _feed(game, signed + b"Accept 1\r\n", START + timedelta(minutes=1))
    assert game.state().model_dump(mode="json") == before
