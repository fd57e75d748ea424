"""Raw mail bytes -> the parts the game reads: addresses, ids, subject, text.

Mail arrives as players' clients write it: multipart/alternative, HTML only,
base64 or quoted-printable, any charset, with the quoted message and a
signature below (or above) the new text. Two texts come out of it:

- ``text``: only what the sender wrote in this message, for reading commands:
  no quoted message, no signature, no "> " line (mailer.reply_reader).
- ``written``: the text of a Proposal or Point of Order kept as written, line
  for line with its indentation, cut only at the quoted message, the "-- "
  signature separator and a "Sent from my ..." line.

Both end where the quoted message starts, found by its structure in any language (mailer.quotes):
a command below a quote's header is never read, whatever language or client wrote it.

Every byte is hostile: the work one message can cost is bounded (``MAX_HEADER``
bytes of header section, ``MAX_TEXT`` characters and ``MAX_LINES`` lines of
text, ``MAX_HTML`` characters and ``MAX_HTML_TAGS`` tags of HTML nested at
most ``MAX_HTML_DEPTH`` deep; docs/operating.md, section 10). A message past a bound is read
up to it, and ``ParsedMail.cut`` says why the rest was not (mailer.inputs makes
that an ordinary "not understood"). An address field whose comments nest past
``MAX_NESTING`` is not read at all (``Unreadable``: the email package recurses once
a level, and 600 levels raised RecursionError before the message was journaled).
Text comes out as valid Unicode (``valid_text``): utf-7, unicode_escape and
punycode decode to lone surrogates, which no database or JSON writer takes.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from email import policy
from email.header import decode_header, make_header
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser, BytesParser
from functools import cached_property
from itertools import islice
from email.utils import getaddresses, parseaddr

import html2text

from mailer import quotes
from mailer.envelope import ATEXT, DOT_ATOM
from mailer.header_section import plain_section, read_header_section
from mailer.reply_reader import new_text, read_reply, written_text

_MSGID = re.compile(r"<([^<>\s]+)>")
# A mailbox as most mail writes it: "local@domain", or a display name of atoms, "Ann Lee <local@domain>"
# (headers.PLAIN's shapes too): the address parser reads it as these parts (tests/mailer/test_addresses.py).
WORDS = f"{ATEXT}(?: {ATEXT})*"
SPEC = f"{DOT_ATOM}@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*"
_MAILBOX = re.compile(f"({WORDS}) <({SPEC})>|({SPEC})")
_BLANK_RUNS = re.compile(r"\n{3,}")

MAX_HEADER = 64 * 1024  # bytes of header section read (Postfix's header_size_limit is 100 KB)
MAX_TEXT = 100_000  # characters of a body read: a Proposal longer than ~15,000 words is cut here
MAX_LINES = 2_000  # lines of a body read (the reply parser's regexes cost per line)
MAX_HTML = 500_000  # characters of an HTML part converted to text
MAX_HTML_TAGS = 3_000  # tags converted (html.parser and html2text cost 6-9 us a tag: 3,000 are 4-6x a 1 MB plain read); Outlook writes ~6 a paragraph, so a 100,000-character Proposal (MAX_TEXT) is ~1,200
# Attributes read (html.parser costs ~1 us an attribute: one tag of 240,000 took 0.3 s; Outlook
# writes about one a start tag, so a message reaches MAX_HTML_TAGS first).
MAX_HTML_ATTRIBUTES = MAX_HTML_TAGS
_TAGS_CUT = f"its HTML has more than {MAX_HTML_TAGS:,} tags"
_CHUNK_TAGS = 256  # tags of HTML converted between looks at the text's length (html_to_text)
_NBSP_HOLDER = "&nbsp_place_holder;"  # what html2text writes for &nbsp; until its finish()
MAX_HTML_DEPTH = 32  # nesting: html2text's output grows with depth times lines (quadratic)
MAX_NESTING = 32  # comments nested in an address field (RFC 5322 allows any depth; the parser recurses)
_ADDRESS_FIELDS = frozenset(("from", "to", "cc"))  # the fields read with the address parser
_SURROGATE = re.compile("[\ud800-\udfff]")


class Unreadable(ValueError):
    """The message cannot be read at all, by the sender's fault (intake answers 5xx; ``nomic poll`` and
    ``nomic ingest`` journal it, and its fold records it as a fault)."""


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
    cut: str = ""  # why the body was not read whole ("": it was)
    authors: int | None = None  # the From fields' addresses, counted when read (a plain From: 1); None: not counted


@dataclass(frozen=True)
class Body:
    """A body's text, and why it was cut short of the whole ("": it was read whole)."""
    text: str
    cut: str = ""


