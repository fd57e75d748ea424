"""The bounds on HTML-only mail (mailer.message, mailer.quotes): each attack is read up to its bound
and the answer names it; within the bounds the text is what html2text makes of the whole HTML."""
from __future__ import annotations

import html2text

from mailer.message import MAX_HTML_ATTRIBUTES, MAX_HTML_TAGS, MAX_LINES, Body, _html_unquoted, html_to_text


def test_one_tag_of_many_attributes_is_read_up_to_the_attribute_bound():
    body = html_to_text("<p>Accept 1</p><img" + " a" * 200_000 + "><p>Accept 2</p>")
    assert body == Body("Accept 1\n", f"its HTML has more than {MAX_HTML_ATTRIBUTES:,} attributes in its tags; "
                                    "only its start was read")


def test_a_flood_of_quote_containers_is_looked_at_up_to_the_tag_bound():
    body = _html_unquoted("<p>Accept 1</p>" + "<div class=gmail_quote></div>" * 40_000 + "<p>Accept 2</p>")
    assert body == Body("Accept 1\n", f"its HTML has more than {MAX_HTML_TAGS:,} tags; only its start was read")


def test_a_quote_too_long_to_end_runs_to_the_end_of_the_message():
    body = _html_unquoted("<p>Accept 1</p><div class=gmail_quote>" + "<div>" * 100_000 + "</div>" * 100_001
                          + "<p>Accept 2</p>")
    assert body == Body("Accept 1\n", "")


def test_converting_stops_at_the_text_bound_with_the_same_text_as_the_whole():
    html = "<p>Accept&nbsp;1 </p>" * (MAX_TAGS_HALF := MAX_HTML_TAGS // 2)
    conv = html2text.HTML2Text()
    conv.body_width, conv.unicode_snob = 0, True
    whole = "\n".join(line.rstrip() for line in conv.handle(html).split("\n"))
    body = html_to_text(html)
    assert MAX_TAGS_HALF * 2 > MAX_LINES  # the text is cut at MAX_LINES
    assert body.text.split("\n")[:MAX_LINES] == whole.split("\n")[:MAX_LINES]
    assert body.text.split("\n")[:4] == ["Accept\xa01", "", "Accept\xa01", ""]
