"""An announcement's copies are written once (``compose.Prepared``): each copy, the list's too, is
stored with the very bytes, Subject and Message-ID that making it anew and queueing it would store."""
from __future__ import annotations

from datetime import datetime, timezone
from email.message import EmailMessage

from hypothesis import HealthCheck, example, given, settings, strategies as st

from mailer import headers, outbox
from mailer.compose import Prepared, list_headers, machine_mail, thread
from mailer.listconfig import ListSettings

LS = ListSettings(name="Imperial Nomic", address="ths@imperial.test", list_address="players@imperial.test",
                  domain="imperial.test", token_key="k", site_url="https://imperial.test/", subject_tag="[Imperial]",
                  bounce_prefix="bounces", bounce_limit=5, operator="op@imperial.test")
AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
CHECKS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ADDRESS = st.one_of(st.from_regex(r"[a-z0-9.]{1,20}@[a-z]{1,10}\.test", fullmatch=True), st.text(max_size=40))


def _stored(mail: outbox.Mail) -> tuple[bytes, str, str]:
    """What ``outbox.queue`` stores of a mail: its bytes, Subject and Message-ID."""
    if isinstance(mail, outbox.Composed):
        return mail.raw, mail.subject, mail.message_id
    return headers.as_bytes(mail), headers.read(mail, "Subject"), headers.read(mail, "Message-ID")


def _maker(subject: str, text: str):
    def make(to: str) -> EmailMessage:
        mail = machine_mail(LS, to=to, at=AT, subject=subject, msgid="<sub1.submitted.7.ab@imperial.test>",
                            template="mail/post_refused.txt", reason=text, sender="a@b.test")
        thread(mail, "parent@players.test", reply=False)
        return mail
    return make


@CHECKS
@given(st.lists(ADDRESS, max_size=3), st.text(max_size=120), st.text(max_size=300))
@example(["tie@imperial.test", "jürgen@players.test", "not an address"], "Proposal 1: Ünïcode", "a")
@example(["tie@imperial.test"], "Proposal 2: Order", "x" * 200)
def test_every_copy_is_stored_as_made_anew(tos, subject, text):
    make = _maker(subject, text)
    copy = Prepared(LS, make)
    for to in tos:
        assert _stored(copy(to)) == _stored(make(to))
    listed = make(LS.list_address)
    list_headers(listed, LS)
    assert _stored(copy.listed()) == _stored(listed)


def test_an_ascii_announcement_is_written_once():
    """Its copies are bytes, not mails made again: ``make`` runs once for them all."""
    made = []
    make = _maker("Proposal 3: Order", "you are not subscribed")
    copy = Prepared(LS, lambda to: made.append(to) or make(to))
    mails = [copy("tie@imperial.test"), copy.listed(), copy("p1@players.test")]
    assert made == [LS.list_address]
    assert all(isinstance(m, outbox.Composed) for m in mails)
    assert b"\nTo: tie@imperial.test\n" in mails[0].raw and b"List-Id: " not in mails[0].raw
    assert b"\nTo: players@imperial.test\n" in mails[1].raw and b"\nList-Id: Imperial Nomic players" in mails[1].raw
