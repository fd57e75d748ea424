"""A game's inbox: where its mail comes in, whichever way it came (SMTP and LMTP, IMAP, the web forms,
``nomic ingest``).

The inbox owns what intake needs and nothing of the fold: the journal it appends to, the ``[auth]``
and ``[offices]`` settings it judges senders by, the addresses it owns, and the game's clock floor
(``stamp``: no entry is stamped earlier than the last clock step). A message is parsed here only as
far as authentication needs (its header section, ``mailer.message.parse_head``); reading it into
commands is the fold's business, once. The application makes one per game (nomic.game.Game.inbox);
the mailer's intake takes it, and never the game.
"""
from __future__ import annotations

import hashlib
import json.encoder
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import storage
from mailer.auth import Verdict, authenticate
from mailer.message import ParsedMail, journal_key, parse_head
from mailer.ports import Arrival, Receipt
from storage import Duplicate
from storage.settings.common import AuthSection

log = logging.getLogger("nomic")


@dataclass(frozen=True)
class Addresses:
    """The addresses a game owns: ``game.address``, ``game.list_address`` and its VERP bounce
    addresses ``<bounce_prefix>`` and ``<bounce_prefix>+...`` at the game's domain."""
    address: str
    list_address: str
    bounce_prefix: str

    @classmethod
    def of(cls, address: str, list_address: str, bounce_prefix: str) -> "Addresses":
        """The addresses as game.toml spells them (compared without case)."""
        return cls(address.lower(), list_address.lower(), bounce_prefix.lower())

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2]

    def owns(self, address: str) -> bool:
        addr = address.lower()
        local, _, domain = addr.rpartition("@")
        if addr in (self.address, self.list_address):
            return True
        prefix = self.bounce_prefix
        return bool(prefix) and domain == self.domain and (local == prefix or local.startswith(prefix + "+"))

    def examples(self) -> list[str]:
        """One address of each kind it owns (what ``clash`` tries against another game)."""
        bounce = [f"{self.bounce_prefix}@{self.domain}"] if self.bounce_prefix else []
        return [self.address, self.list_address, *bounce]

    def clash(self, other: "Addresses") -> str | None:
        """An address both own, or None."""
        return next((a for a in self.examples() if other.owns(a)), None) or \
            next((a for a in other.examples() if self.owns(a)), None)


