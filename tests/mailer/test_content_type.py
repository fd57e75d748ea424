"""A part's Content-Type (mailer.message.content_type) is read by a regex when plain: exactly the type and
charset the email package's ``get_content_type`` and ``get_content_charset`` give, whatever the value."""
from __future__ import annotations

from email import policy
from email.message import Message

import pytest
from hypothesis import given, settings, strategies as st

from mailer.message import _PLAIN_TYPE, content_type

# What Content-Type values are made of: types, parameters, quotes, white space and folds, RFC 2231, non-ASCII bytes
# as the bytes parser stores them (surrogate escapes).
PIECES = st.sampled_from(["text/plain", "TEXT/HTML", "multipart/report", "text", "/", "plain", "a.b+c-d", ";",
                          "; ", " ;", "charset=", "CharSet=", " = ", "charset*=", "utf-8", "UTF-8", "us-ascii",
                          "iso-8859-1", "x_y:z", '"', "'", "\\", " ", "\t", "\r\n ", "\n", "format=flowed",
                          "utf-8''", "\udcc3\udca9", "\udce9", "\x00", "(c)", ",", "="])
SHAPED = st.tuples(
    st.sampled_from(["text/plain", "Text/HTML", "multipart/report", "application/x.y+z", "text/plain/x", "text"]),
    st.sampled_from(["", "; ", ";", " ; ", ";  "]),
    st.sampled_from(["", "charset=", "CHARSET=", "charset =", "name="]),
    st.sampled_from(["", '"', "'"]),
    st.sampled_from(["", "utf-8", "UTF-8", "iso-8859-1", "Windows-1252", "x_y:z.1", "ut f", "\udcc3\udca9", "a;b"]),
    st.sampled_from(["", '"', "'"]),
    st.sampled_from(["", " ", "; format=flowed", ";"]),
).map("".join)
VALUE = st.one_of(st.lists(PIECES, max_size=8).map("".join), SHAPED)


def part(value: str | None) -> Message:
    msg = Message(policy=policy.compat32)
    if value is not None:
        msg.set_raw("Content-Type", value)
    return msg


@pytest.mark.slow  # 3,000 hypothesis examples
@settings(max_examples=3000, deadline=None)
@given(value=VALUE)
def test_a_content_type_is_read_as_the_email_package_reads_it(value):
    msg = part(value)
    assert content_type(msg) == (msg.get_content_type(), msg.get_content_charset())


@pytest.mark.parametrize("value, expected", [
    ('text/plain; charset="utf-8"', ("text/plain", "utf-8")),
    ("Text/HTML;charset=ISO-8859-1", ("text/html", "iso-8859-1")),
    ("text/plain", ("text/plain", None)),
    ("multipart/report", ("multipart/report", None)),
])
def test_plain_values_are_read_by_the_regex(value, expected):
    assert _PLAIN_TYPE.fullmatch(value) is not None
    assert content_type(part(value)) == expected


@pytest.mark.parametrize("value, expected", [
    ('text/plain; charset="utf-8', ("text/plain", '"utf-8')),  # unbalanced quote: kept, as the package keeps it
    ("text/plain; charset*=utf-8''iso-8859-1", ("text/plain", "iso-8859-1")),  # RFC 2231
    ("text/plain; format=flowed; charset=utf-8", ("text/plain", "utf-8")),
    ("text", ("text/plain", None)),  # no subtype: the default
    (None, ("text/plain", None)),
])
def test_other_values_are_read_by_the_email_package(value, expected):
    assert value is None or _PLAIN_TYPE.fullmatch(value) is None
    assert content_type(part(value)) == expected
