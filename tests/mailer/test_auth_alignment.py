"""Relaxed alignment (RFC 7489 3.1): the organisational domains of d= and of From are the same,
by the Public Suffix List; a public suffix (a bare TLD, co.uk, github.io) never aligns."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from mailer.auth import aligned, organisational_domain


@pytest.mark.parametrize("d, from_domain, ok", [
    ("wonder.land", "wonder.land", True),
    ("mail.wonder.land", "wonder.land", True),
    ("wonder.land", "mail.wonder.land", True),
    ("a.wonder.land", "b.wonder.land", True),
    ("WONDER.Land.", "wonder.land", True),
    ("mail.evil.co.uk", "evil.co.uk", True),
    ("xn--bcher-kva.de", "bücher.de", True),
    ("land", "wonder.land", False),
    ("test", "imperial.test", False),
    ("co.uk", "evil.co.uk", False),
    ("uk", "evil.co.uk", False),
    ("evil.co.uk", "good.co.uk", False),
    ("github.io", "alice.github.io", False),  # the list's private section: each github.io name is its own
    ("bob.github.io", "alice.github.io", False),
    ("evilwonder.land", "wonder.land", False),
    ("wonder.land.evil.example", "wonder.land", False),
    ("co.uk", "co.uk", False),  # a public suffix does not align even with itself
    ("", "wonder.land", False),
    ("wonder..land", "wonder.land", False),
])
def test_alignment_by_the_public_suffix_list(d, from_domain, ok):
    assert aligned(d, from_domain) is ok


LABELS = st.sampled_from(["a", "mail", "wonder", "evil", "co", "uk", "test", "github", "io", "land", "org", "xn--p1ai"])
DOMAINS = st.lists(LABELS, min_size=1, max_size=4).map(".".join)


@given(DOMAINS, DOMAINS)
def test_alignment_is_symmetric_and_never_holds_for_a_public_suffix(d, from_domain):
    ok = aligned(d, from_domain)
    assert ok == aligned(from_domain, d)
    if organisational_domain(d) is None or organisational_domain(from_domain) is None:
        assert not ok
    else:
        assert ok == (organisational_domain(d) == organisational_domain(from_domain))


@given(DOMAINS, LABELS)
def test_a_subdomain_aligns_with_its_parent_unless_the_parent_is_a_public_suffix(domain, label):
    assert aligned(f"{label}.{domain}", domain) == (organisational_domain(domain) is not None)