class Inbox:
    """One game's way in: ``prepare`` (parse the head and authenticate; no database), then
    ``receive_many`` (journal, one transaction). ``owned``: the game's address and list address as
    game.toml spells them (what the authentication checks To and Cc against)."""

    def __init__(self, journal: storage.Journal, auth: AuthSection, offices: dict, owned: tuple[str, str],
                 addresses: Addresses, stamp: Callable[[datetime], datetime]):
        self.journal = journal
        self.auth = auth
        self.offices = offices
        self.owned = owned
        self.addresses = addresses
        self.stamp = stamp

    def receive(self, raw: bytes, at: datetime, source: str = "cli",
                mail_from: str | None = None, rcpt_to: list[str] | None = None,
                extra: dict | None = None) -> Receipt:
        """Journal one message durably (``admit``: even one that cannot be read). Returns once it is committed."""
        return self.receive_many([self.admit(raw, at, source, mail_from, rcpt_to, extra)])[0]

    def admit(self, raw: bytes, at: datetime, source: str = "cli", mail_from: str | None = None,
              rcpt_to: list[str] | None = None, extra: dict | None = None) -> Arrival:
        """``prepare``, for intake that has no one to refuse a message to (``nomic poll``, ``nomic ingest``).

        A message ``prepare`` cannot read is journaled all the same, keyed by its bytes and not
        authenticated; its fold then records it as a fault. So no message stops them, and none is lost.
        """
        try:
            return self.prepare(raw, at, source, mail_from, rcpt_to, extra)
        except Exception as exc:
            log.warning("a message could not be read (%s: %s); journaled, to be recorded as a fault",
                        type(exc).__name__, exc)
            auth = {"authenticated": False, "method": "unreadable", "detail": f"{type(exc).__name__}: {exc}"[:1000]}
            meta = {"source": source, "mail_from": mail_from, "rcpt_to": rcpt_to, "auth": auth, **(extra or {})}
            return Arrival("sha256:" + hashlib.sha256(raw).hexdigest(), raw, at, meta)

    def prepare(self, raw: bytes, at: datetime, source: str = "cli", mail_from: str | None = None,
                rcpt_to: list[str] | None = None, extra: dict | None = None) -> Arrival:
        """Parse and authenticate one message (no database): the journal entry to be.

        ``extra`` adds to the journal meta (e.g. the IMAP UIDVALIDITY and UID). Raises
        ``mailer.message.Unreadable`` for a message that cannot be read at all (the sender's fault).
        """
        head = parse_head(raw)
        try:
            verdict = self._authenticate(raw, head)
        except Exception as exc:  # journal it anyway (nothing is lost); it changes nothing
            log.exception("a message could not be read; journaled as not authenticated")
            verdict = Verdict(False, "unreadable", f"{type(exc).__name__}: {exc}")
        meta = {"source": source, "mail_from": mail_from, "rcpt_to": rcpt_to,
                "auth": {"authenticated": verdict.authenticated, "method": verdict.method,
                         "detail": verdict.detail}, **(extra or {})}
        return Arrival(journal_key(raw, head, verdict.authenticated), raw, at, meta)

    def _authenticate(self, raw: bytes, head: ParsedMail) -> Verdict:
        if head.cut:  # its header section alone would cost more than any mail may (mailer.message)
            log.warning("a message's header section is too long to read; journaled as not authenticated")
            return Verdict(False, "unread", head.cut)
        return authenticate(raw, head, self.auth, self.offices, self.owned)

    def receive_many(self, arrivals: list[Arrival]) -> list[Receipt]:
        """Journal several prepared messages in ONE transaction (group commit).

        Duplicates (already journaled, or twice in the batch) are reported, not
        stored. Raises if the database cannot be written; then nothing is stored.
        A message received before the last clock step's time is stamped with that time
        (its meta keeps ``received_at``): the game's clock never runs backward.
        """
        items: list[storage.Item] = [self._stamped(a) for a in arrivals]
        results = self.journal.append(items)
        return [Receipt("duplicate", r.seq, a.key) if isinstance(r, Duplicate) else Receipt("new", r, a.key)
                for a, r in zip(arrivals, results)]

    def _stamped(self, a: Arrival) -> storage.Item:
        at = self.stamp(a.at)
        meta = a.meta if at == a.at else {**a.meta, "received_at": storage.iso(a.at)}
        return ("mail", at, a.key, a.raw, meta_json(meta))


_STRING = json.encoder.encode_basestring_ascii  # a str as that encoder writes it
_MAIL = frozenset(("auth", "mail_from", "rcpt_to", "source"))  # the keys of the meta ``prepare`` makes
_STAMPED = _MAIL | {"received_at"}  # and of one ``_stamped`` moved to the clock's floor
_VERDICT = frozenset(("authenticated", "detail", "method"))


def meta_json(meta: dict) -> dict | str:
    """A mail's meta as ``prepare`` makes it (strings, a bool, a list of strings) written as the journal
    writes a meta (storage.journal: sorted keys, no spaces), byte for byte, for its text is hashed into
    the chain: by a template, 10,000 instructions against the encoder's 32,000 (callgrind; an append
    of one message, ``receive_many``, 224,000 against 237,000). Any other meta is returned as it is,
    for the journal to write (tests/mailer/test_meta_json.py holds the two to the same text)."""
    shape = meta.keys()
    if shape != _MAIL and shape != _STAMPED:
        return meta
    auth, source, sender, rcpts = meta["auth"], meta["source"], meta["mail_from"], meta["rcpt_to"]
    stamp = meta.get("received_at", "")
    if not (type(auth) is dict and auth.keys() == _VERDICT and type(auth["authenticated"]) is bool
            and type(auth["detail"]) is str and type(auth["method"]) is str and type(source) is str
            and (sender is None or type(sender) is str) and type(stamp) is str
            and (rcpts is None or type(rcpts) is list and all(type(r) is str for r in rcpts))):
        return meta
    return "".join((
        '{"auth":{"authenticated":', "true" if auth["authenticated"] else "false",
        ',"detail":', _STRING(auth["detail"]), ',"method":', _STRING(auth["method"]),
        '},"mail_from":', "null" if sender is None else _STRING(sender),
        ',"rcpt_to":', "null" if rcpts is None else "[" + ",".join(map(_STRING, rcpts)) + "]",
        ',"received_at":' + _STRING(stamp) if "received_at" in meta else "",
        ',"source":', _STRING(source), "}"))
