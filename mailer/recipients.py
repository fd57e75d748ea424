"""Recipients shared by many mails: a list's members, made once a batch and stored once.

Every announcement and list copy goes to the same members while they stand (``Members``, kept
by the processor's batch). Carried in each outbox row, they were deduplicated, written as JSON
and stored again for every mail: work that grew with the list, per entry. A ``Recipients`` makes
its JSON and digest once; the outbox stores them once (``recipient_set``, under the digest) and
each row names them. The sender expands a row from its set (mailer/outbox.py).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from typing import overload

from sqlalchemy import text
from sqlalchemy.engine import Connection

# Portable: SQLite (3.24 and later) and PostgreSQL both read ON CONFLICT ... DO NOTHING.
_STORE = text("INSERT INTO recipient_set (digest, recipients) VALUES (:digest, :recipients)"
              " ON CONFLICT (digest) DO NOTHING")


class Recipients(Sequence[str]):
    """A sequence of addresses as given (a ``Members`` list); as stored, the addresses lower-cased,
    empty ones dropped, each once in its first place (``addresses``), the way every outbox row's
    recipients are. Membership (``in``) and ``without`` read the addresses as given."""

    def __init__(self, given: Iterable[str]):
        self._given = list(given)
        self._without: dict[tuple[str, ...], Recipients] = {}

    @classmethod
    def of(cls, given: Iterable[str]) -> Recipients:
        return given if isinstance(given, Recipients) else cls(given)

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...

    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        return self._given[i]

    def __len__(self) -> int:
        return len(self._given)

    def __iter__(self) -> Iterator[str]:
        return iter(self._given)

    def __contains__(self, address: object) -> bool:
        return address in self._set

    def __eq__(self, other: object) -> bool:
        return self._given == list(other) if isinstance(other, (list, Recipients)) else NotImplemented

    @cached_property
    def _set(self) -> frozenset[str]:
        return frozenset(self._given)

    @cached_property
    def addresses(self) -> list[str]:
        return list(dict.fromkeys(r.lower() for r in self._given if r))

    @cached_property
    def json(self) -> str:
        return json.dumps(self.addresses)

    @cached_property
    def digest(self) -> str:
        return hashlib.sha256(self.json.encode()).hexdigest()

    def without(self, *excluded: str) -> Recipients:
        """These less ``excluded`` (compared as given): itself when none of them is here, else
        made once for each ``excluded`` (an announcement leaves out its officers)."""
        if not any(e in self for e in excluded):
            return self
        made = self._without.get(excluded)
        if made is None:
            made = self._without[excluded] = Recipients(a for a in self._given if a not in excluded)
        return made


def store(conn: Connection, sets: list[Recipients]) -> None:
    """Store ``sets`` (one statement); a set stored already is left as it is."""
    if sets:
        conn.execute(_STORE, [{"digest": s.digest, "recipients": s.json} for s in sets])
