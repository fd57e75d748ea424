"""mail-parser-reply, read fast: the sender's new text and the text kept as written.

This module alone reaches into the library's internals (its ``MAIL_LANGUAGES`` patterns and
``EmailMessage``'s private ``_get_language_regex`` and regex properties); pyproject.toml pins the
library to the versions tests/mailer/test_message_reply.py was run against, which holds every
reading here to the library's own.

The library cuts a reply at its quote header ("On ... wrote:", Outlook's "From: ... Sent: ...") and
its signature; every remaining "> " line is dropped. Its regexes run only on text that could hold
what they look for (``_Guarded``): most mail has no quote or signature, and they cost ~1 ms a message.
Quote headers in any language are found before this, by their structure (mailer.quotes).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from mailparser_reply.constants import MAIL_LANGUAGES
from mailparser_reply.parser import EmailMessage as ReplyText

_SENT_FROM = re.compile(r"^\s*(sent from my |get outlook for )", re.I)

_LANGUAGES = ("en", "de", "fr", "es", "nl", "sv", "it")
# The word each language's "wrote" header needs ("On ... wrote:", "Am ... schrieb ...:", ...).
_WROTE = {"en": "wrote:", "de": "schrieb", "fr": "a \u00e9crit", "es": "escribi\u00f3:", "nl": "schreef:",
          "sv": "skrev", "it": "ha scritto:"}
# A "From:"-style header's keywords: "[* ]*(?:From|Sent|To|...):" in each language's from_header.
_KEYWORDS = re.compile(r"\[\* \]\*\(\?:([^()]*)\):")
# A "--" line ("[-_]{2}\n") or the start of Outlook's separator after a blank line ("\n{2,} ?[_-]{32,}").
_DASHES_ENDING_LINE = ("--\n", "__\n", "-_\n", "_-\n")
_SEPARATOR_START = re.compile(r"\n\n ?[_-]")  # (a literal start: found by one fast scan, not eight)


def _folded(text: str) -> str:
    """``text`` lower-cased as a case-insensitive regex compares it: a lower-case word is in it
    whenever ``re.I`` finds the word in ``text`` (re also takes "ı" and "İ" for "i", "ſ" for "s")."""
    if not text.isascii():
        text = text.replace("\u0130", "i").replace("\u0131", "i").replace("\u017f", "s")
    return text.lower()


def _from_keywords(language: str) -> str:
    found = _KEYWORDS.search(MAIL_LANGUAGES[language]["from_header"])
    assert found is not None, f"mail-parser-reply's {language} From pattern has no keywords"
    return found.group(1)


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
# The prefix is possessive ("*+": never given back), as no keyword or signature starts with a quote
# mark, star or blank, but the French header's "  " (two blanks), given its own branch: a line of
# many "> " would otherwise be tried at every split of its prefix against every alternative.
_HEADER_KEYWORDS = [k for k in "|".join(map(_from_keywords, _LANGUAGES)).split("|") if k != "  "]
_HEADER_LINE = re.compile(r"\n[> *]*+(?:%s):|\n[> *]*  :" % "|".join(_HEADER_KEYWORDS), re.I)
_SIGNATURE_LINE = re.compile(r"\n[> ]*+(?:%s)" % _language_regexes(_LIBRARY, "sent_from", "signatures"), re.I)


def _has_line(start: re.Pattern[str], text: str) -> bool:
    """Whether a line of ``text`` starts with ``start`` (which begins with a newline: re looks for a
    pattern's literal first character before trying the rest, 3x faster than "^" with re.M)."""
    return start.search("\n" + text) is not None


def _may_hold_header(text: str) -> bool:
    """HEADER_REGEX: a "wrote" header or a "From:" header (both end in ":"), or a line starting
    "-----Original Message-----" (a line of 100,000 dashes cost the regex 0.23 s)."""
    if text.startswith("-----") or "\n-----" in text:
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
    return ((("-\n" in text or "_\n" in text) and any(p in text for p in _DASHES_ENDING_LINE))
            or _SEPARATOR_START.search(text) is not None or _has_line(_SIGNATURE_LINE, text))


# Parts of the library's regexes that backtrack quadratically, each with one that matches the same
# text, tried in the same order, in linear time. "A s B" (lazy A and B, each on one line; s an optional
# blank, which may be the line break) in the "wrote" headers: a line "On " of n characters with "wrote:"
# further down cost n^2/2 steps (0.17 s at 2,000 characters, 33 s at 32,000). "\s*^" opening the signatures,
# tried at every position of a run of blanks: 4,000 blanks cost 0.25 s, 100,000 minutes. No signature
# starts with a blank, so the blank lines before one are never given back (possessive).
_LINE_PAIR = (r".+?\s?.+?", r"[^\n](?:[^\n]*?\n)??[^\n]+?")
_BLANKS_TO_LINE_START = (r"\s*^", r"(?:[^\S\n]*+\n)*+^")
# The stars and blanks after a "From:"-style keyword, given back one by one to "\s{,2}.*" when the next
# line is no header: "From:" and 1,000 "* " cost 0.83 s, 4,000 12.8 s. Kept (possessive), the value
# ends where it could: a blank given back never lets "\s{,2}" reach further.
_STARS_BEFORE_VALUE = (r":[ *]*(?:\s{,2}).*", r":[ *]*+(?:\s{,2}).*")
# The quote marks before a header, given back one by one to each of its ~15 alternatives in turn: a line of
# 48,000 "> " above a "From:" cost 0.7 s. Kept (possessive), as what follows them starts with a letter or
# a digit, or with stars and blanks that take a blank given back just as well; but the French header's
# "  " keyword (two blanks), whose quote marks stay as they were.
_QUOTE_MARKS = (r"(?:> ?)*", r"(?:> ?)*+")
_FRENCH_QUOTE_MARKS = (r"(?:> ?)*+)[* ]*(?:De |", r"(?:> ?)*)[* ]*(?:De |")
# Where a match can start, said once in front, so that the ~15 alternatives are not each tried at every
# position of a line (a 50,000-character line cost 40 ms a search): every alternative of the header regex
# starts at a line start or at the line break before one; the signature regex's at a line start, a line
# break, or (blanks to a line start) the first of a run of blanks, where its leftmost match starts.
_AT_LINE = r"(?:^|(?=\n))"
_AT_BLANKS = r"(?:^|(?=\n)|(?<!\s)(?=\s))"


def _linear(regex: re.Pattern[str], start: str, *rewrites: tuple[str, str]) -> re.Pattern[str]:
    """``regex`` with ``start`` in front and each (quadratic, linear) part rewritten (each must be there)."""
    pattern = regex.pattern
    for slow, fast in rewrites:
        assert slow in pattern, f"mail-parser-reply's pattern no longer holds {slow!r}"
        pattern = pattern.replace(slow, fast)
    return re.compile(f"{start}(?:{pattern})", regex.flags)


class _ReplyText(ReplyText):
    """The reply parser with its regexes compiled once (the library builds them for every message),
    made linear (``_linear``) and guarded."""
    HEADER_REGEX = _Guarded(_linear(_LIBRARY.HEADER_REGEX, _AT_LINE, _LINE_PAIR, _STARS_BEFORE_VALUE,
                                   _QUOTE_MARKS, _FRENCH_QUOTE_MARKS), _may_hold_header)
    DISCLAIMERS_REGEX = _Guarded(_LIBRARY.DISCLAIMERS_REGEX, _may_hold_disclaimer)
    SIGNATURE_REGEX = _Guarded(_linear(_LIBRARY.SIGNATURE_REGEX, _AT_BLANKS, _BLANKS_TO_LINE_START),
                               _may_hold_signature)

    def _normalize_text(self) -> None:
        """The library's: line ends and each line's blanks; its regex putting a line break before an
        Outlook separator ("\\n{2,} ?[_-]{32,}" after a character) runs only where one may start (it
        tries every position of the text: about a third of reading an ordinary message)."""
        text: str = vars(self)["text"]  # (the library's field, untyped to mypy)
        self.text = "\n".join([line.strip() for line in text.replace("\r\n", "\n").split("\n")])
        if _SEPARATOR_START.search(self.text) is not None:
            super()._normalize_text()  # (what is done above again, changing nothing, then the regex)


def read_reply(text: str) -> ReplyText:
    """The library's reading of ``text`` (its replies, headers and signatures)."""
    return _ReplyText(text=text, languages=list(_LANGUAGES), keep_hyphen_lists=True).read()


def new_text(text: str, parsed: ReplyText | None = None) -> str:
    """What the sender wrote in this message: no quoted message, no signature, no "> " lines."""
    replies = (parsed or read_reply(text)).replies
    body = replies[0].body if replies else text
    return strip_quotes(body)


def written_text(text: str, parsed: ReplyText | None = None) -> str:
    """The text kept line for line as written, up to the quoted message or the signature."""
    lines = text.replace("\r\n", "\n").split("\n")
    parsed = parsed or read_reply(text)
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
