"""Header values made from what players wrote: the one place that makes them safe to write.

Python's email package refuses a header value with a line break in it (so a
subject with an encoded CR/LF made composing raise), and it decodes RFC 2047
encoded words in any value it is given, even inside a quoted string or a
message id, and writes what they decode to, line breaks included: a header
injection. So every header THS writes from received text goes through
``text`` (subjects; ``name`` for display names, written by ``mailbox``),
``put_address`` (recipients) or ``ids`` (threading): control characters and
line breaks become spaces, an encoded word cannot begin, lengths are capped,
and what cannot be made safe is left out.

Received headers that a list copy or a digest carries on are written as they
came (``VERBATIM``): refolding a long one would write out its decoded words.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from datetime import datetime, timezone
from email import policy
from email.headerregistry import Address, AddressHeader, BaseHeader, HeaderRegistry, MessageIDHeader, UnstructuredHeader
from email.message import EmailMessage, Message
from email.policy import EmailPolicy, Policy
from email.utils import _format_timetuple_and_zone  # type: ignore[attr-defined]

from mailer import plain_text
from mailer.message import SPEC, WORDS, decoded_words, header_text, mailbox_of

TEXT_MAX = 250  # characters of a subject
NAME_MAX = 100  # characters of a display name
ID_MAX = 250  # characters of one message id
REFERENCES_MAX = 20  # ids in References: the thread's first and its latest
READ_MAX = 998  # characters of a received header read as text (RFC 5322's line limit)

# C0 and C1 controls, DEL, line and paragraph separators, lone surrogates (undecodable bytes)
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_ADDRESS = re.compile(r'[^\s\x00-\x1f\x7f-\x9f"(),:;<>@\[\\\]\ud800-\udfff]+'
                      r'@[^\s\x00-\x1f\x7f-\x9f"(),:;<>@\[\\\]\ud800-\udfff]+')
_ID = re.compile(r"[!-;=?-~]+")  # printable ASCII but "<" and ">"
NOBODY = "undisclosed-recipients:;"  # RFC 5322's empty group: a valid header that names no one

VERBATIM = policy.default.clone(refold_source="none")
QUOTED = frozenset('()<>@,:;."[]\\')  # a display name with one of these is written as a quoted string
FOLD_AT = policy.default.max_line_length or 78  # a longer header line is folded


class _KeptClasses(HeaderRegistry):
    """The email package's header classes, each made once: its ``HeaderRegistry`` makes a new
    class with ``type()`` for every header set (a tenth of composing an answer)."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type[BaseHeader]] = {}
        self._kinds: dict[str, type | None] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        made = self._made.get(name.lower())
        if made is None:
            made = self._made[name.lower()] = super().__getitem__(name)
        return made

    def kind(self, name: str) -> type | None:
        """Which of ``PLAIN``'s kinds the header ``name`` is (``_kind``), found once a name."""
        key = name.lower()
        if key not in self._kinds:
            self._kinds[key] = _kind_of(self[name])
        return self._kinds[key]


class _ParsedOnce(_KeptClasses):
    """``_KeptClasses`` that also parses each (name, value) once: a header object is never changed
    once made (a str, its parse kept in read-only attributes), so a value read again can be the
    object made at its first read. Reading a digest's messages, writing them into its MIME parts,
    parsing it again and writing it out read the same few Content-Type values thousands of times."""

    def __init__(self) -> None:
        super().__init__()
        self._parsed: dict[tuple[str, str], BaseHeader] = {}

    def __call__(self, name: str, value: object) -> BaseHeader:
        if type(value) is not str:  # (an Address, a datetime, ...: made anew, as the package does)
            return super().__call__(name, value)  # type: ignore[no-any-return]
        made = self._parsed.get((name, value))
        if made is None:
            made = self._parsed[name, value] = super().__call__(name, value)
        return made


def verbatim() -> EmailPolicy[EmailMessage]:
    """``VERBATIM`` whose header values are each parsed once for as long as it is used: the one
    policy of one digest's messages (it keeps what it parsed, so it is made for each digest and
    dropped with it, never kept)."""
    return VERBATIM.clone(header_factory=_ParsedOnce())


def composing_policy() -> EmailPolicy[EmailMessage]:
    """``policy.default`` keeping its header classes: one for each game's ``ListSettings``."""
    return policy.default.clone(header_factory=_KeptClasses())


