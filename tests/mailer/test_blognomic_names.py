"""A BlogNomic matter's name in its announcements' subjects (mailer/blognomic/matters.named)."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine.blognomic.state import VotableMatter
from mailer.blognomic.matters import named

AT = datetime(2026, 1, 5, tzinfo=UTC)


@pytest.mark.parametrize(("title", "status", "name"), [
    ("Ponies", "", "Proposal 3: Ponies"),
    ("Ponies", "enacted", "Proposal 3 enacted: Ponies"),
    ("", "", "Proposal 3"),
    ("  ", "failed", "Proposal 3 failed"),
])
def test_an_untitled_matter_is_named_without_a_trailing_colon(title: str, status: str, name: str) -> None:
    m = VotableMatter(number=3, kind="proposal", author="alice@blog.test", title=title, opened_at=AT)
    assert named(m, status) == name