def message_key(raw: bytes) -> str:
    """The Message-ID, else a hash of the content."""
    return parse_head(raw).message_id


def journal_key(raw: bytes, mail: ParsedMail, authenticated: bool) -> str:
    """The journal's dedup key: the same message twice has one effect.

    An authenticated message is known by its Message-ID and its sender (a stranger who
    sends a Message-ID first cannot make a player's genuine mail a duplicate); any
    other message by a hash of its bytes (it changes nothing; an exact copy is a duplicate).
    """
    if mail.message_id.startswith("sha256:"):
        return mail.message_id
    if authenticated:
        return f"{mail.message_id} {mail.sender}"
    return "sha256:" + hashlib.sha256(raw).hexdigest()


class Received:
    """A journaled message: its bytes parsed at most once, when first asked, for every reader of its fold.

    The fold reads its commands from it (``mail``); the bounce check (mailer.bounces) reads its
    To and its report parts, and the list copy (mailer.listserv) carries it on, from the same
    ``message``. One parse serves them all because the ``email`` parser stores every header field
    as its source text whatever the policy: compat32 (88 against policy.default's 526 us for a
    1.4 KB mail here: the latter makes a header object of each field the parser reads) decodes
    and refolds nothing, so a copy of the tree flattened under ``mailer.headers.VERBATIM`` writes
    the author's headers byte for byte. Its parts are ``EmailMessage`` (compat32 reads them
    exactly as ``Message``) so that the copy can be edited with the content API.

    A header section past ``MAX_HEADER`` is read up to it, without the body (``cut`` says so):
    such mail is never authenticated (mailer.inbox), so never posted, and no failure report.
    """

    def __init__(self, raw: bytes):
        self.raw = raw
        self._source, self.cut = _bounded_head(raw)  # (cut: why it is not read whole; "": it is)

    @cached_property
    def message(self) -> EmailMessage:
        """The MIME tree, compat32 (a reader that edits it edits a copy: ``plain_text.copied``).

        A message of one part (not multipart, not message/*) whose header section is plain
        (mailer.header_section) is read without the feed parser, as it reads it: the fields as its
        header parser reads them, then every byte after the blank line the payload (the feed
        parser's line machinery was about a fifth of reading a message;
        tests/mailer/test_header_section.py holds the two to the same tree)."""
        end = _HEADER_END.search(self._source, 0, MAX_HEADER + 4)
        if end is not None:
            msg = plain_section(self._source[:end.end()], EmailMessage)
            if msg is not None and content_type(msg)[0].partition("/")[0] not in ("multipart", "message"):
                msg.set_payload(self._source[end.end():].decode("ascii", "surrogateescape"))
                return msg
        parser: BytesParser[EmailMessage] = BytesParser(EmailMessage, policy=policy.compat32)  # type: ignore[arg-type]
        return parser.parsebytes(self._source)

    @cached_property
    def mail(self) -> ParsedMail:
        """What the game reads of it (``parse``)."""
        return _read(self.message, self.raw, self.cut)


def parse(raw: bytes) -> ParsedMail:
    """The whole message. compat32 parsing (several times faster than policy.default);
    the few headers shown to people are decoded from RFC 2047 here."""
    return Received(raw).mail


def _read(msg: Message, raw: bytes, cut: str) -> ParsedMail:
    head = _Head(msg)
    mail = _from_head(head, raw, cut)
    refs = _ids(head.get("In-Reply-To")) + list(reversed(_ids(head.get("References"))))
    mail.references = list(dict.fromkeys(refs))
    body = read_body(msg, unquoted=True)
    full = quotes.own_text(body.text, quotes.Context.of(mail.subject, mail.references))
    reply = read_reply(full)  # read once, for both texts
    mail.text, mail.written, mail.cut = new_text(full, reply), written_text(full, reply), cut or body.cut
    mail.recipients = [a.lower() for _, a in addresses([head.get("To"), head.get("Cc")])]
    mail.automatic = _automatic(head, msg)
    return mail


