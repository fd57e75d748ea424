"""Hypothesis strategies for hostile mail: raw bytes that no careful client would write.

Built by hand rather than with the email package, so that they can be wrong
in every way the package would refuse to produce: nested and broken
multiparts, bad transfer encodings, unknown and lying charsets, encoded words
that do not decode, header injection (CR/LF inside a value, raw or inside an
encoded word), huge headers, NUL bytes, absurd dates, mixed line endings,
numbers of 5,000 digits in every command and thread header, and HTML nested
thousands deep.
"""
from __future__ import annotations

from hypothesis import strategies as st

GAME = "ths@imperial.test"
HEADER_NAMES = ["From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
                "Content-Type", "Content-Transfer-Encoding", "MIME-Version", "Reply-To", "Sender",
                "Authentication-Results", "Auto-Submitted", "Precedence", "List-Id", "Return-Path",
                "X-Spam", "Received"]
CHARSETS = ["utf-8", "us-ascii", "iso-8859-1", "utf-16", "utf-7", "iso-2022-jp", "gb18030", "koi8-r",
            "x-unknown", "", "utf-8*en", "bogus\x00set", "cp1252", "unicode-1-1-utf-7", "ascii\"; x=\""]
ENCODINGS = ["7bit", "8bit", "binary", "base64", "quoted-printable", "x-uuencode", "BASE64 extra", "gzip", ""]
CONTENT_TYPES = ["text/plain", "text/html", "text/enriched", "application/octet-stream", "message/rfc822",
                 "message/delivery-status", "image/png", "text/plain\x00", "text", "/", "text/plain/extra"]
DATES = ["Mon, 32 Foo 99999 25:61:61 +9999", "", "0", "Thu, 01 Jan 1970 00:00:00 -2400",
         "Sat, 01 Jan 0001 00:00:00 +0000", "Fri, 31 Dec 9999 23:59:59 -0000", "yesterday",
         "Tue, 29 Feb 2023 12:00:00 +0000", "-1", "\x00", "Mon, 5 Jan 2026 01:00:00 +0100 (CET) extra"]
COMMAND_LINES = ["Proposal: cake", "Accept 1", "Reject 1", "New day", "Tag alice@wonder.land",
                 "Score of alice@wonder.land should be 99", "Subscribe", "Whap Tivol", "Raise section 3",
                 "Proclamation: all power to me", "Directive: cake"]
# Numbers past int()'s 4,300 digits, in every command that takes one.
_HUGE_NUMBER = "9" * 5000
LONG_NUMBER_LINES = [f"Accept {_HUGE_NUMBER}", f"Reject #{_HUGE_NUMBER} because no", f"Agree swap {_HUGE_NUMBER}",
                     f"Score of alice@wonder.land should be -{_HUGE_NUMBER}", f"Raise section {_HUGE_NUMBER}",
                     f"Rewrite {_HUGE_NUMBER}:", f"Swap sections 1-{_HUGE_NUMBER} with bob sections 1-2",
                     f"Vandalize bob section {_HUGE_NUMBER}", f"Set accept_points = {_HUGE_NUMBER}"]
# Line breaks and controls smuggled into a header inside encoded words (RFC 2047), which decode to them.
ENCODED_BREAKS = [b"=?utf-8?q?a=0D=0Ab?=", b"=?utf-8?b?YQ0KYg==?=", b"=?utf-8?q?x=0ABcc:_all@example.org?=",
                  b"=?utf-8?q?a=0Db?=", b"=?utf-8?q?a=00b?=", b"=?utf-8?b?4oCoTGluZSBzZXA=?=",  # U+2028
                  b"Proposal: =?utf-8?q?cake=0D=0AAuthentication-Results:_x?=", b"=?iso-8859-1?q?=0A=0A=0A?="]
# Nesting that makes HTML-to-text quadratic: lists, quotes, divs, a few thousand levels deep.
NESTED_HTML = [tag * n + b"Accept 1" for tag in (b"<ul><li>", b"<blockquote>", b"<div>", b"<ol><li><p>", b"<x>")
               for n in (40, 3000)]

# Sizes of huge headers: past RFC 5322's 998-character line, and far past it (one line or folded).
HUGE = [998, 5000, 50_000]

_bytes = st.binary(max_size=200)
_text = st.text(max_size=120)  # any code point, controls and surrogates excluded by hypothesis's default
_anychar_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF,
                                               blacklist_categories=["Cs"]), max_size=80)


def _encode(s: str) -> st.SearchStrategy[bytes]:
    return st.sampled_from(["utf-8", "latin-1", "utf-16"]).map(
        lambda enc: s.encode(enc, "replace") if enc != "latin-1" else s.encode("latin-1", "replace"))


@st.composite
def encoded_word(draw) -> bytes:
    charset = draw(st.sampled_from(CHARSETS))
    kind = draw(st.sampled_from(["B", "Q", "b", "X"]))
    payload = draw(st.sampled_from([b"////", b"w6k=", b"=FF=00=XX", b"not base64!", b"", b"?=", b"=?"]) | _bytes)
    return b"=?" + charset.encode("latin-1", "replace") + b"?" + kind.encode() + b"?" + payload + b"?="


