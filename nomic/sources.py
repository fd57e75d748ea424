"""Reading mail for ``nomic ingest``: an .eml file, a Maildir, an mbox, or '-' for stdin."""
from __future__ import annotations

import mailbox
import sys
from collections.abc import Iterator
from pathlib import Path


class SourceError(Exception):
    pass


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
        box = mailbox.mbox(path, create=False)
        for i, key in enumerate(box.iterkeys()):
            yield f"{spec}:{i + 1}", box.get_bytes(key, from_=False)
        return
    yield spec, path.read_bytes()


def _maildir_order(box: mailbox.Maildir, key: str) -> tuple[float, str]:
    """Maildir has no order; delivery time (the name's leading timestamp) then name."""
    try:
        return float(key.split(".")[0]), key
    except ValueError:
        return 0.0, key