def parse_head(raw: bytes) -> ParsedMail:
    """Only what the headers say (fast: no MIME, no body): enough to authenticate at intake.

    ``text`` and ``written`` stay empty; ``parse`` reads the body. The parser is given the header
    section alone when its end is found (it would split the body into lines too): any blank line
    ``_HEADER_END`` finds is at or after the one where the parser stops, so it reads the same fields.
    """
    end = _HEADER_END.search(raw, 0, MAX_HEADER + 4)
    section, cut = (raw[:end.end()], "") if end else _bounded_head(raw)
    msg = read_header_section(section) if end else BytesHeaderParser(policy=policy.compat32).parsebytes(section)
    return _from_head(_Head(msg), raw, cut)


def _from_head(head: "_Head", raw: bytes, cut: str) -> ParsedMail:
    plain = plain_from(head.froms)
    name, addr = plain or mailbox_of(head.get("From"))
    return ParsedMail(
        message_id=_message_id(head, raw), sender=_address(addr), name=decoded_words(name).strip(),
        subject=decoded_words(head.get("Subject")).strip(), text="", headers=head.msg, cut=cut,
        authors=1 if plain else None)


_PRINTABLE = re.compile(r"[ -~\t\r\n]*")  # printable ASCII and the white space the address parser skips


def plain_from(values: list[str]) -> tuple[str, str] | None:
    """The (display name, address) ``parseaddr`` gives the one From field in ``values`` when that field is
    plain (``_MAILBOX`` once unfolded, every character ``_PRINTABLE``); None for anything else, which the
    email package's address parser reads. A plain From holds exactly one address, as ``getaddresses`` counts
    them (mailer.auth), so the field is read once, not twice, and by a regex (~30 us a parse saved twice a
    message; tests/mailer/test_plain_from.py holds the two readings to the same result)."""
    if len(values) != 1 or _PRINTABLE.fullmatch(values[0]) is None:
        return None
    found = _MAILBOX.fullmatch(" ".join(values[0].split()))
    return None if found is None else _parts(found)


def mailbox_of(value: str) -> tuple[str, str]:
    """``email.utils.parseaddr(value)``; a plain mailbox (``_MAILBOX``) split by a regex, not read
    character by character by the parser (its ``From`` and ``To`` were a fifth of reading a message)."""
    plain = _MAILBOX.fullmatch(value)
    return parseaddr(value) if plain is None else _parts(plain)


def _parts(mailbox: re.Match[str]) -> tuple[str, str]:
    """The (display name, address) of a ``_MAILBOX`` match."""
    return (mailbox[1], mailbox[2]) if mailbox[2] else ("", mailbox[3])


def addresses(values: list[str]) -> list[tuple[str, str]]:
    """The (name, address) pairs of ``email.utils.getaddresses(values)`` that have an address; fields
    that are each empty or a plain mailbox are split by a regex (``mailbox_of``)."""
    if all(not v or _MAILBOX.fullmatch(v) for v in values):
        return [mailbox_of(v) for v in values if v]
    return [(n, a) for n, a in getaddresses(values) if a]


# The blank line that ends the header section, in any of the line ends hostile mail mixes.
_HEADER_END = re.compile(rb"\r\n\r\n|\n\r?\n|\r\r")


def _bounded_head(raw: bytes) -> tuple[bytes, str]:
    """``raw``, or when its header section passes ``MAX_HEADER`` bytes, its first lines alone
    (no body), and why: the email package takes ~0.2 s for 1 MB of header lines."""
    if len(raw) <= MAX_HEADER or _HEADER_END.search(raw, 0, MAX_HEADER + 4):
        return raw, ""
    end = max(raw.rfind(b"\n", 0, MAX_HEADER), raw.rfind(b"\r", 0, MAX_HEADER))
    return raw[:end + 1], f"its header is longer than {MAX_HEADER:,} bytes; it was not read whole"