# Plain values: the email package writes each of them as it is given ("Name: value" on one line),
# so a composer stores it as that line (``put``) instead of parsing it into a header object that
# folds back to the same text (tests/outbox/test_plain_headers.py holds the two to the same bytes).
_SPEC = re.compile(SPEC)
PLAIN: dict[type, re.Pattern[str]] = {
    UnstructuredHeader: re.compile(r"[!-~]+(?: [!-~]+)*"),
    AddressHeader: re.compile(f"{SPEC}|{WORDS} <{SPEC}>"),
    MessageIDHeader: re.compile(f"<{SPEC}>"),
}


def _kind(mail: Message, name: str) -> type | None:
    """Which of ``PLAIN``'s kinds of header ``name`` is in ``mail``'s policy, if any."""
    factory = getattr(mail.policy, "header_factory", None)
    if factory is None:
        return None
    return factory.kind(name) if isinstance(factory, _KeptClasses) else _kind_of(factory[name])


def _kind_of(made: type) -> type | None:
    return next((kind for kind in PLAIN if issubclass(made, kind)), None)


def plain(mail: Message, name: str, value: str) -> bool:
    """Is ``value`` written by ``mail``'s policy exactly as given, on one line?"""
    kind = _kind(mail, name)
    return (kind is not None and len(name) + 2 + len(value) <= FOLD_AT and "=?" not in value
            and PLAIN[kind].fullmatch(value) is not None)


def put(mail: EmailMessage, name: str, value: str) -> None:
    """``mail[name] = value``; a ``plain`` value is stored as its line, unparsed."""
    if plain(mail, name, value):
        mail.set_raw(name, value)
    else:
        mail[name] = value


def put_date(mail: EmailMessage, at: datetime) -> None:
    """``mail["Date"] = format_datetime(at in UTC)``: the line the package would write, as it is
    (formatted as ``format_datetime`` formats it, its zone "+0000" given: its ``strftime("%z")`` was
    half of its cost)."""
    value = _format_timetuple_and_zone(at.astimezone(timezone.utc).timetuple(), "+0000")
    if at.year >= 1000:  # (the package reads a shorter year as two digits)
        mail.set_raw("Date", value)
    else:
        mail["Date"] = value


def as_bytes(mail: Message) -> bytes:
    """``bytes(mail)``. A single part whose body is ASCII is written here (``written_here``): its
    header lines as the generator folds them, a blank line, its body as it is (what the generator
    writes for it, with none of its dispatching); any other mail by the generator."""
    if not written_here(mail):
        return bytes(mail)
    return b"".join(lines(mail)) + b"\n" + plain_text.stored_payload(mail).encode("ascii")  # type: ignore[attr-defined]


def written_here(mail: Message) -> bool:
    """Does ``as_bytes`` write ``mail`` itself (one part, its body ASCII text without CR, its policy's
    line separator "\\n")? Then its bytes are ``lines(mail)``, a blank line and its body."""
    payload = plain_text.stored_payload(mail)
    return isinstance(payload, str) and payload.isascii() and "\r" not in payload and mail.policy.linesep == "\n"


def lines(mail: Message) -> list[bytes]:
    """Each header of ``mail`` as ``as_bytes`` writes it (folded by its policy), in order."""
    pol = mail.policy
    limit = _as_stored(pol)
    return [_folded(pol, name, value, limit) for name, value in mail.raw_items()]


_BREAKS = re.compile("[\n\r\x0b\x0c\x1c-\x1e]")  # the ASCII characters ``str.splitlines`` breaks at


def _as_stored(pol: Policy) -> int:
    """How long a line ``pol`` writes as it is stored may be: any, if it refolds no source; up to its
    line length, if it refolds long lines; none (-1) otherwise (or if it is no ``EmailPolicy``)."""
    if not isinstance(pol, EmailPolicy) or pol.refold_source not in ("none", "long"):
        return -1
    return sys.maxsize if pol.refold_source == "none" else pol.max_line_length or sys.maxsize


def _folded(pol: Policy, name: str, value: str, limit: int) -> bytes:
    """``pol.fold_binary(name, value)`` (``pol``'s linesep "\n"; ``limit``: ``_as_stored(pol)``). A value
    stored as its line, ASCII and on one line, that ``EmailPolicy`` leaves as it is (it fits, or the
    policy refolds no source) is that line: the policy's own test, without its splitting and joining."""
    if (type(value) is str and len(name) + 2 + len(value) <= limit and value.isascii() and name.isascii()
            and _BREAKS.search(value) is None):
        return f"{name}: {value}\n".encode("ascii")
    return pol.fold_binary(name, value)


