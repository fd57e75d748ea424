"""The address of an SMTP ``MAIL FROM:`` or ``RCPT TO:`` argument, read quickly when it is plain.

The one place that reaches into aiosmtpd's internals: ``QuickAddress`` overrides its private
``SMTP._getaddr``, so pyproject.toml pins aiosmtpd to the tested range (>=1.4.6,<1.5).

aiosmtpd 1.4.6 reads it with the email package's RFC 5322 token parser and, on every
call, defines a ``typing.Protocol`` class: ~45 us a command, a quarter of the event
loop's time under load (docs/performance.md, issue 20). Nearly every envelope
address is ``<dot-atom@dot-atom>``; for those ``plain_address`` gives what aiosmtpd's
``_getaddr`` gives, and for anything else (quoted local parts, comments, source
routes, non-ASCII, ``<>``) it gives None and aiosmtpd reads it as before.
``tests/mailer/test_envelope.py`` checks the two agree on every string hypothesis makes.
"""
from __future__ import annotations

import re

ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"  # RFC 5322's atom characters (mailer.message reads From with them)
DOT_ATOM = rf"{ATEXT}(?:\.{ATEXT})*"
_PLAIN = re.compile(rf"<({DOT_ATOM}@{DOT_ATOM})>")


def plain_address(arg: str) -> tuple[str, str] | None:
    """``(address, the rest)`` for a plain ``<local@domain> PARAMS``; None for anything else."""
    found = _PLAIN.match(arg)
    if found is None:
        return None
    rest = arg[found.end():]
    if rest[:1] in (" ", "\t"):  # the email package skips white space that starts with one of these
        rest = rest.lstrip()
    if rest.startswith("("):  # a comment: the email package's to read
        return None
    return found.group(1), rest


class QuickAddress:
    """Mixin for aiosmtpd's ``SMTP`` and ``LMTP``: plain envelope addresses read by ``plain_address``
    (aiosmtpd's reader costs a quarter of the loop's time under load); the rest, and aiosmtpd's
    limit on the local part, as aiosmtpd has them."""
    local_part_limit: int

    def _getaddr(self, arg: str) -> tuple[str | None, str | None]:
        plain = plain_address(arg)
        if plain is None or (self.local_part_limit and len(plain[0].rpartition("@")[0]) > self.local_part_limit):
            return super()._getaddr(arg)  # type: ignore[misc]
        return plain
