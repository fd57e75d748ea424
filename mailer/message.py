"""Raw mail bytes -> the parts the game reads: addresses, ids, subject, text.

Mail arrives as players' clients write it: multipart/alternative, HTML only,
base64 or quoted-printable, any charset, with the quoted message and a
signature below (or above) the new text. Two texts come out of it:

- ``text``: only what the sender wrote in this message, for reading commands:
  the reply parser (mail-parser-reply) cuts the quoted message at its header
  ("On ... wrote:", Outlook's "From: ... Sent: ...") and the signature, and
  every remaining "> " line is dropped. Its regexes run only on text that could hold what they
  look for (``_Guarded``): most mail has no quote or signature, and they cost ~1 ms a message.
- ``written``: the text of a Proposal or Point of Order kept as written, line
  for line with its indentation, cut only at the quoted message, the "-- "
  signature separator and a "Sent from my ..." line.
"""
from __future__ import annotations

import email
import email.errors
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any, Callable
from email import policy
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses, parseaddr

import html2text
from mailparser_reply.constants import MAIL_LANGUAGES
from mailparser_reply.parser import EmailMessage as ReplyText

_MSGID = re.compile(r"<([^<>\s]+)>")
_BLANK_RUNS = re.compile(r"\n{3,}")
_SENT_FROM = re.compile(r"^\s*(sent from my |get outlook for )", re.I)


@dataclass
class ParsedMail:
    message_id: str
    sender: str
    name: str
    subject: str
    text: str
    written: str = ""
    recipients: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    automatic: bool = False
    headers: Message | None = None


def message_key(raw: bytes) -> str:
    """The journal's dedup key: the Message-ID, else a hash of the content."""
    return parse_head(raw).message_id


def parse(raw: bytes) -> ParsedMail:
    """The whole message. compat32 parsing (several times faster than policy.default);
    the few headers shown to people are decoded from RFC 2047 here."""
    msg = email.message_from_bytes(raw, policy=policy.compat32)
    name, addr = parseaddr(_header(msg, "From"))
    refs = _ids(_header(msg, "In-Reply-To")) + list(reversed(_ids(_header(msg, "References"))))
    rcpts = [a.lower() for _, a in getaddresses([_header(msg, h) for h in ("To", "Cc")]) if a]
    full = body_text(msg)
    reply = _reply(full)  # read once, for both texts
    return ParsedMail(
        message_id=_message_id(msg, raw),
        sender=addr.strip().lower(), name=_decoded_words(name).strip(),
        subject=_decoded_words(_header(msg, "Subject")).strip(), text=new_text(full, reply),
        written=written_text(full, reply), recipients=rcpts, references=list(dict.fromkeys(refs)),
        automatic=is_automatic(msg), headers=msg)


def parse_head(raw: bytes) -> ParsedMail:
    """Only what the headers say (fast: no MIME, no body): enough to authenticate at intake.

    ``text`` and ``written`` stay empty; ``parse`` reads the body.
    """
    msg = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
    name, addr = parseaddr(_header(msg, "From"))
    return ParsedMail(
        message_id=_message_id(msg, raw),
        sender=addr.strip().lower(), name=_decoded_words(name).strip(),
        subject=_decoded_words(_header(msg, "Subject")).strip(), text="", headers=msg)


def _message_id(msg: Message, raw: bytes) -> str:
    """The Message-ID, else a hash of the whole message: the journal's dedup key either way."""
    mid = _ids(_header(msg, "Message-ID"))
    return mid[0] if mid else "sha256:" + hashlib.sha256(raw).hexdigest()


