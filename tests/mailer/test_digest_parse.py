"""A digest reads each post as ``email.message_from_bytes(raw, policy=...)`` reads it, however it is
read (``digest.parsed``: most posts without the feed parser, as the fold reads them)."""
from __future__ import annotations

import email

import pytest
from hypothesis import given, settings, strategies as st

from mailer import digest, headers
from tests.mailer.test_header_section import BODIES, sections, tree

TYPES = st.sampled_from([
    "text/plain", 'text/plain; charset="utf-8"', "text/plain;\r\n charset=us-ascii", "TEXT/HTML", "text/plain (a note)",
    "(a note)multipart/mixed; boundary=z", "multipart/mixed; boundary=z", "multipart/alternative", "message/rfc822",
    "message/delivery-status", "multipart/mixed (no boundary)", "=?utf-8?q?text?=/plain", "text", "text/pl\udce9in",
    "text/plain; charset*=utf-8''x", "application/octet-stream", " ", ""])
POSTS = st.sampled_from([
    b"From: Ann <a@x.test>\r\nSubject: Hi\r\nMessage-ID: <1@x.test>\r\n",
    b"From: a@x.test\r\nTo: players@imperial.test\r\nSubject: Re: a\r\n  long one\r\nDate: Mon, 5 Jan 2026 01:00:00 +0000\r\n",
    b"From a@x Mon Jan 5\r\nFrom: a@x.test\r\n", b" folded first\r\nFrom: a@x.test\r\n", b"From: a@x.test\n"])


@st.composite
def posts(draw: st.DrawFn) -> bytes:
    """A post's fields, maybe a Content-Type (or two), then a body: plain sections most often, others too."""
    head = draw(st.one_of(POSTS, sections().map(lambda s: s.rstrip(b"\r\n") + b"\r\n" if s.strip() else b"")))
    types = draw(st.lists(TYPES, max_size=2))
    fields = "".join(f"Content-Type: {t}\r\n" for t in types).encode("utf-8", "surrogateescape")
    return head + fields + b"\r\n" + draw(BODIES).encode("utf-8", "surrogateescape")


@pytest.mark.slow  # 2,000 hypothesis examples
@settings(max_examples=2000, deadline=None)
@given(raw=posts())
def test_every_post_is_read_into_the_tree_the_email_package_makes(raw):
    verbatim = headers.verbatim()
    assert tree(digest.parsed(raw, verbatim)) == tree(email.message_from_bytes(raw, policy=verbatim))


@pytest.mark.parametrize("raw", [b"From: a@x.test\r\nContent-Type: (a note)multipart/mixed; boundary=z\r\n\r\n"
                                 b"--z\r\nContent-Type: text/plain\r\n\r\npart\r\n--z--\r\n",
                                 b"From: a@x.test\r\nContent-Type: message/rfc822\r\n\r\nFrom: b@x.test\r\n\r\nx\r\n"])
def test_a_post_policy_default_reads_otherwise_is_read_by_the_feed_parser(raw):
    verbatim = headers.verbatim()
    expected = tree(email.message_from_bytes(raw, policy=verbatim))
    assert expected["_payload"] != expected["_payload"].__class__()  # (a tree of parts, or a message)
    assert tree(digest.parsed(raw, verbatim)) == expected


def test_a_plain_post_is_read_without_the_feed_parser(monkeypatch):
    raw = b"From: Ann <a@x.test>\r\nContent-Type: text/plain; charset=\"utf-8\"\r\n\r\nHello\r\n\r\nall\r\n"
    verbatim = headers.verbatim()
    expected = tree(email.message_from_bytes(raw, policy=verbatim))
    monkeypatch.setattr(digest.email, "message_from_bytes", lambda *a, **k: pytest.fail("the feed parser read it"))
    assert tree(digest.parsed(raw, verbatim)) == expected
