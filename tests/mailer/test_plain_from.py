"""A plain From (mailer.message.plain_from) is read by a regex, once: exactly as the email package's
address parser reads it for the sender, and as one address for authentication's From count."""
from __future__ import annotations

from email import policy
from email.message import Message
from email.utils import parseaddr

import pytest
from hypothesis import given, settings, strategies as st

from mailer.auth import _from_count
from mailer.message import ParsedMail, field_text, parse_head, plain_from

# What From fields are made of, plain and otherwise: atext, specials, white space and folds, non-ASCII, NUL.
PIECES = st.sampled_from(["Player", "12", "a", "Z", "0", "=?utf-8?q?J=C3=B6?=", ".", "@", "<", ">", " ", "  ",
                          "\t", "\r\n ", "\r", "\n", "\x0b", "\x00", "(", ")", '"', "\\", ",", ":", ";", "[", "]",
                          "+", "-", "é", "p12@players.test", "<a@b.c>", "x.y@example.org", "a..b@c"])
# From fields shaped as the plain ones are (``shaped``): plain pieces, and pieces that are not plain thrown in.
SPACES = ["", " ", "  ", "\t", "\r\n ", "\r", "\n"], ["\x0b", "\x00", "\x0c"]
WORDS = ["Player", "12", "=?utf-8?q?J=C3=B6?=", "-", "O'Neil", "{x}"], ['"', "é", "(c)", ".", ",", "Doe,", "@", "<", "J.", "Jo:"]
ADDRESSES = ["p12@players.test", "a@b.c", "A.b+c@X.Y", "x_y@a-b.example"], [
    "a..b@c", ".a@b", "a@b.", "a@", "@b", "a b@c", "a@b,c@d", "a@[1.2.3.4]", '"a"@b', "a@b@c"]


@st.composite
def shaped(draw: st.DrawFn) -> str:
    """Words, then an address alone or in angle brackets, each after white space; at most one piece not plain."""
    words = draw(st.integers(0, 3))
    kinds = [SPACES, WORDS] * words + [SPACES, ADDRESSES, SPACES]
    spoiled = draw(st.integers(-1, len(kinds) - 1))
    pieces = [draw(st.sampled_from(kind[1] if i == spoiled else kind[0])) for i, kind in enumerate(kinds)]
    if draw(st.booleans()):
        pieces[-2] = f"<{pieces[-2]}>"
    return "".join(pieces)


FIELD = st.one_of(st.lists(PIECES, max_size=10).map("".join), shaped())


def counted(values: list[str]) -> int:
    """Authentication's count of the From addresses, by the email package (nothing counted at parsing)."""
    msg = Message(policy=policy.compat32)
    for value in values:
        msg.set_raw("From", value)
    return _from_count(ParsedMail("", "", "", "", "", headers=msg))


@pytest.mark.slow  # 3,000 hypothesis examples
@settings(max_examples=3000, deadline=None)
@given(values=st.one_of(st.lists(FIELD, min_size=1, max_size=1), st.lists(FIELD, min_size=2, max_size=2)))
def test_a_plain_from_is_read_as_the_email_package_reads_it(values):
    plain = plain_from(values)
    if plain is not None:
        assert plain == parseaddr(field_text(values[0]))
        assert counted(values) == 1


@pytest.mark.parametrize("value, expected", [
    ("Player 12 <p12@players.test>", ("Player 12", "p12@players.test")),
    ("alice@wonder.land", ("", "alice@wonder.land")),
    (" Alice\r\n  Liddell <Alice.L+nomic@Wonder.Land>\r\n", ("Alice Liddell", "Alice.L+nomic@Wonder.Land")),
    ("=?utf-8?q?J=C3=B6?= <jo@x.test>", ("=?utf-8?q?J=C3=B6?=", "jo@x.test")),
])
def test_plain_froms_take_the_quick_way(value, expected):
    assert plain_from([value]) == expected == parseaddr(field_text(value))
    assert counted([value]) == 1


@pytest.mark.parametrize("values", [['"Doe, John" <j@x.test>'], ["a@x.test, b@x.test"], ["Jo (home) <j@x.test>"],
                                    ["José <j@x.test>"], ["j@x.test", "k@x.test"], ["j@x.test", "j@x.test"],
                                    ["<j@x.test>"], ["Jo <j@x.test> x"], ["a\x00b@x.test"], []])
def test_anything_else_is_left_to_the_email_package(values):
    assert plain_from(values) is None


def test_a_message_with_two_from_fields_is_counted_by_the_email_package():
    """Two plain From fields: neither is read the quick way, and the count is two (never authenticated)."""
    head = parse_head(b"From: a@x.test\r\nFrom: b@x.test\r\nMessage-ID: <m@x>\r\n\r\nhi\r\n")
    assert (head.sender, head.authors, _from_count(head)) == ("a@x.test", None, 2)
    one = parse_head(b"From: Alice <Alice@X.test>\r\nMessage-ID: <m@x>\r\n\r\nhi\r\n")
    assert (one.sender, one.name, one.authors, _from_count(one)) == ("alice@x.test", "Alice", 1, 1)