class _Head:
    """A parsed message's header fields, the first of each name, read once (a message may have thousands)."""

    def __init__(self, msg: Message):
        self.msg = msg
        self.first: dict[str, str] = {}
        self.froms: list[str] = []  # every From field, as stored
        for key, value in msg.raw_items():
            name = key.lower()
            self.first.setdefault(name, value)
            if name == "from":
                self.froms.append(value)
            if name in _ADDRESS_FIELDS and "(" in value and nesting(value) > MAX_NESTING:
                raise Unreadable(f"its {key} field nests comments more than {MAX_NESTING} deep")

    def get(self, name: str) -> str:
        """The first ``name`` field as text (``field_text``)."""
        return field_text(self.first.get(name.lower()))


def nesting(value: str) -> int:
    """How deep the comments ("(...)") of a structured header field nest, as the address parser reads
    them: a quoted string holds none, a backslash escapes the next character."""
    depth = deepest = 0
    quoted = escaped = False
    for char in value:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == '"' and not depth:
            quoted = not quoted
        elif quoted:
            continue
        elif char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")" and depth:
            depth -= 1
    return deepest


def header_text(msg: Message, name: str) -> str:
    """The first ``name`` field of ``msg`` as text (``field_text``), for a reader of a field or two."""
    wanted = name.lower()
    return field_text(next((v for k, v in msg.raw_items() if k.lower() == wanted), None))


def field_text(value: object) -> str:
    """A stored header value as text, unfolded; raw UTF-8 (RFC 6532) decoded, NUL read as a space
    (PostgreSQL text cannot hold it: a NUL in a Message-ID or From wedged the game there)."""
    if value is None:
        return ""
    return " ".join(_unescaped(str(value)).replace("\x00", " ").split())


def _address(addr: str) -> str:
    """An address as the game keys players by: lower case, Unicode in NFC (RFC 6532 mail may carry
    "josé" as one code point or as "e" and a combining accent; they are one address)."""
    return unicodedata.normalize("NFC", addr.strip()).lower()


def _message_id(head: _Head, raw: bytes) -> str:
    """The Message-ID, else a hash of the whole message."""
    mid = _ids(head.get("Message-ID"))
    return mid[0] if mid else "sha256:" + hashlib.sha256(raw).hexdigest()


def _unescaped(value: str) -> str:
    """A header value as stored by the bytes parser (non-ASCII bytes as surrogate escapes) as text:
    UTF-8 (RFC 6532), else Windows-1252, so "Café" is never stored as "Caf\ufffd\ufffd"."""
    if value.isascii():
        return value
    data = value.encode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("windows-1252", "replace")


def decoded_words(value: str) -> str:
    """RFC 2047 encoded words ("=?iso-8859-1?Q?Caf=E9?=") as text; a value that does not decode is
    left as it is (unknown charsets, broken words, surrogates: the package fails in many ways)."""
    if "=?" not in value:
        return value
    try:
        return valid_text(str(make_header(decode_header(value))))
    except Exception:
        return value


def valid_text(text: str) -> str:
    """``text`` as valid Unicode: each lone surrogate (utf-7, unicode_escape and punycode decode to them)
    replaced by U+FFFD. One in a stored input made the game's fold fail for ever."""
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


def _ids(value: str) -> list[str]:
    return _MSGID.findall(value or "")


def body_text(msg: Message) -> str:
    """The message's text as its sender wrote it (up to the bounds; see ``read_body``)."""
    return read_body(msg).text


def read_body(msg: Message, unquoted: bool = False) -> Body:
    """The message's text as its sender wrote it: text/plain preferred, else HTML as text.

    The first text part that is not an attachment is read (MIME order puts the
    plainest alternative first); attachments are never read, whatever their type.
    At most ``MAX_TEXT`` characters and ``MAX_LINES`` lines are read. ``unquoted``: HTML
    is read without its quote containers (mailer.quotes).
    """
    parts = [p for p in msg.walk() if not p.is_multipart()
             and (p.get("Content-Disposition") or "").split(";")[0].strip().lower() != "attachment"]
    typed = [(p, content_type(p)) for p in parts]
    for ctype in ("text/plain", "text/html"):
        part, charset = next(((p, c) for p, (t, c) in typed if t == ctype), (None, None))
        if part is not None:
            text = valid_text(_decoded(part, charset)).replace("\r\n", "\n").replace("\r", "\n")  # a bare CR ends a line too
            if ctype == "text/html":
                return _bounded(_html_unquoted(text) if unquoted else html_to_text(text))
            return _bounded(Body(text))
    return Body("")


