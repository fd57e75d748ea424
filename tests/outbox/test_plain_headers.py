"""Composing without the email package's header objects writes the very bytes it would write.

A plain header value is stored as its line (``headers.put``, ``put_date``), the body's headers as the lines
``set_content`` makes (``plain_text.set_text``), a game's constant headers as the lines they fold to
(``ListSettings.put``), and a single ASCII part is written without the generator
(``headers.as_bytes``): each is held here to the email package's own result, byte for byte.
"""
from __future__ import annotations

import email
from datetime import timezone
from email.message import EmailMessage
from email.utils import format_datetime

from hypothesis import HealthCheck, example, given, settings, strategies as st

from mailer import headers, plain_text
from mailer.headers import PLAIN, VERBATIM, composing_policy

NAMES = ["Subject", "To", "Reply-To", "Message-ID", "In-Reply-To", "References", "Auto-Submitted",
         "List-Id", "X-Loop"]
BODY = "A line.\n\n" + "A line of more than seventy-eight characters, which set_content encodes as quoted-printable.\n"
POLICY = composing_policy()
CHECKS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _kind(name: str) -> type:
    return next(kind for kind in PLAIN if issubclass(POLICY.header_factory[name], kind))


def _value(name: str) -> st.SearchStrategy[str]:
    """Values of the shape ``put`` writes as given, and any text at all."""
    return st.one_of(st.from_regex(PLAIN[_kind(name)], fullmatch=True), st.text(max_size=90))


@st.composite
def header(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(NAMES))
    return name, draw(_value(name))


def _both(name: str, value: str, utf8: bool = False) -> tuple[EmailMessage, EmailMessage]:
    """The mail made the email package's way and ``put``'s way."""
    made = []
    for way in ("package", "put"):
        mail = EmailMessage(policy=POLICY.clone(utf8=utf8))  # type: ignore[call-arg]
        mail["From"] = "ths@imperial.test"
        if way == "package":
            mail[name] = value
            mail.set_content(BODY)
        else:
            headers.put(mail, name, value)
            plain_text.set_text(mail, BODY)
        made.append(mail)
    return made[0], made[1]


@CHECKS
@given(header(), st.booleans())
@example(("Subject", "Re: =?utf-8?q?x?="), False)
@example(("Message-ID", "<a..b@c>"), False)
@example(("To", "a.@b"), False)
@example(("Subject", "?="), False)  # read: "? =", as text() makes it (its line held "?=")
def test_a_header_put_is_written_as_the_package_writes_it(item, utf8):
    name, value = item
    try:
        package, put = _both(name, value, utf8)
    except (ValueError, IndexError, TypeError):  # the package refuses it: put must refuse it too
        return
    assert _written(headers.as_bytes, put) == _written(bytes, put) == _written(bytes, package)
    assert headers.read(put, name) == headers.read(package, name)


@CHECKS
@given(st.sampled_from(["Subject", "X-Note", "To", "Date"]),
       st.one_of(st.text(max_size=120), st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=120)),
       st.sampled_from(["long", "none", "all"]), st.sampled_from([78, 0, 40]), st.booleans())
@example("Subject", "x" * 70, "long", 78, False)
@example("Subject", "x" * 71, "long", 78, False)
@example("X-Note", "a\x0bb", "none", 78, False)
@example("X-Note", "caf\u00e9", "none", 78, True)
@example("X-Note", "caf\udce9", "none", 78, False)
def test_a_header_stored_as_its_line_is_written_as_the_generator_writes_it(name, value, refold, width, utf8):
    """``as_bytes`` writes a line as it is where the policy would (``headers._folded``), else as the policy folds it."""
    mail = EmailMessage(policy=POLICY.clone(refold_source=refold, max_line_length=width, utf8=utf8))
    mail.set_raw(name, value)
    mail.set_payload("x\n")
    assert _written(headers.as_bytes, mail) == _written(bytes, mail)


