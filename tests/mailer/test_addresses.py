"""Addresses read by a regex where a field is a plain mailbox (``mailer.message.mailbox_of``,
``addresses``) are what the email package's address parser reads, for every field."""
from __future__ import annotations

from email.utils import getaddresses, parseaddr

from hypothesis import HealthCheck, example, given, settings, strategies as st

from mailer.message import addresses, mailbox_of

CHECKS = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Pieces of address fields: atoms, specials, blanks, quotes, comments, encoded words, non-ASCII.
PIECES = st.sampled_from(["a", "Bob", "p5", "x-y", "o'neil", "=?utf-8?q?Z?=", "+", ".", "..", "@", "<", ">",
                          " ", "  ", "\t", '"', "\\", "(", ")", ",", ";", ":", "[", "]", "é", "example.org",
                          "players.test", "-", "_", "!", "#"])
FIELDS = st.one_of(
    st.lists(PIECES, max_size=12).map("".join),
    st.tuples(st.lists(PIECES, max_size=4).map("".join), st.lists(PIECES, max_size=4).map("".join),
              st.lists(PIECES, max_size=4).map("".join)).map(lambda t: f"{t[0]} <{t[1]}@{t[2]}>"),
    st.tuples(st.lists(PIECES, max_size=4).map("".join), st.lists(PIECES, max_size=4).map("".join))
    .map(lambda t: f"{t[0]}@{t[1]}"),
    st.text(max_size=30))


@CHECKS
@given(FIELDS)
@example("Player 5 <p5@players.test>")
@example("p5@players.test")
@example("Player  5 <p5@players.test>")
@example("J. Smith <j@x.test>")
@example("a.@b.test")
@example("a@-b.test")
@example("=?utf-8?q?Caf=C3=A9?= <c@x.test>")
def test_a_mailbox_is_what_parseaddr_reads(field):
    assert mailbox_of(field) == parseaddr(field)


@CHECKS
@given(st.lists(st.one_of(st.just(""), FIELDS), max_size=4))
@example(["ths@imperial.test", ""])
@example(["", "", "a@b.test"])
@example(["Ann <a@b.test>", "c@d.test, e@f.test"])
def test_addresses_are_what_getaddresses_reads(fields):
    assert addresses(fields) == [(n, a) for n, a in getaddresses(fields) if a]
