"""The corpus (tests/corpus): mail as Gmail, Outlook, Apple Mail and mutt send it.

Each NAME.eml comes with NAME.json: the sender, whether it is automatic
(RFC 3834), the commands it must yield (the fields given; a Proposal's text
exactly as written) and the lines that must be reported as not understood.
"""
from __future__ import annotations

import json
from email import policy
from email.parser import BytesHeaderParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mailer.message import parse, parse_head
from tests.support import GRAMMAR

CORPUS = Path(__file__).parent.parent / "corpus"
MESSAGES = sorted(CORPUS.glob("*.eml"))


def _subset(actual: dict, expected: dict) -> dict:
    out = {}
    for key, want in expected.items():
        got = actual.get(key)
        if key == "requests":
            got = [{k: r[k] for k in w} for r, w in zip(got, want)] + got[len(want):]
        out[key] = got
    return out


@pytest.mark.parametrize("path", MESSAGES, ids=[p.stem for p in MESSAGES])
def test_corpus_message_yields_its_commands(path: Path):
    expected = json.loads(path.with_suffix(".json").read_text())
    mail = parse(path.read_bytes())
    reading = GRAMMAR.read(mail.subject, mail.text, mail.written)
    assert mail.sender == expected["sender"]
    assert mail.automatic is expected["automatic"]
    assert mail.references == expected.get("references", [])
    commands = [c.model_dump() for c in reading.commands]
    assert [_subset(c, e) for c, e in zip(commands, expected["commands"])] == expected["commands"]
    assert len(commands) == len(expected["commands"])
    assert reading.not_understood == expected["not_understood"]


def test_corpus_through_ingest_every_human_message_answered_never_the_auto_reply(play):
    out = play.cli("ingest", "--at", "2026-01-05T20:00:00Z", *map(str, MESSAGES))
    assert len(out.strip().splitlines()) == len(MESSAGES)
    expected = [json.loads(p.with_suffix(".json").read_text()) for p in MESSAGES]
    answers = [m for m in play.outbox() if m["kind"] == "answer"]
    assert sorted(m["to"][0] for m in answers) == sorted(e["sender"] for e in expected if not e["automatic"])
    subs = [(s["number"], s["title"], s["status"]) for s in play.state()["submissions"]]
    # the Emperor's bare "Accept", in reply to the announcement of submission 1, accepted it
    assert subs[0] == (1, "Café für alle", "accepted")
    assert [t for _, t, _ in subs] == ["Café für alle", "Grumbling allowed", "Bob's score"]
    play.verify()


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=3000))
def test_any_bytes_are_read_without_error(raw: bytes):
    mail = parse(raw)
    GRAMMAR.read(mail.subject, mail.text, mail.written)
    assert parse_head(raw).message_id == mail.message_id


# Header lines and line ends as hostile mail mixes them, blank lines and lines that are no header included.
HEAD_PIECES = st.sampled_from([b"From: a@b.test", b"From: Eve <e@v.test>", b"To: g@x.test", b"Subject: s",
                               b" folded", b"\tmore", b"no colon", b"X: y", b"\r\n", b"\n", b"\r", b"body"])


@pytest.mark.slow  # 1,000 hypothesis examples
@settings(max_examples=1000, deadline=None)
@given(st.lists(HEAD_PIECES, max_size=30).map(b"".join))
def test_the_header_section_alone_reads_as_the_whole_message(raw: bytes):
    whole = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
    head = parse_head(raw)
    assert head.headers is not None and head.headers.items() == whole.items()
    assert (head.sender, head.message_id) == (parse(raw).sender, parse(raw).message_id)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400), st.sampled_from(["utf-8", "iso-8859-1", "koi8-r", "shift_jis"]))
def test_any_text_in_any_charset_keeps_its_proposal_lines(body: str, charset: str):
    body = "".join(ch for ch in body if ch.isprintable() or ch == "\n")
    try:
        encoded = body.encode(charset)
    except UnicodeEncodeError:
        return
    if encoded.decode(charset) != body:  # the codec itself does not round-trip (shift_jis: ¥ -> \)
        return
    raw = (f"From: a@b.test\r\nSubject: Proposal: T\r\nContent-Type: text/plain; charset={charset}\r\n"
           f"Content-Transfer-Encoding: 8bit\r\n\r\n").encode() + encoded.replace(b"\n", b"\r\n")
    mail = parse(raw)
    [cmd] = GRAMMAR.read(mail.subject, mail.text, mail.written).commands
    assert set(cmd.text.split()) <= set(body.split())  # nothing invented, whatever was cut


def test_html_only_mail_reads_as_written_its_signature_left_out():
    """Issue 31: html2text's Markdown escapes made a signature's "--" arrive as "\\--" (so the
    signature became part of the proposal) and a list's "1. " as "1\\. "."""
    raw = (b"From: Alice <alice@example.org>\r\nTo: game@x.test\r\nSubject: Proposal: Lists\r\n"
           b"Message-ID: <html-sig@example.org>\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: text/html; charset=utf-8\r\n\r\n"
           b"<html><body><div>Add a list:</div><div>- one</div><div>1. two</div><div>+ three</div>"
           b"<div><br></div><div>-- </div><div>Alice Example</div></body></html>\r\n")
    mail = parse(raw)
    [proposal] = GRAMMAR.read(mail.subject, mail.text, mail.written).commands
    assert proposal.model_dump()["text"] == "Add a list:\n\n- one\n\n1. two\n\n+ three"