def _html_unquoted(html: str) -> Body:
    """HTML-only mail as plain text without its quote containers (mailer.quotes)."""
    kept, stopped = quotes.html_without_quotes(html, MAX_HTML_TAGS)
    body = html_to_text(kept)
    return Body(body.text, body.cut or (f"{_TAGS_CUT}; only its start was read" if stopped else ""))


def _bounded(body: Body) -> Body:
    """At most ``MAX_TEXT`` characters and ``MAX_LINES`` lines, cut at a line's end."""
    text, cut = body.text, body.cut
    if len(text) > MAX_TEXT:
        text = text[:MAX_TEXT].rpartition("\n")[0] or text[:MAX_TEXT]
        cut = cut or f"the message is longer than {MAX_TEXT:,} characters; only its start was read"
    if text.count("\n") >= MAX_LINES:
        text = "\n".join(text.split("\n", MAX_LINES)[:MAX_LINES])
        cut = cut or f"the message is longer than {MAX_LINES:,} lines; only its start was read"
    return Body(text, cut)


# A Content-Type value as most mail writes it: a type, and a charset or nothing ("text/plain; charset=utf-8").
_PLAIN_TYPE = re.compile(r'([A-Za-z0-9.+-]+/[A-Za-z0-9.+-]+)(?:; ?charset=("?)([A-Za-z0-9_.:-]+)\2)?')


def content_type(part: Message) -> tuple[str, str | None]:
    """``(part.get_content_type(), part.get_content_charset())``; a plain value (``_PLAIN_TYPE``) read by a
    regex, not by the email package's parameter parser (that was an eighth of reading a message;
    tests/mailer/test_content_type.py holds the two readings to the same result)."""
    value = part.get("Content-Type")
    plain = _PLAIN_TYPE.fullmatch(value) if isinstance(value, str) else None
    if plain is None:
        return part.get_content_type(), part.get_content_charset()
    return plain[1].lower(), plain[3] and plain[3].lower()


def _decoded(part: Message, charset: str | None) -> str:
    """The part's text in any charset (``charset``: its Content-Type's); an unknown or wrong charset
    falls back, never fails."""
    try:
        payload = part.get_payload(decode=True) or b""
    except Exception:  # a broken transfer encoding reads as empty
        return ""
    if not isinstance(payload, bytes):
        return ""
    for name in (charset or "utf-8", "utf-8"):
        try:
            return payload.decode(name)
        except (LookupError, UnicodeError, ValueError):  # ValueError: a charset name with a NUL in it
            continue
    return payload.decode("windows-1252", "replace")


# A tag: "<", an optional "/", a name; then anything but another "<" (so an unclosed tag costs nothing more).
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9:-]*)[^<>]*>?")
# An attribute in a tag, as html.parser reads one: a name, then maybe "=" and a value.
_ATTRIBUTE = re.compile(r"""[^\s/>=][^\s/=>]*(?:\s*=+\s*(?:'[^']*'|"[^"]*"|[^>\s]*))?""")
# Tags that never hold others, or that the next one of their kind closes: they add no depth.
_FLAT_TAGS = frozenset("area base br col embed hr img input link meta param source track wbr "
                       "p li dt dd tr td th option optgroup thead tbody tfoot colgroup caption".split())