@st.composite
def header_value(draw) -> bytes:
    choice = draw(st.integers(0, 11))
    if choice == 0:
        return draw(encoded_word())
    if choice == 1:  # header injection: a line break inside the value, smuggling another header
        injected = draw(st.sampled_from([
            b"Bcc: everyone@example.org", b"Authentication-Results: mx.imperial.test; dkim=pass header.d=imperial.test",
            b"From: tie@imperial.test", b"Subject: Accept 1", b"\r\nAccept 1", b"Content-Type: multipart/mixed"]))
        sep = draw(st.sampled_from([b"\r\n", b"\n", b"\r", b"\r\n\r\n", b"\x00"]))
        return draw(_text).encode() + sep + injected
    if choice == 2:  # huge: one long line, or many folded ones
        n = draw(st.sampled_from(HUGE))
        return draw(st.sampled_from([b"x" * n, b"a\r\n " * (n // 4), b"=?utf-8?B?" + b"QUFB" * (n // 4) + b"?="]))
    if choice == 3:
        return draw(st.sampled_from(DATES)).encode()
    if choice == 4:
        return draw(_bytes)
    if choice == 5:
        return draw(st.sampled_from([b"<>", b"<", b">", b"<@>", b"<a@b> <a@b>", b"<" + b"x" * 5000 + b"@y>",
                                     b"\"\\\" <tie@imperial.test>", b"tie@imperial.test <alice@wonder.land>",
                                     b"=?utf-8?Q?tie=40imperial.test?=", b"alice@wonder.land, tie@imperial.test",
                                     b"(comment <tie@imperial.test>) bob@x.org", b"@", b"a@b@c"]))
    if choice == 6:
        return draw(st.sampled_from(COMMAND_LINES)).encode()
    if choice == 7:
        return draw(_text).encode() + draw(st.sampled_from(ENCODED_BREAKS)) + draw(_text).encode()
    if choice == 8:  # an over-long number where a header names a submission or holds a command
        return draw(st.sampled_from([f"<sub{_HUGE_NUMBER}.answer.1.ab@imperial.test>", *LONG_NUMBER_LINES])).encode()
    return draw(_anychar_text.flatmap(_encode))


@st.composite
def headers(draw, required: dict[str, bytes] | None = None) -> bytes:
    lines = [name.encode() + b": " + value for name, value in (required or {}).items()]
    for _ in range(draw(st.integers(0, 8))):
        name = draw(st.sampled_from(HEADER_NAMES) | st.text(min_size=1, max_size=12).map(
            lambda s: s.replace(":", "")))
        lines.append(name.encode("utf-8", "replace") + draw(st.sampled_from([b": ", b":", b" : ", b""]))
                     + draw(header_value()))
    lines = draw(st.permutations(lines)) if draw(st.booleans()) else lines
    return b"\n".join(lines)


@st.composite
def leaf_part(draw) -> tuple[bytes, bytes]:
    """(part headers, part body) for a non-multipart part."""
    ctype = draw(st.sampled_from(CONTENT_TYPES))
    charset = draw(st.sampled_from(CHARSETS))
    cte = draw(st.sampled_from(ENCODINGS))
    head = f"Content-Type: {ctype}; charset=\"{charset}\"\nContent-Transfer-Encoding: {cte}".encode(
        "utf-8", "replace")
    body_kind = draw(st.integers(0, 7))
    if body_kind == 0:
        body = draw(_bytes)
    elif body_kind == 1:  # valid-looking commands in a lying charset
        body = "\n".join(draw(st.lists(st.sampled_from(COMMAND_LINES), max_size=4))).encode(
            "utf-16" if draw(st.booleans()) else "utf-8")
    elif body_kind == 2:
        body = draw(st.sampled_from([b"!!!not base64!!!", b"QUJD\x00REVG", b"=\n=4=ZZ=", b"begin 644 x\n`\nend",
                                     b"\x00" * 50, b"\xff\xfe" + b"A\x00" * 20]))
    elif body_kind == 3:
        body = b"a" * draw(st.sampled_from([0, 1, 999, 70_000]))
    elif body_kind == 4:
        body = draw(st.sampled_from(NESTED_HTML))
    elif body_kind == 5:
        body = "\n".join(draw(st.lists(st.sampled_from(LONG_NUMBER_LINES), min_size=1, max_size=3))).encode()
    else:
        body = draw(_anychar_text.flatmap(_encode))
    return head, body


def multipart(children: st.SearchStrategy[tuple[bytes, bytes]]) -> st.SearchStrategy[tuple[bytes, bytes]]:
    @st.composite
    def build(draw) -> tuple[bytes, bytes]:
        subtype = draw(st.sampled_from(["mixed", "alternative", "related", "report", "digest", "signed", "x-bogus"]))
        boundary = draw(st.sampled_from(["b1", "", "=_\x00", "a" * 200, "--", "same"]))
        parts = draw(st.lists(children, max_size=4))
        wrong = draw(st.booleans())  # the body uses a boundary the header did not announce
        used = (boundary + "x" if wrong else boundary).encode("utf-8", "replace")
        body = b"preamble\n"
        for head, part in parts:
            body += b"--" + used + b"\n" + head + b"\n\n" + part + b"\n"
        if draw(st.booleans()):  # the closing boundary is often missing
            body += b"--" + used + b"--\n"
        head = f"Content-Type: multipart/{subtype}; boundary=\"{boundary}\"".encode("utf-8", "replace")
        return head, body
    return build()


mime_tree = st.recursive(leaf_part(), multipart, max_leaves=6)


@st.composite
def hostile_mail(draw, required: dict[str, bytes] | None = None) -> bytes:
    """A whole message: hostile headers, then a MIME tree (or raw garbage)."""
    head = draw(headers(required))
    tree_head, body = draw(mime_tree)
    eol = draw(st.sampled_from([b"\n", b"\r\n", b"\r"]))
    raw = head + b"\n" + tree_head + b"\n\n" + body
    if draw(st.integers(0, 9)) == 0:
        raw = draw(st.sampled_from([b"", b"\n\n", b"\x00" * 10, b"From nobody\n", b":", b"\r\n.\r\n"])) + raw
    return raw.replace(b"\n", eol) if eol != b"\n" else raw
