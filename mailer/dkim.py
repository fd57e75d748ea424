"""``[auth] mode = "dkim"``: verify DKIM signatures in process with dkimpy.

A message is authenticated when one of its DKIM signatures verifies, covers
the whole body (no l= tag) and its signing domain (d=) is aligned with the
From domain (relaxed, as DMARC).
DNS look-ups go through ``dnsfunc`` (dkimpy's hook: name bytes -> TXT record
bytes or None), so tests can inject keys and need no network.
"""
from __future__ import annotations

from collections.abc import Callable

import dkim

from mailer.auth import Verdict, aligned, domain_of
from mailer.message import ParsedMail

DnsFunc = Callable[..., bytes | None]

# The TXT look-up dkimpy uses; tests replace it with a dict-backed function.
dnsfunc: DnsFunc = dkim.dnsplug.get_txt


def verify(raw: bytes, mail: ParsedMail, lookup: DnsFunc | None = None) -> Verdict:
    if not mail.sender:
        return Verdict(False, "dkim", "no From address")
    from_domain = domain_of(mail.sender)
    signatures = len(mail.headers.get_all("DKIM-Signature") or []) if mail.headers else 0
    checker = dkim.DKIM(raw)
    failures: list[str] = []
    for idx in range(signatures):
        try:
            ok = checker.verify(idx=idx, dnsfunc=lookup or dnsfunc)
        except dkim.DKIMException as exc:
            failures.append(str(exc))
            continue
        domain = (checker.domain or b"").decode("ascii", "replace")
        if ok and b"l" in checker.signature_fields:  # RFC 6376 8.2: anyone may append to the body
            failures.append(f"d={domain} signs only part of the body (l=)")
            continue
        if ok and aligned(domain, from_domain):
            return Verdict(True, "dkim", f"dkim=pass {domain}")
        failures.append(f"d={domain} " + ("not aligned with From" if ok else "did not verify"))
    return Verdict(False, "dkim", "; ".join(failures) or "no DKIM signature")