def html_limit(html: str) -> tuple[int, str]:
    """How much of ``html`` to convert: its length, or where it passes a bound, and which bound.

    One linear pass over the tags, counting them, their attributes and their nesting depth (roughly
    as a browser would: the elements of ``_FLAT_TAGS`` do not nest, a self-closing tag neither).
    """
    end, why = len(html), ""
    if end > MAX_HTML:
        end, why = MAX_HTML, f"its HTML is longer than {MAX_HTML:,} characters"
    depth = attributes = 0
    for count, m in enumerate(_TAG.finditer(html, 0, end), 1):
        if count > MAX_HTML_TAGS:
            return m.start(), _TAGS_CUT
        start, stop = m.end(2), m.end()
        if stop - start > 2:  # room for an attribute: counted up to one past the bound
            room = MAX_HTML_ATTRIBUTES - attributes + 1  # a tag of 2 * room characters holds at most room
            found = (_ATTRIBUTE.findall(html, start, stop) if stop - start <= 2 * room
                     else list(islice(_ATTRIBUTE.finditer(html, start, stop), room)))
            attributes += len(found)
        if attributes > MAX_HTML_ATTRIBUTES:
            return m.start(), f"its HTML has more than {MAX_HTML_ATTRIBUTES:,} attributes in its tags"
        name = m[2].lower()
        if name in _FLAT_TAGS or m[0].endswith("/>"):
            continue
        depth = max(0, depth - 1) if m[1] else depth + 1
        if depth > MAX_HTML_DEPTH:
            return m.start(), f"its HTML is nested more than {MAX_HTML_DEPTH} deep"
    return end, why


class _AsWritten(html2text.HTML2Text):
    """html2text without its Markdown escapes: the player's text reads as they wrote it.

    html2text backslashes what Markdown would take for a list or a rule ("-- " became "\\--", so a
    signature was no signature; "1. " became "1\\. "). ``entity_char`` only turns that escaping off.
    """

    def handle_data(self, data: str, entity_char: bool = False) -> None:
        super().handle_data(data, entity_char=True)


def html_to_text(html: str) -> Body:
    """HTML-only mail as plain text: block quotes become "> " lines, no line wrapping.

    Only the HTML within the bounds is converted (``html_limit``); the Body says where it stopped.
    The HTML is fed ``_CHUNK_TAGS`` tags at a time, and no more once the text so far is past
    ``MAX_TEXT`` or ``MAX_LINES`` (``_bounded`` cuts there, so the text read is the same): a
    megabyte of ``<p>Accept 1</p>`` converted 4,000 tags for the 2,000 lines read of it.
    """
    end, why = html_limit(html)
    conv = _AsWritten()
    conv.body_width = 0
    conv.ignore_images = True
    conv.ignore_emphasis = True
    conv.ignore_tables = True
    conv.unicode_snob = True
    conv.start = True  # as html2text's handle() does
    pos = 0
    stops = [m.start() for m in islice(_TAG.finditer(html, 0, end), _CHUNK_TAGS, None, _CHUNK_TAGS)]
    for stop in (*stops, end):
        conv.feed(html[pos:stop])
        pos = stop
        if _past_text_bounds(conv.outtextlist):
            break
    conv.feed("")
    cut = f"{why}; only its start was read" if why else ""
    return Body(_as_lines(conv.finish()), cut)


def _past_text_bounds(written: list[str]) -> bool:
    """Whether the text written so far reads past ``MAX_TEXT`` or ``MAX_LINES`` whatever follows.

    Only its finished lines count: the last may still grow. Cheap until the raw text is that long.
    """
    raw = "".join(written)
    if len(raw) <= MAX_TEXT and raw.count("\n") <= MAX_LINES:
        return False
    done = _as_lines(raw[:raw.rfind("\n") + 1].replace(_NBSP_HOLDER, "\xa0"))
    return len(done) > MAX_TEXT or done.count("\n") > MAX_LINES


def _as_lines(text: str) -> str:
    """html2text's output as lines: no trailing blanks, no runs of blank lines (Outlook's empty paragraphs)."""
    return _BLANK_RUNS.sub("\n\n", "\n".join(line.rstrip() for line in text.split("\n")))


_BULK = {"bulk", "junk", "list", "auto_reply"}


def _automatic(head: _Head, msg: Message) -> bool:
    """RFC 3834 and friends: mail that must never be answered (see also mailer.inputs)."""
    auto = head.get("Auto-Submitted").lower()
    if auto and auto != "no":
        return True
    if head.get("Precedence").lower() in _BULK:
        return True
    if head.get("List-Id") or head.get("X-Autoreply") or head.get("X-Autorespond"):
        return True
    if head.get("Return-Path").strip() == "<>":
        return True
    return content_type(msg)[0] == "multipart/report"
