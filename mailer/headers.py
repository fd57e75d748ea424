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
from collections.abc import Iterable
from email import policy
from email.headerregistry import Address, BaseHeader, HeaderRegistry
from email.message import EmailMessage, Message
from email.policy import EmailPolicy
from email.utils import parseaddr

from mailer.message import decoded_words, header_text

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

    def __getitem__(self, name: str) -> type[BaseHeader]:
        made = self._made.get(name.lower())
        if made is None:
            made = self._made[name.lower()] = super().__getitem__(name)
        return made


def composing_policy() -> EmailPolicy[EmailMessage]:
    """``policy.default`` keeping its header classes: one for each game's ``ListSettings``."""
    return policy.default.clone(header_factory=_KeptClasses())


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
    box = Address(display_name=display_name, addr_spec=address)
    if QUOTED.isdisjoint(display_name) or len(f"From: {box}") <= FOLD_AT:
        return box
    return Address(display_name=" ".join("".join(" " if c in QUOTED else c for c in display_name).split()),
                   addr_spec=address)


def put_address(mail: EmailMessage, header: str, value: str) -> None:
    """Write an address header (To, Reply-To). An address that cannot be written safely names
    nobody (``NOBODY``; the envelope still carries it and the relay decides); one that is not
    ASCII makes the mail's headers RFC 6532 UTF-8, as RFC 2047 cannot carry it (the sender
    then asks the relay for SMTPUTF8)."""
    if _ADDRESS.fullmatch(value) is None or "=?" in value:
        value = NOBODY
    elif not value.isascii():
        mail.policy = mail.policy.clone(utf8=True)  # type: ignore[call-arg]  # EmailPolicy's own field
    mail[header] = value


def ids(values: Iterable[str]) -> str:
    """``<a> <b>`` of the message ids that can be written safely (others are left out);
    at most ``REFERENCES_MAX``, keeping the first and the latest (RFC 5322 3.6.4)."""
    kept = [v for v in values if len(v) <= ID_MAX and _ID.fullmatch(v) and "=?" not in v]
    if len(kept) > REFERENCES_MAX:
        kept = kept[:1] + kept[-(REFERENCES_MAX - 1):]
    return " ".join(f"<{v}>" for v in kept)


def read(mail: Message, header: str) -> str:
    """A received header as safe text ("" when absent)."""
    try:
        value = mail.get(header)
    except Exception:  # the package raises ValueError, or worse, on hostile values
        value = decoded_words(header_text(mail, header))
    return "" if value is None else text(str(value), READ_MAX)


def author(mail: Message) -> tuple[str, str]:
    """The From's display name (safe text) and address. The address is parsed before the name's
    encoded words are decoded: decoded, a name may hold anything, ":" and "<" included."""
    display_name, address = parseaddr(header_text(mail, "From"))
    return name(decoded_words(display_name)), address