def _header(msg: Message, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # a header that cannot be read is read as absent
        return ""
    # NUL read as a space: PostgreSQL text cannot hold it (a NUL in a Message-ID or From wedged the game there)
    return "" if value is None else " ".join(str(value).replace("\x00", " ").split())


def _decoded_words(value: str) -> str:
    """RFC 2047 encoded words ("=?iso-8859-1?Q?Caf=E9?=") as text; undecodable ones left as they are."""
    if "=?" not in value:
        return value
    try:
        return str(make_header(decode_header(value)))
    except (LookupError, UnicodeError, ValueError, email.errors.HeaderParseError):
        return value


def _ids(value: str) -> list[str]:
    return _MSGID.findall(value or "")


def body_text(msg: Message) -> str:
    """The message's text as its sender wrote it: text/plain preferred, else HTML as text.

    The first text part that is not an attachment is read (MIME order puts the
    plainest alternative first); attachments are never read, whatever their type.
    """
    parts = [p for p in msg.walk() if not p.is_multipart()
             and (p.get("Content-Disposition") or "").split(";")[0].strip().lower() != "attachment"]
    for ctype in ("text/plain", "text/html"):
        part = next((p for p in parts if p.get_content_type() == ctype), None)
        if part is not None:
            text = _decoded(part).replace("\r\n", "\n")
            return html_to_text(text) if ctype == "text/html" else text
    return ""


def _decoded(part: Message) -> str:
    """The part's text in any charset; an unknown or wrong charset falls back, never fails."""
    try:
        payload = part.get_payload(decode=True) or b""
    except Exception:  # a broken transfer encoding reads as empty
        return ""
    if not isinstance(payload, bytes):
        return ""
    for charset in (part.get_content_charset() or "utf-8", "utf-8"):
        try:
            return payload.decode(charset)
        except (LookupError, UnicodeError, ValueError):  # ValueError: a charset name with a NUL in it
            continue
    return payload.decode("windows-1252", "replace")


def html_to_text(html: str) -> str:
    """HTML-only mail as plain text: block quotes become "> " lines, no line wrapping."""
    conv = html2text.HTML2Text()
    conv.body_width = 0
    conv.ignore_images = True
    conv.ignore_emphasis = True
    conv.ignore_tables = True
    conv.unicode_snob = True
    text = "\n".join(line.rstrip() for line in conv.handle(html).split("\n"))
    return _BLANK_RUNS.sub("\n\n", text)  # Outlook's empty paragraphs


_LANGUAGES = ("en", "de", "fr", "es", "nl", "sv", "it")
# The word each language's "wrote" header needs ("On ... wrote:", "Am ... schrieb ...:", ...).
_WROTE = {"en": "wrote:", "de": "schrieb", "fr": "a \u00e9crit", "es": "escribi\u00f3:", "nl": "schreef:",
          "sv": "skrev", "it": "ha scritto:"}
# A "From:"-style header's keywords: "[* ]*(?:From|Sent|To|...):" in each language's from_header.
_KEYWORDS = re.compile(r"\[\* \]\*\(\?:([^()]*)\):")
# A "--" line ("[-_]{2}\n") or the start of Outlook's separator after a blank line ("\n{2,} ?[_-]{32,}").
_PAIRS_BEFORE_SIGNATURE = ("--\n", "__\n", "-_\n", "_-\n", "\n\n-", "\n\n_", "\n\n -", "\n\n _")


def _folded(text: str) -> str:
    """``text`` lower-cased as a case-insensitive regex compares it: a lower-case word is in it
    whenever ``re.I`` finds the word in ``text`` (re also takes "ı" and "İ" for "i", "ſ" for "s")."""
    if not text.isascii():
        text = text.replace("\u0130", "i").replace("\u0131", "i").replace("\u017f", "s")
    return text.lower()


def _from_keywords(language: str) -> str:
    return _KEYWORDS.search(MAIL_LANGUAGES[language]["from_header"]).group(1)


def _language_regexes(reply: ReplyText, *keys: str) -> str:
    """The alternatives the library joins into its regexes for ``keys`` ("signatures", ...)."""
    return "|".join(r for key in keys for r in (reply._get_language_regex(lang, key) for lang in _LANGUAGES) if r)


@dataclass(frozen=True)
class _Guarded:
    """A reply-parser regex behind ``possible``, a cheap test that every text the regex matches in passes.

    mail-parser-reply tries dozens of alternatives at every position of the text (~0.7 ms for 1 KB);
    ordinary mail matches none of them, and the test (substring searches and a regex anchored at line
    starts) says so in microseconds. A text that passes is searched by the regex itself. The
    tests (tests/mailer/test_message_reply.py) hold each guard to this and the readings to the library's.
    """
    regex: re.Pattern[str]
    possible: Callable[[str], bool]

    def search(self, text: str) -> re.Match[str] | None:
        return self.regex.search(text) if self.possible(text) else None

    def findall(self, text: str) -> list[Any]:
        return self.regex.findall(text) if self.possible(text) else []


_LIBRARY = ReplyText(text="", languages=list(_LANGUAGES), keep_hyphen_lists=True)
# The start of HEADER_REGEX's "From:" header lines and of SIGNATURE_REGEX's "Sent from my" and "Best
# regards" lines: a line start, quote marks, stars or blanks, the keyword.
_HEADER_LINE = re.compile(r"\n[> *]*(?:%s):" % "|".join(map(_from_keywords, _LANGUAGES)), re.I)
_SIGNATURE_LINE = re.compile(r"\n[> ]*(?:%s)" % _language_regexes(_LIBRARY, "sent_from", "signatures"), re.I)


def _has_line(start: re.Pattern[str], text: str) -> bool:
    """Whether a line of ``text`` starts with ``start`` (which begins with a newline: re looks for a
    pattern's literal first character before trying the rest, 3x faster than "^" with re.M)."""
    return start.search("\n" + text) is not None


def _may_hold_header(text: str) -> bool:
    """HEADER_REGEX: a "wrote" header or a "From:" header (both end in ":"), or "-----Original Message-----"."""
    if "-----" in text:
        return True
    if ":" not in text:
        return False
    folded = _folded(text)
    return any(_WROTE[lang] in folded for lang in _LANGUAGES) or _has_line(_HEADER_LINE, text)


def _may_hold_disclaimer(text: str) -> bool:
    """DISCLAIMERS_REGEX: every disclaimer ends in a sentence with "mail" in it."""
    return "mail" in _folded(text)


def _may_hold_signature(text: str) -> bool:
    """SIGNATURE_REGEX: a "--" line, an Outlook separator after a blank line, a "Sent from my" or
    "Best regards" line."""
    return any(p in text for p in _PAIRS_BEFORE_SIGNATURE) or _has_line(_SIGNATURE_LINE, text)


class _ReplyText(ReplyText):
    """The reply parser with its regexes compiled once (the library builds them for every message) and guarded."""
    HEADER_REGEX = _Guarded(_LIBRARY.HEADER_REGEX, _may_hold_header)
    DISCLAIMERS_REGEX = _Guarded(_LIBRARY.DISCLAIMERS_REGEX, _may_hold_disclaimer)
    SIGNATURE_REGEX = _Guarded(_LIBRARY.SIGNATURE_REGEX, _may_hold_signature)


def _reply(text: str) -> ReplyText:
    return _ReplyText(text=text, languages=list(_LANGUAGES), keep_hyphen_lists=True).read()


def new_text(text: str, parsed: ReplyText | None = None) -> str:
    """What the sender wrote in this message: no quoted message, no signature, no "> " lines."""
    replies = (parsed or _reply(text)).replies
    body = replies[0].body if replies else text
    return strip_quotes(body)


def written_text(text: str, parsed: ReplyText | None = None) -> str:
    """The text kept line for line as written, up to the quoted message or the signature."""
    lines = text.replace("\r\n", "\n").split("\n")
    parsed = parsed or _reply(text)
    match = parsed.HEADER_REGEX.search(parsed.text)
    if match is not None:
        start = match.start() + (1 if match.group(0).startswith("\n") else 0)
        cut = parsed.text.count("\n", 0, start)
        if any(ln.strip() for ln in lines[:cut]):
            lines = lines[:cut]
        else:  # bottom-posting: the new text follows the header and its quoted lines
            rest = lines[parsed.text.count("\n", 0, match.end()) + 1:]
            while rest and (not rest[0].strip() or rest[0].lstrip().startswith(">")):
                rest.pop(0)
            lines = rest
    out: list[str] = []
    for line in lines:
        if line.rstrip() in ("--", "-- ") or _SENT_FROM.match(line):
            break
        out.append(line.rstrip())
    while out and (not out[-1].strip() or out[-1].lstrip().startswith(">")):
        out.pop()
    return "\n".join(out).strip("\n")


def strip_quotes(text: str) -> str:
    """Drop quoted lines ('> ...') and everything after a signature separator ('-- ')."""
    out = []
    for line in text.splitlines():
        if line.rstrip() == "--" or line == "-- ":
            break
        if line.lstrip().startswith(">"):
            continue
        out.append(line)
    return "\n".join(out)


_BULK = {"bulk", "junk", "list", "auto_reply"}


def is_automatic(msg: Message) -> bool:
    """RFC 3834 and friends: mail that must never be answered (see also nomic.inputs)."""
    auto = _header(msg, "Auto-Submitted").lower()
    if auto and auto != "no":
        return True
    if _header(msg, "Precedence").lower() in _BULK:
        return True
    if _header(msg, "List-Id") or _header(msg, "X-Autoreply") or _header(msg, "X-Autorespond"):
        return True
    if _header(msg, "Return-Path").strip() == "<>":
        return True
    return msg.get_content_type() == "multipart/report"
