"""The game's public mail, as the list distributed it: list posts and the game's own list mail.

Read from the outbox (each row's bytes are what every member got, before the per-recipient
unsubscribe headers) by the site's source (nomic/site.py), with the headers that name the way a
message travelled or who signed it taken out (``without_private``), so an archived copy never shows
an IP address, a Received line or a signature. Outbox rows are only added to, so a rebuild reads
only the rows after the last one it read.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import quote

LIST, GAME = "list", "game"  # the list's posts; the game's own mail to the list
KINDS = {"list": LIST, "announcement": GAME, "chime": GAME, "daily": GAME}
PRIVATE = re.compile(rb"^(received|received-spf|return-path|delivered-to|dkim-signature|arc-[\w-]+|"
                     rb"authentication-results|x-originating-ip|x-sender-ip|x-forwarded-for|x-real-ip|"
                     rb"x-envelope-[\w-]+|bcc|x-original-to)\s*:", re.I)
_SAFE = "@-_+=~!$."  # besides letters and digits, what a Message-ID keeps in its path


@dataclass(frozen=True)
class PublicMail:
    id: int  # its outbox row
    kind: str  # LIST or GAME
    at: datetime
    message_id: str  # without the angle brackets
    subject: str
    name: str  # the From display name (a list copy's "Name via Game")
    references: list[str]
    text: str
    raw: bytes  # as distributed, less the PRIVATE headers


def without_private(raw: bytes) -> bytes:
    """``raw`` with every PRIVATE header field (and its continuation lines) taken out of its header."""
    lines = raw.splitlines(keepends=True)
    kept: list[bytes] = []
    dropping = False
    for i, line in enumerate(lines):
        if line in (b"\r\n", b"\n"):  # the end of the header: the body as it is
            return b"".join(kept) + b"".join(lines[i:])
        if line[:1] not in (b" ", b"\t"):
            dropping = bool(PRIVATE.match(line))
        if not dropping:
            kept.append(line)
    return b"".join(kept)


def path_of(message_id: str) -> str:
    """The folder of a message's page, ``m/<id>`` with the id percent-encoded (never ``/``, ``..``
    or a name too long for a file system; such an id gets its SHA-256 instead)."""
    name = quote(message_id, safe=_SAFE)
    if not name or name.startswith(".") or len(name) > 150:
        name = "h-" + hashlib.sha256(message_id.encode()).hexdigest()[:40]
    return f"m/{name}"


def href_of(message_id: str) -> str:
    """A link to the page of ``message_id`` from the site's root (its folder's ``%`` encoded again)."""
    return quote(path_of(message_id), safe="/" + _SAFE) + "/index.html"
