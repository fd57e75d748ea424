"""Envelope addresses read quickly (mailer.envelope) are read exactly as aiosmtpd reads them."""
from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from aiosmtpd.smtp import SMTP
from hypothesis import given, settings, strategies as st

from mailer.envelope import plain_address
from mailer.intake import LimitedLMTP, LimitedSMTP

# What envelope arguments are made of, plain and otherwise: atext, specials, white space, non-ASCII.
PIECES = st.sampled_from(["a", "Z", "0", ".", "@", "<", ">", " ", "\t", "\x0b", "(", ")", '"', "\\",
                          ",", ":", ";", "[", "]", "+", "-", "=", "é", "SIZE=10", "BODY=8BITMIME",
                          "<a@b.c>", "x.y@example.org"])
ARGS = st.lists(PIECES, max_size=12).map("".join)


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[SMTP, ...]]:
    loop = asyncio.new_event_loop()
    try:
        yield tuple(cls(object(), loop=loop) for cls in (SMTP, LimitedSMTP, LimitedLMTP))
    finally:
        loop.close()


def outcome(server: SMTP, arg: str) -> object:
    """What ``_getaddr`` gives, or the kind of error it raises (aiosmtpd's reader fails on some
    hostile strings, e.g. a lone '"'; aiosmtpd then answers 500, and so must we)."""
    try:
        return server._getaddr(arg)
    except Exception as exc:
        return type(exc)


@pytest.mark.slow  # 3,000 hypothesis examples
@settings(max_examples=3000, deadline=None)
@given(arg=ARGS)
def test_every_argument_is_read_as_aiosmtpd_reads_it(servers, arg):
    stock, *ours = servers
    for server in ours:
        assert outcome(server, arg) == outcome(stock, arg)


@pytest.mark.parametrize("arg, expected", [
    ("<alice@players.test>", ("alice@players.test", "")),
    ("<a.b+c@x.y> SIZE=1200 BODY=8BITMIME", ("a.b+c@x.y", "SIZE=1200 BODY=8BITMIME")),
    ("<a@b.c>\t x", ("a@b.c", "x")),
])
def test_plain_addresses_take_the_quick_way(servers, arg, expected):
    assert plain_address(arg) == expected
    assert servers[0]._getaddr(arg) == expected


@pytest.mark.parametrize("arg", ["<>", ' <a@b.c>', '<"a b"@c.d>', "<a@b.c> (comment)", "<@r.s:a@b.c>",
                                 "<é@b.c>", "a@b.c", "<a..b@c.d>", "<a@[127.0.0.1]>"])
def test_anything_else_is_left_to_aiosmtpd(arg):
    assert plain_address(arg) is None


def test_the_local_part_limit_still_holds(servers):
    server = servers[2]
    server.local_part_limit = 5
    try:
        assert server._getaddr("<abcdef@b.c>") == (None, None)
        assert server._getaddr("<abcde@b.c>") == ("abcde@b.c", "")
    finally:
        server.local_part_limit = 0
