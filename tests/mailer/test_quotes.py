"""mailer.quotes: where a quote starts, and what is not one.

tests/mailer/test_quote_headers.py holds the 14 clients in every language; these pin the rulings
(docs/rulings.md, "Quoted text"): what a Proposal may hold without losing its text, what a reply's
own lines may look like, and the HTML containers.
"""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from mailer.grammar import Grammar
from mailer.message import parse
from mailer.quotes import Context, _draws_rule, html_without_quotes, own_text
from engine.ruleset import ruleset_for
from tests.support import make_mail

VOTES = Grammar(ruleset_for("blognomic").commands)
FRESH, REPLY = Context("Proposal: Calendar"), Context("Re: Proposal 1: Calendar", reply=True)


def test_a_proposal_keeps_label_lines_with_dates_rule_headings_and_quoted_rules():
    """A fresh message (no In-Reply-To, no "Re:") is cut only at a header block with an address, its
    own subject or a separator above, or at an attribution holding an address."""
    text = ("Area: Rules\nDate: 2026-01-05 10:00\nAuthor: Bob\n\n----- Rationale -----\n"
            "From 2026 on, at 10:00 each day, the Scribe announces:\n> the day's events\n"
            "________________________________\nThe end.")
    assert own_text(text, FRESH) == text
    assert parse(make_mail("b@x.test", "Proposal: Calendar", text)).written == text


def test_a_reply_keeps_its_own_lines_that_end_in_a_colon():
    """A reply's own line with a time but no year (or a year but no time), an address or quote below, is its own."""
    text = "At 10:00 I vote:\nFOR 1\nIn 2026 I also vote:\nFOR 2"
    assert own_text(text, REPLY) == text


def test_a_fresh_message_is_cut_at_an_outlook_block_under_a_separator_or_naming_its_subject():
    names_only = "Od: Alice\nWys\u0142ano: poniedzia\u0142ek, 5 stycznia 2026 10:00\nDo: Game\nTemat: {}\n\nAGAINST 1"
    assert own_text("FOR 1\n\n" + names_only.format("Other"), FRESH).endswith("AGAINST 1")
    assert own_text("FOR 1\n\n" + names_only.format("Proposal: Calendar"), FRESH) == "FOR 1"
    assert own_text("FOR 1\n-----Oryginalna wiadomo\u015b\u0107-----\n" + names_only.format("Other"), FRESH) == "FOR 1"


def test_a_bottom_posted_answer_under_a_marked_quote_is_read_and_under_an_unmarked_one_nothing_is():
    header = "On Mon, 5 Jan 2026 at 10:00, Alice <alice@example.test> wrote:"
    assert own_text(f"{header}\n> AGAINST 1\n>\n\nFOR 1", REPLY) == "FOR 1"
    assert own_text(f"{header}\nAGAINST 1\n\nFOR 1", REPLY) == ""


def test_two_line_header_is_cut_above_its_first_line():
    text = "FOR 1\n\nEm seg., 5 de jan. de 2026 \u00e0s 10:00,\nAlice <alice@example.test> escreveu:\nAGAINST 1"
    assert own_text(text, REPLY) == "FOR 1"


def test_html_quote_containers_are_removed_and_outlook_markers_end_the_text():
    html = ("<p>FOR 1</p><div class=\"moz-cite-prefix\">On ... wrote:<div>x</div></div>"
            "<blockquote type=\"cite\"><blockquote type=\"cite\">AGAINST 1</blockquote>AGAINST 2</blockquote>"
            "<p>FOR 2</p><div id=\"divRplyFwdMsg\">From: Alice</div><div>AGAINST 3</div>")
    assert html_without_quotes(html, 100) == ("<p>FOR 1</p><p>FOR 2</p>", False)
    assert html_without_quotes("<p>FOR 1</p><div class='gmail_quote'><div>AGAINST 1", 100) == ("<p>FOR 1</p>", False)


def test_a_plain_blockquote_in_html_is_kept_as_quoted_lines():
    """Only a client's reply quote is removed: a Proposal quoting a rule in a plain blockquote keeps it."""
    html = "<p>Amend rule 3 to read:</p><blockquote>Cake is mandatory.</blockquote>"
    assert html_without_quotes(html, 100) == (html, False)


RULE_LINE = re.compile(r"^[ \t]*(?:[-_=*]{5,}.*|.*[-_=]{5,})[ \t]*$")  # the regex _draws_rule replaces


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=" \t-_=*x\u00a0", max_size=14))
def test_a_rule_line_is_what_the_regex_it_replaces_matched(line: str):
    assert _draws_rule(line) == bool(RULE_LINE.match(line))


def test_the_quoted_vote_under_a_voters_vote_counts_for_nothing_through_parse():
    """The attack of issue 26: a quoted AGAINST 1 under Outlook's names-only Polish header."""
    body = ("FOR 1\n\nOd: Alice Example\nWys\u0142ano: poniedzia\u0142ek, 5 stycznia 2026 10:00\n"
            "Do: Humble Scribe\nTemat: Proposal 1\n\nAGAINST 1\n")
    mail = parse(make_mail("v@x.test", "Odp: Proposal 1", body, headers={"In-Reply-To": "<sub1.a.1.f@game.test>"}))
    reading = VOTES.read(mail.subject, mail.text, mail.written)
    assert ([c.line for c in reading.commands], reading.not_understood) == (["FOR 1"], [])


def test_a_reply_keeps_its_command_lines_that_look_like_labels():
    """Imperial's "Directive: ...", "Area: ..." and a passphrase are label lines; three of them, even
    with a year and a time, are no quote header (a reply needs four, or an address, or its subject)."""
    text = "Directive: every citizen bakes on 5 Jan 2026 at 10:00\nArea: Rules\nPassphrase: open sesame"
    assert own_text(text, REPLY) == text


def test_a_reply_is_cut_at_an_outlook_block_of_names_whatever_its_subject():
    block = "From: Alice Example\nSent: Monday 10:00\nTo: Humble Scribe\nSubject: Something else"
    assert own_text(f"FOR 1\n\n{block}\n\nAGAINST 1", REPLY) == "FOR 1"
    assert own_text(f"FOR 1\n\n{block}\n\nAGAINST 1", FRESH).endswith("AGAINST 1")


def test_a_bare_separator_starts_a_quote_in_a_reply_only():
    """In-Reply-To (or References, or "Re:") is what makes "-----Mensagem original-----" or Outlook's
    underscores a quote's start on their own; a fresh message keeps its rule lines."""
    for rule in ("-----Mensagem original-----", "_" * 32):
        text = f"FOR 1\n{rule}\nAGAINST 1"
        assert own_text(text, REPLY) == "FOR 1"
        assert own_text(text, FRESH) == text
    refs = parse(make_mail("v@x.test", "Odp: Proposal 1", "FOR 1\n" + "_" * 32 + "\nAGAINST 1",
                           headers={"References": "<sub1.a.1.f@game.test>"}))
    assert refs.text.split() == ["FOR", "1"]
