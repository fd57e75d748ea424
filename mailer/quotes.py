"""Where a reply's quoted message starts, found by its structure in any language.

Clients write the header above a quoted message in the reader's language ("Am ... schrieb ...:",
"Od: ... Wysłano: ... Do: ... Temat: ...", "差出人: ... 送信日時: ..."), on one line or two, with the
quoted text marked "> " or not marked at all. No list of languages is complete, so the header is
known by its shape and by what the message says about itself:

- a **header block**: label lines ("word: value", single blank lines between) whose values hold a
  time or a year, and an address (three lines or more), or this message's own subject (the quoted
  message's "Subject:"), or a separator line above them; in a reply also four lines or more with a
  time ("From: Alice", "Sent: ... 10:00", "To: Scribe", "Subject: ...", names without addresses);
- an **attribution**: a line (or two) ending in a colon that holds a time or a year and an address;
  in a reply also one directly above "> " lines, or one that holds both a time and a year;
- a **separator line** in a reply: "-----Original Message-----" in any language (a phrase between
  runs of five dashes or more) or Outlook's line of underscores;
- in HTML, the containers clients put a quote in (``QUOTE_CONTAINERS``), removed before the HTML
  becomes text, and Outlook's reply markers (``QUOTE_FOLLOWS``), where the rest is the quote.

A message is a reply when it names one (In-Reply-To or References) or its subject says so ("Re:").
The language lists of mail-parser-reply (mailer.reply_reader) still run on what remains.
A command is never read from below a quote's start; a Proposal's text ends there (docs/operating.md,
"Quoted text is never read", says what this costs).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from mailer.grammar import REPLY_PREFIX

# A header's label line: a short label (letters first, in any script) and a colon, then a value;
# stars and blanks around the label (Outlook's bold "**From:**" read from HTML). "：" is the full-width colon.
_LABEL_LINE = re.compile(r"^[ \t*>]*[^\W\d_][\w .'\-\u00a0]{0,30}?[ \t*\u00a0]*[:\uff1a][ \t*\u00a0]*\S")
_ADDRESS_IN = re.compile(r"[^\s<>@]@[^\s<>@]+\.[^\s<>@]")
_TIME = re.compile(r"(?<!\d)\d{1,2}[:.]\d{2}(?!\d)")  # "10:00", Danish "10.00"
_CLOCK = re.compile(r"(?<!\d)\d{1,2}:\d{2}(?!\d)")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
# "-----Original Message-----", "------- Original Message -------", "----- Původní zpráva -----",
# "---------- Forwarded message ---------"; Outlook's "________________________________".
_QUOTE_SEPARATOR = re.compile(r"^[ \t]*(?:-{5,}[ \t]*[^\W\d_][^\n]{0,60}?[ \t]*-{5,}|_{20,})[ \t]*$")
# A subject's reply prefixes in any language ("RE:", "AW:", "Odp:", "答复:", "Ответ:").
_ANY_PREFIX = re.compile(r"^\s*[^\s:\uff1a]{1,5}\s*(?:\[\d+\])?\s*[:\uff1a]\s*")
HEADER_BLOCK_LINES = 3  # label lines that make a quoted header block with an address
REPLY_BLOCK_LINES = 4  # label lines that make one in a reply with a time alone (Outlook: From, Sent, To, Subject)
MAX_ATTRIBUTION = 400  # characters: a longer line is no quote's header


@dataclass(frozen=True)
class Context:
    """What the message says about itself: its subject and whether it answers another message."""
    subject: str = ""
    reply: bool = False

    @classmethod
    def of(cls, subject: str, references: list[str]) -> "Context":
        return cls(subject, bool(references) or bool(REPLY_PREFIX.match(subject)))


@dataclass(frozen=True)
class _Start:
    line: int  # the quote's first header line
    end: int  # the line after its header


def own_text(text: str, context: Context) -> str:
    """``text`` without the quoted message: what is above the quote's header (less a separator).

    With nothing above it (bottom-posting, interleaving), the lines after the header and the
    "> " lines below it; when the quote below the header is unmarked, none: all of it is quoted.
    """
    lines = text.split("\n")
    start = quote_start(lines, context)
    if start is None:
        return text
    above = _above_separator(lines[:start.line])
    if above:
        return "\n".join(above)
    rest = lines[start.end:]
    while rest and not rest[0].strip():
        rest.pop(0)
    if not rest or not rest[0].lstrip().startswith(">"):
        return ""
    while rest and (not rest[0].strip() or rest[0].lstrip().startswith(">")):
        rest.pop(0)
    return "\n".join(rest)


def quote_start(lines: list[str], context: Context) -> _Start | None:
    """The first quote header among ``lines``, or None."""
    subjects: set[str] | None = None  # (read at the first label line: most mail has none)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">") or not (":" in line or "\uff1a" in line or "---" in line or "___" in line):
            i += 1
            continue
        if context.reply and _QUOTE_SEPARATOR.match(line):
            return _Start(i, i + 1)
        if _LABEL_LINE.match(line):
            subjects = _subjects(context.subject) if subjects is None else subjects
            block = _label_block(lines, i)
            if _is_header_block(lines, i, block, subjects, context.reply):
                return _Start(i, block[-1] + 1)
            if len(block) > 1:
                i = block[-1] + 1
                continue
        first = _attribution(lines, i, context.reply)
        if first is not None:
            return _Start(first, i + 1)
        i += 1
    return None


def _subjects(subject: str) -> set[str]:
    """The subject as a quoted header may give it: whole, and less each of its first reply prefixes."""
    found, rest = set(), subject
    for _ in range(4):
        found.add(_words(rest))
        rest = _ANY_PREFIX.sub("", rest, count=1)
    return found - {""}


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def _is_header_block(lines: list[str], start: int, block: list[int], subjects: set[str], reply: bool) -> bool:
    values = "\n".join(lines[start:block[-1] + 1])
    if not (_TIME.search(values) or _YEAR.search(values)):
        return False
    if len(block) >= HEADER_BLOCK_LINES and _ADDRESS_IN.search(values):
        return True
    if reply and len(block) >= REPLY_BLOCK_LINES and _CLOCK.search(values):
        return True
    above = _next_text(lines, start - 1, -1)
    return len(block) > 1 and (_draws_rule(above) or any(
        _words(re.split(r"[:\uff1a]", lines[i], maxsplit=1)[1].strip(" \t*")) in subjects for i in block))


def _label_block(lines: list[str], start: int) -> list[int]:
    """The indexes of the label lines from ``start`` on, single blank lines allowed between."""
    found, i = [start], start + 1
    while i < len(lines):
        if _LABEL_LINE.match(lines[i]):
            found.append(i)
        elif not (lines[i].strip() == "" and i + 1 < len(lines) and _LABEL_LINE.match(lines[i + 1])):
            break
        i += 1
    return found


def _attribution(lines: list[str], i: int, reply: bool) -> int | None:
    """The first line of the attribution ending on line ``i`` ("On ..., Alice <a@b> wrote:"), or None.

    Line ``i`` alone, else with the line above it (iOS breaks the header before the sender's name).
    """
    if len(lines[i]) > MAX_ATTRIBUTION or not lines[i].rstrip(" \t").endswith((":", "\uff1a")):
        return None
    marked_below = _next_text(lines, i + 1, 1).lstrip().startswith(">")
    above = lines[i - 1] if i > 0 and lines[i - 1].strip() and not lines[i - 1].lstrip().startswith(">") else ""
    for first, text in ((i, lines[i]), (i - 1, f"{above} {lines[i]}")):
        time, year = _TIME.search(text), _YEAR.search(text)
        if (time or year) and (_ADDRESS_IN.search(text) or reply and (marked_below or (time and year))):
            return first
        if not above:
            break
    return None


def _next_text(lines: list[str], i: int, step: int) -> str:
    """The first line from ``i`` on (``step`` 1) or back (-1) that is not blank, or ""."""
    while 0 <= i < len(lines):
        if lines[i].strip():
            return lines[i]
        i += step
    return ""


def _above_separator(lines: list[str]) -> list[str]:
    """``lines`` less a trailing separator ("-----Original Message-----", "________") and blanks."""
    end = len(lines)
    while end and (not lines[end - 1].strip() or _draws_rule(lines[end - 1])):
        end -= 1
    return lines[:end]


def _draws_rule(line: str) -> bool:
    """Whether ``line`` draws a rule: it starts with five of "-_=*" or ends with five of "-_=", blanks
    aside. (In linear time: the regex it replaces took 10 s for a 16,000-character line.)"""
    start, end = line.lstrip(" \t")[:5], line.rstrip(" \t")[-5:]
    return (len(start) == 5 and all(c in "-_=*" for c in start)) or (len(end) == 5 and all(c in "-_=" for c in end))


# HTML: an element that holds a quote (and the header above it), wherever it is.
QUOTE_CONTAINERS = ("gmail_quote", "gmail_attr", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote", "zmail_extra")
# HTML: Outlook's markers after which the rest of the message is the quote.
QUOTE_FOLLOWS = ("divRplyFwdMsg", "x_divRplyFwdMsg", "appendonsend", "stopSpelling",
                 "mail-editor-reference-message-container", "OutlookMessageHeader")
# A start tag that may hold a quote (the look-ahead lets the regex engine skip to such a "<": 2x faster).
_START = re.compile(r"<(?=[bdhBDH])((?i:div|blockquote|hr))\b([^<>]*)>?")
# Attributes that may mark a quote: a superset found by one search, so most tags cost no more.
_HINT = re.compile("|".join(map(re.escape, (*QUOTE_CONTAINERS, *QUOTE_FOLLOWS, "cite"))), re.I)
_NAMES = re.compile(r"\b(?:class|id)\s*=\s*[\"']?([^\"'<>]*)", re.I)
_CITE = re.compile(r"\btype\s*=\s*[\"']?cite\b", re.I)


def html_without_quotes(html: str, max_tags: int) -> tuple[str, bool]:
    """``html`` less its quote containers (and everything after an Outlook reply marker), and
    whether it stopped at ``max_tags``.

    At most ``max_tags`` tags are looked at, start tags outside the quotes and the tags a quote's
    end is looked for among (each costs a few microseconds: a megabyte of ``<div>`` took 150 ms):
    the HTML from the next start tag on is left out.
    """
    out: list[str] = []
    pos = at = seen = 0
    while m := _START.search(html, at):
        seen += 1
        if seen > max_tags:
            out.append(html[pos:m.start()])
            return "".join(out), True
        at = m.end()
        kind = _quote_kind(m[2]) if _HINT.search(m[2]) else ""
        if kind == "":
            continue
        out.append(html[pos:m.start()])
        if kind == "follows":
            return "".join(out), False
        pos, walked = _element_end(m[1].lower(), html, m.end(), max_tags - seen)
        seen += walked
        if pos < 0:
            return "".join(out), False
        at = pos
    out.append(html[pos:])
    return "".join(out), False


def _quote_kind(attributes: str) -> str:
    """"container", "follows" or "" for a tag's attributes."""
    if _CITE.search(attributes):
        return "container"
    names = " ".join(_NAMES.findall(attributes)).split()
    if any(n in QUOTE_FOLLOWS for n in names):
        return "follows"
    return "container" if any(n in QUOTE_CONTAINERS or n.startswith("yahoo_quoted") for n in names) else ""


def _element_end(name: str, html: str, start: int, most: int) -> tuple[int, int]:
    """Where the element ``name`` opened before ``start`` ends (the offset after its end tag), or -1
    if never, and how many tags of its name were looked at; past ``most`` of them the quote is taken
    to run to the end (a megabyte of ``<div>`` inside a never-closed quote took 110 ms).
    """
    depth, walked = 1, 0
    for walked, m in enumerate(re.compile(rf"<(/?){name}\b[^<>]*>?", re.I).finditer(html, start), 1):
        if walked > most:
            return -1, walked
        if not m[0].endswith("/>"):
            depth += -1 if m[1] else 1
        if depth == 0:
            return m.end(), walked
    return -1, walked