def text(value: str, limit: int = TEXT_MAX) -> str:
    """``value`` as one safe header line: controls and line breaks become spaces, runs of
    white space one space, "=?" and "?=" get a space so no encoded word can begin or end (CPython's
    folder writes broken encoded words beside them); at most ``limit`` characters (a cut one ends
    with "…")."""
    clean = " ".join(_UNSAFE.sub(" ", value).replace("=?", "= ?").replace("?=", "? =").split())
    return clean if len(clean) <= limit else clean[:limit - 1].rstrip() + "…"


def name(value: str) -> str:
    """A display name, as text."""
    return text(value, NAME_MAX)


def mailbox(display_name: str, address: str) -> Address:
    """A From value. Not ``formataddr``: the encoded word it makes of a name that is not ASCII
    is decoded and parsed again when set, so a ":" or "<" in the name could change the address.

    A name that needs quoting (``QUOTED``: "J. Smith", "Doe, John") is kept whole only when the
    From line fits unfolded: CPython 3.11's folder drops the quotes of a display name it splits
    over two lines, and a name with "<" or "," then reads as other addresses. A longer one loses
    those characters instead (tests/outbox/test_hostile_headers.py).
    """
    box = _address(display_name, address)
    if QUOTED.isdisjoint(display_name) or len(f"From: {box}") <= FOLD_AT:
        return box
    return _address(" ".join("".join(" " if c in QUOTED else c for c in display_name).split()), address)


def _address(display_name: str, address: str) -> Address:
    """``Address(display_name, addr_spec=address)``; a plain address (atoms@domain) is given as the
    parts parsing it gives, and not parsed (a list copy's From: a third of making the copy's From)."""
    if _SPEC.fullmatch(address) is None:
        return Address(display_name=display_name, addr_spec=address)
    local, _, domain = address.rpartition("@")
    return Address(display_name=display_name, username=local, domain=domain)


def put_mailbox(mail: EmailMessage, name: str, box: Address) -> None:
    """``mail[name] = box``; a ``plain`` one (a name of atoms, "Bob via Game <list@game>") stored as its line."""
    if plain(mail, name, str(box)):
        mail.set_raw(name, str(box))
    else:
        mail[name] = box


def put_address(mail: EmailMessage, header: str, value: str) -> None:
    """Write an address header (To, Reply-To). An address that cannot be written safely names
    nobody (``NOBODY``; the envelope still carries it and the relay decides); one that is not
    ASCII makes the mail's headers RFC 6532 UTF-8, as RFC 2047 cannot carry it (the sender
    then asks the relay for SMTPUTF8)."""
    if _ADDRESS.fullmatch(value) is None or "=?" in value:
        value = NOBODY
    elif not value.isascii():
        mail.policy = mail.policy.clone(utf8=True)  # type: ignore[call-arg]  # EmailPolicy's own field
    put(mail, header, value)


def ids(values: Iterable[str]) -> str:
    """``<a> <b>`` of the message ids that can be written safely (others are left out);
    at most ``REFERENCES_MAX``, keeping the first and the latest (RFC 5322 3.6.4)."""
    kept = [v for v in values if len(v) <= ID_MAX and _ID.fullmatch(v) and "=?" not in v]
    if len(kept) > REFERENCES_MAX:
        kept = kept[:1] + kept[-(REFERENCES_MAX - 1):]
    return " ".join(f"<{v}>" for v in kept)


def read(mail: Message, header: str) -> str:
    """A received header as safe text ("" when absent)."""
    kept = stored(mail, header)
    if isinstance(kept, str) and not isinstance(kept, BaseHeader) and _kind(mail, header) in (
            UnstructuredHeader, MessageIDHeader) and plain(mail, header, kept) and "?=" not in kept:
        return kept  # what parsing it would give (and ``text`` leave as it is)
    try:
        value = mail.get(header)
    except Exception:  # the package raises ValueError, or worse, on hostile values
        value = decoded_words(header_text(mail, header))
    return "" if value is None else text(str(value), READ_MAX)


def stored(mail: Message, name: str) -> object:
    """The first ``name`` header as stored (a header object, or a line as received or ``put``)."""
    wanted = name.lower()
    for key, value in mail.raw_items():
        if key.lower() == wanted:
            return value
    return None


def author(mail: Message) -> tuple[str, str]:
    """The From's display name (safe text) and address. The address is parsed before the name's
    encoded words are decoded: decoded, a name may hold anything, ":" and "<" included."""
    display_name, address = mailbox_of(header_text(mail, "From"))
    return name(decoded_words(display_name)), address
