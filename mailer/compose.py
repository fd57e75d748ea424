"""Building the machine mail every composer sends: headers first, a Jinja-rendered body.

Every value that may hold what a player wrote goes through mailer/headers.py.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime
from email.message import EmailMessage
from urllib.parse import quote

from mailer import headers, outbox, plain_text
from mailer.concerned import copies
from mailer.listconfig import ListSettings
from mailer.recipients import Recipients

SCRIBE_NAME = "The Humble Scribe"
# Pages of the built site that mail links to (nomic/website/generators.py, archive.py)
HOW_TO_PLAY = "how-to-play.html"
SUBSCRIBE = "list/index.html#join"  # the subscribe form on the list archive's page (a file: any static host has it)
SURROGATE = re.compile("[\ud800-\udfff]")


def message_id(ls: ListSettings, kind: str, seq: int, hash_: str, sub: int | None = None) -> str:
    """``<sub{N}.{kind}.{seq}.{hash}@{domain}>`` for mail about submission N, else without ``sub``."""
    head = f"sub{sub}." if sub is not None else ""
    return f"<{head}{kind}.{seq}.{hash_[:16]}@{ls.domain}>"


def body(template: str, ls: ListSettings, **context) -> str:
    """A mail template rendered by the game's renderer (its ruleset's templates first) with the list's
    settings and the site's links (none without a site_url).

    A lone surrogate (an undecodable byte of a received header, in a title) becomes U+FFFD:
    it cannot be written as UTF-8, and setting the content would raise."""
    links = {"how_to_play": ls.url(HOW_TO_PLAY), "subscribe": ls.url(SUBSCRIBE)} if ls.site_url else {}
    text = ls.renderer.render(template, ls=ls, links=links, **context)
    return text if text.isascii() else SURROGATE.sub("\ufffd", text)  # (the regex tries every character: ~7 us a KB)


def machine_mail(ls: ListSettings, *, to: str, subject: str, at: datetime, msgid: str,
                 template: str, auto: str = "auto-generated", **context) -> EmailMessage:
    """A mail from THS, never to be answered automatically (RFC 3834: ``auto``)."""
    mail = EmailMessage(policy=ls.policy)
    ls.put_mailbox(mail, "From", SCRIBE_NAME, ls.address)
    headers.put_address(mail, "To", to)
    headers.put(mail, "Subject", headers.text(subject))
    headers.put_date(mail, at)
    headers.put(mail, "Message-ID", msgid)
    ls.put(mail, "Auto-Submitted", auto)
    plain_text.set_text(mail, body(template, ls, **context))
    return mail


class Prepared:
    """One announcement's mail, whose copies differ in their To alone, made and written once: the
    first copy is made (``make`` to the list's address) and written (``headers.lines``), and each
    copy is those bytes with its own To line, and the list's copy (``listed``) with the list's
    headers too: no mail made, parsed or written again for a copy. A copy to an address that is not
    ASCII, or of a mail ``headers.as_bytes`` does not write itself (a body that is not ASCII), is
    made by ``make`` itself."""

    def __init__(self, ls: ListSettings, make: Callable[[str], EmailMessage]) -> None:
        self.ls, self.make = ls, make
        self._written: tuple[bytes, bytes, bytes, str, str] | None = None  # before To, after To, body, Subject, id
        self._first = False  # the first copy is made

    def __call__(self, to: str) -> outbox.Mail:
        """The copy to ``to``."""
        return self._copy(to, listed=False)

    def listed(self) -> outbox.Mail:
        """The list's copy: to the list's address, with the list's headers (``list_headers``)."""
        return self._copy(self.ls.list_address, listed=True)

    def _copy(self, to: str, listed: bool) -> outbox.Mail:
        written = self._write()
        if listed:  # (its To and the list's headers are made of the game's settings alone: written once a game)
            to_line = self.ls.written("list to", lambda: _to_line(self.ls, to))
            added = self.ls.written("list", lambda: _lines(self.ls, lambda mail: list_headers(mail, self.ls)))
        else:
            to_line, added = _to_line(self.ls, to), b""
        if written is None or to_line is None or added is None:
            mail = self.make(to)
            if listed:
                list_headers(mail, self.ls)
            return mail
        before, after, content, subject, msgid = written
        return outbox.Composed(before + to_line + after + added + content, subject, msgid)

    def _write(self) -> tuple[bytes, bytes, bytes, str, str] | None:
        if not self._first:
            self._first = True
            first = self.make(self.ls.list_address)
            tos = [i for i, (k, _) in enumerate(first.raw_items()) if k.lower() == "to"]
            if first.policy == self.ls.policy and len(tos) == 1 and headers.written_here(first):
                written = headers.lines(first)
                self._written = (b"".join(written[:tos[0]]), b"".join(written[tos[0] + 1:]),
                                 b"\n" + plain_text.stored_payload(first).encode("ascii"),  # type: ignore[attr-defined]
                                 headers.read(first, "Subject"), headers.read(first, "Message-ID"))
        return self._written


def _to_line(ls: ListSettings, to: str) -> bytes | None:
    return _lines(ls, lambda mail: headers.put_address(mail, "To", to))


def _lines(ls: ListSettings, put: Callable[[EmailMessage], None]) -> bytes | None:
    """The header lines ``put`` sets, as a mail of the game's policy writes them; None if setting
    them changed the policy (an address that is not ASCII: RFC 6532's UTF-8 headers, which
    ``make`` writes)."""
    mail = EmailMessage(policy=ls.policy)
    put(mail)
    return b"".join(headers.lines(mail)) if mail.policy is ls.policy else None


def thread(mail: EmailMessage, parent: str, earlier: list[str] | None = None, reply: bool = True) -> None:
    """References (``earlier`` ids, then ``parent``) and, for a ``reply``, In-Reply-To ``parent``,
    from received ids: an id that cannot be written safely is left out."""
    in_reply_to, refs = headers.ids([parent]), headers.ids([*(earlier or []), parent])
    if reply and in_reply_to:
        headers.put(mail, "In-Reply-To", in_reply_to)
    if refs:
        headers.put(mail, "References", refs)


def list_headers(mail: EmailMessage, ls: ListSettings) -> None:
    """RFC 2369 and 2919 headers shared by every copy (the per-recipient unsubscribe is added when sending)."""
    values = {"List-Id": ls.list_id_header, "List-Post": f"<mailto:{ls.list_address}>",
              "List-Help": f"<mailto:{ls.address}?subject=help>",
              "List-Subscribe": f"<mailto:{ls.address}?subject=subscribe>" + (
                  f", <{ls.url(SUBSCRIBE)}>" if ls.site_url else ""),
              "List-Archive": f"<{ls.archive_url}>" if ls.site_url else "",
              "Precedence": "list", "X-Loop": ls.list_address}
    for name, value in values.items():
        if value:
            ls.put(mail, name, value)


def mailto(address: str, subject: str, body: str) -> str:
    """A mailto link (RFC 6068) that prefills a reply: every character of what a player wrote is escaped."""
    return f"mailto:{address}?subject={quote(subject, safe='')}&body={quote(body, safe='')}"


def announce(session, ls: ListSettings, seq: int, at: datetime, make: Callable[[str], EmailMessage],
             members: Iterable[str], officers: Iterable[str] = (), kind: str = "announcement",
             concerned: Iterable[str] = ()) -> None:
    """THS announces to the list: ``make(to)`` builds a copy. Each officer gets their own copy (kind
    ``officer``: not list traffic, no list headers, no unsubscribe link that could not work); the
    per-message ``members`` get the list copy, the officers left out of it; and each of ``concerned``
    (the author, whoever must act) whom neither reaches gets a copy of their own (mailer/concerned.py)."""
    copy = Prepared(ls, make)
    held = [o for o in dict.fromkeys(officers) if o and o != ls.address]  # an officer at THS's address would mail THS
    for officer in held:
        outbox.queue(session, seq, "officer", copy(officer), [officer], ls.address, at)
    to = Recipients.of(members).without(*held)
    outbox.queue(session, seq, kind, copy.listed(), to, ls.address, at, personal=True)
    copies(session, ls, seq, at, copy, concerned, to, held)