def _written(write, mail: EmailMessage) -> bytes | str:
    """The mail's bytes, or the name of the exception writing it raised."""
    try:
        return write(mail)
    except Exception as exc:
        return type(exc).__name__


@CHECKS
@given(st.datetimes(timezones=st.timezones()))
def test_a_date_put_is_written_as_the_package_writes_it(at):
    package, put = EmailMessage(policy=POLICY), EmailMessage(policy=POLICY)
    package["Date"] = format_datetime(at.astimezone(timezone.utc))
    headers.put_date(put, at)
    assert bytes(put) == bytes(package)


@CHECKS
@given(st.text(max_size=400))
@example("x" * 79 + "\n")
@example("caf\u00e9\n")
@example("a\rb\r\nc\x0bd\n")
def test_set_text_makes_what_set_content_makes(text):
    package, ours = EmailMessage(policy=POLICY), EmailMessage(policy=POLICY)
    package.set_content(text)
    plain_text.set_text(ours, text)
    assert headers.as_bytes(ours) == bytes(ours) == bytes(package)


LINE = st.text(st.sampled_from("ab =\t\u00e9\u20ac\x00\x0c\r-."), max_size=120)


@CHECKS
@given(st.lists(LINE, min_size=9, max_size=30).map("\n".join), st.sampled_from(["", "\n", "\n\n"]))
@example("x" * 79 + "\n" * 12, "")  # quoted-printable, chosen by its first ten lines
@example("\u00e9" * 80 + "\n" * 12, "")  # base64
def test_a_long_text_is_encoded_as_set_content_encodes_it(text, end):
    """Chosen by its first ten lines and encoded once (``plain_text._encoded``), the same bytes."""
    package, ours = EmailMessage(policy=POLICY), EmailMessage(policy=POLICY)
    package.set_content(text + end)
    plain_text.set_text(ours, text + end)
    assert headers.as_bytes(ours) == bytes(ours) == bytes(package)


@CHECKS
@given(st.sampled_from(["From", "List-Id", "List-Post", "List-Subscribe", "Auto-Submitted", "X-Loop"]),
       st.text(max_size=120), st.booleans())
@example("List-Id", "Imperial Nomic players <players.imperial.test>", False)
@example("List-Id", "Caf\u00e9 players <players.imperial.test>", True)
def test_a_constant_header_is_written_as_its_header_object_was(name, value, utf8):
    from mailer.listconfig import ListSettings
    ls = ListSettings(name="n", address="ths@imperial.test", list_address="players@imperial.test",
                      domain="imperial.test", token_key="k", site_url="", subject_tag="[n]", bounce_prefix="b",
                      bounce_limit=3, operator="op@imperial.test")
    made = []
    for way in ("package", "put"):
        mail = EmailMessage(policy=ls.policy.clone(utf8=utf8))  # type: ignore[call-arg]
        try:
            given_value = headers.mailbox(value, "ths@imperial.test") if name == "From" else value
            if way == "package":
                mail[name] = ls.policy.header_factory(name, given_value)
            else:
                ls.put(mail, name, given_value)
        except Exception:  # the package refuses it (the game's name, its addresses: checked at start)
            return
        mail.set_content("x\n")
        made.append(mail)
    assert bytes(made[0]) == bytes(made[1]) == headers.as_bytes(made[1])


@CHECKS
@given(st.text(max_size=60), st.text(max_size=200), st.sampled_from(["\n", "\r\n"]))
def test_a_received_mail_is_written_as_the_generator_writes_it(subject, body, end):
    raw = (f"From: a@b.example\nSubject: {subject}\nMIME-Version: 1.0\n"
           "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n" + body)
    mail = email.message_from_bytes(raw.replace("\n", end).encode("utf-8", "surrogateescape"), policy=VERBATIM)
    assert headers.as_bytes(mail) == bytes(mail)
