"""A plain header section (mailer.header_section) is read into the Message the email package's
header parser makes of it; any other section is left to that parser."""
from __future__ import annotations

from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser, BytesParser

import pytest
from hypothesis import given, settings, strategies as st

from mailer import message
from mailer.header_section import _plain_fields, read_header_section
from mailer.message import Received

NAMES = st.sampled_from(["From", "To", "Subject", "Message-ID", "X-A", "Content-Type", "content-type"] * 3 + ["From ",
                         "", " ", "\t", "Sub ject", "é", "Re:x", ">From"])
VALUES = st.sampled_from(["", " ", "  x", "a@b.c", "Player 1 <p1@x.test>", "multipart/mixed; boundary=z",
                          "=?utf-8?q?J=C3=B6?=", "\xe9", "x:y", "\t tabbed", "\x00", ":", "message/rfc822",
                          "message/delivery-status", "text/plain; charset=utf-8"])
ENDS = st.sampled_from(["\r\n"] * 8 + ["\n", "\r"])


@st.composite
def sections(draw: st.DrawFn) -> bytes:
    """Fields and continuation lines, mostly CRLF-ended, most often ended by a blank line."""
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.integers(0, 3)) == 0:
            line = draw(st.sampled_from([" ", "\t"])) + draw(VALUES)
        else:
            line = draw(NAMES) + ":" + draw(VALUES)
        lines.append(line + draw(ENDS))
    text = "".join(lines) + draw(st.sampled_from(["\r\n", "\r\n", "", "\n", "body\r\n"]))
    return text.encode("utf-8", "surrogateescape")


def seen(msg: Message) -> dict:
    """Everything a ``Message`` holds (its defects by kind: a defect equals only itself)."""
    return {**vars(msg), "defects": [type(d) for d in msg.defects]}


def parsed(section: bytes) -> dict:
    return seen(BytesHeaderParser(policy=policy.compat32).parsebytes(section))


@pytest.mark.slow  # 3,000 hypothesis examples
@settings(max_examples=3000, deadline=None)
@given(section=sections())
def test_every_section_is_read_as_the_email_package_reads_it(section):
    assert seen(read_header_section(section)) == parsed(section)


def test_hypothesis_makes_plain_sections_and_others():
    """The test above is no test unless both ways are taken."""
    plain = b"From: Player 1 <p1@x.test>\r\nSubject: a\r\n  folded\r\nX-A:\r\n\r\n"
    assert _plain_fields(plain.decode()) is not None
    assert seen(read_header_section(plain)) == parsed(plain)
    assert read_header_section(plain).get("Subject") == "a\r\n  folded"


@pytest.mark.parametrize("section", [b"From: a@b\nTo: c@d\n\n", b"From a@b Mon Jan 5\r\nTo: c@d\r\n\r\n",
                                     b" To: c@d\r\n\r\n", b"To: c@d\r\nnot a field\r\n\r\n", b"To: c@d\r\n",
                                     b"To: c\rd\r\n\r\n", b":x\r\n\r\n"])
def test_anything_else_is_the_email_package_s(section):
    assert _plain_fields(section.decode()) is None
    assert seen(read_header_section(section)) == parsed(section)


def tree(msg: Message) -> dict:
    """``seen`` of a message and, for a multipart one, of each of its parts."""
    payload = msg.get_payload()
    return {**seen(msg), "_payload": [tree(p) for p in payload] if isinstance(payload, list) else payload}


BODIES = st.sampled_from(["", "Text.\r\n", "Two\r\n\r\nparagraphs\r\n", "bare\nLF\rCR", "caf\xe9\r\n",
                          "--z\r\nContent-Type: text/plain\r\n\r\npart\r\n--z--\r\n", "From: x\r\n\r\n"])


@pytest.mark.slow  # 2,000 hypothesis examples
@settings(max_examples=2000, deadline=None)
@given(section=sections(), body=BODIES)
def test_every_message_is_read_into_the_tree_the_email_package_makes(section, body):
    """``Received.message``: a plain section and one part read without the feed parser, the same tree."""
    raw = section + body.encode("utf-8", "surrogateescape")
    assert tree(Received(raw).message) == tree(BytesParser(EmailMessage, policy=policy.compat32).parsebytes(raw))


def test_a_message_of_one_part_with_a_plain_section_is_read_without_the_feed_parser(monkeypatch):
    raw = b"From: Player 1 <p1@x.test>\r\nContent-Type: text/plain\r\n\r\nBody\r\n\r\nmore\r\n"
    expected = tree(BytesParser(EmailMessage, policy=policy.compat32).parsebytes(raw))
    monkeypatch.setattr(message.BytesParser, "parsebytes", lambda *a: pytest.fail("the feed parser read it"))
    assert tree(Received(raw).message) == expected
