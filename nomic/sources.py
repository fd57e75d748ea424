"""Reading mail for ``nomic ingest``: an .eml file, a Maildir, an mbox, or '-' for stdin."""
from __future__ import annotations

import mailbox
import re
import sys
from collections.abc import Iterator
from pathlib import Path


class SourceError(Exception):
    pass


# A header field's first line ("Name: value", RFC 5322 2.2) and a continuation line.
_FIELD = re.compile(rb"[!-9;-~]+[ \t]*:")
_FOLD = re.compile(rb"[ \t]")
# The fields that make a header section a mail's: who sent it, or its identity.
_MAIL_FIELDS = frozenset((b"from", b"message-id"))


def check_mail(label: str, raw: bytes) -> None:
    """Raise ``SourceError`` unless ``raw`` looks like a mail message.

    The journal keeps every entry for good, so ``nomic ingest`` refuses what is
    plainly not mail (a README, a program, nothing at all) before journaling
    anything: no NUL bytes, and a header section that opens the input and has a
    From or a Message-ID field.
    """
    if not raw.strip():
        raise SourceError(f"{label}: empty, not a mail message")
    if b"\0" in raw:
        raise SourceError(f"{label}: binary data, not a mail message")
    if not _MAIL_FIELDS & set(_header_names(raw)):
        raise SourceError(f"{label}: not a mail message (no header section with a From or Message-ID field)")


def _header_names(raw: bytes) -> Iterator[bytes]:
    """The lower-cased names of the header fields that open ``raw``, up to its first other line."""
    for line in raw.splitlines():
        if _FOLD.match(line):
            continue
        field = _FIELD.match(line)
        if field is None:
            return
        yield field.group().rstrip(b": \t").lower()


def read_messages(spec: str) -> Iterator[tuple[str, bytes]]:
    """(label, raw bytes) for every message at ``spec``, in order."""
    if spec == "-":
        yield "<stdin>", sys.stdin.buffer.read()
        return
    path = Path(spec)
    if path.is_dir():
        if not all((path / d).is_dir() for d in ("cur", "new")):
            raise SourceError(f"{spec}: a directory, but not a Maildir (no cur/ and new/)")
        box = mailbox.Maildir(path, factory=None, create=False)
        for key in sorted(box.iterkeys(), key=lambda k: _maildir_order(box, k)):
            yield f"{spec}:{key}", box.get_bytes(key)
        return
    try:
        head = path.read_bytes()[:5]
    except OSError as exc:
        raise SourceError(f"{spec}: {exc.strerror or exc}") from None
    if head == b"From ":
        mbox = mailbox.mbox(path, create=False)
        for i, key in enumerate(mbox.iterkeys()):
            yield f"{spec}:{i + 1}", mbox.get_bytes(key, from_=False)
        return
    yield spec, path.read_bytes()


def _maildir_order(box: mailbox.Maildir, key: str) -> tuple[float, str]:
    """Maildir has no order; delivery time (the name's leading timestamp) then name."""
    try:
        return float(key.split(".")[0]), key
    except ValueError:
        return 0.0, key
