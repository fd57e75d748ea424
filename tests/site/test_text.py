"""Player text: the memoised and plain-text short cuts render exactly what the full path does."""
from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from nomic.website import text

TEXT = text.Text()
PLAIN_CHARS = string.ascii_letters + string.digits + " .,;:?!'\"()/+=#%-"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=PLAIN_CHARS, max_size=40))
def test_plain_titles_come_out_of_markdown_and_nh3_unchanged(title):
    assert text.PLAIN.fullmatch(title)
    assert str(text._clean(TEXT.md.renderInline(title), text.INLINE_TAGS)) == title
    assert str(TEXT.inline(title)) == title


def test_anything_else_takes_the_full_path():
    for title in ["Free *cake*", "a & b", "<b>x</b>", "x\ny", "`code`", "[a](b)", "snake_case", "é"]:
        assert not text.PLAIN.fullmatch(title)
    assert str(TEXT.inline("Free *cake* & <b>")) == "Free <em>cake</em> &amp; &lt;b&gt;"
