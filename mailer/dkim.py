"""``[auth] mode = "dkim"``: verify DKIM signatures in process with dkimpy.

A message is authenticated when one of its DKIM signatures verifies, covers
the whole body (no l= tag), its signing domain (d=) is aligned with the
From domain (relaxed, as DMARC), and it covers the headers the game reads
(mailer.auth.header_problem).

One message costs a bounded amount of DNS: a signature whose d= is not
aligned is never looked up, and of the aligned ones only the topmost
``MAX_SIGNATURES`` are verified, one TXT look-up each, each given at most
``DNS_TIMEOUT`` seconds (dkimpy passes it to the resolver as its lifetime)
and all of them together ``MESSAGE_DNS_BUDGET`` seconds. Intake runs this on
a pool of its own, in turns by sender (mailer.auth_pool).
DNS look-ups go through ``dnsfunc`` (dkimpy's hook: name bytes -> TXT record
bytes or None), so tests can inject keys and need no network.
"""
from __future__ import annotations

import time
from collections.abc import Callable

import dkim
from dkim.util import InvalidTagValueList, parse_tag_value

from mailer.auth import Verdict, aligned, domain_of, header_problem, refused
from mailer.message import ParsedMail

DnsFunc = Callable[..., bytes | None]

MAX_SIGNATURES = 5  # aligned signatures verified per message: mail rarely carries more than 2 or 3
DNS_TIMEOUT = 5  # seconds for each look-up ...
MESSAGE_DNS_BUDGET = 10  # ... and for all of one message's
_SHOWN = 3  # unaligned signing domains named in a verdict's detail

# The TXT look-up dkimpy uses; tests replace it with a dict-backed function.
dnsfunc: DnsFunc = dkim.dnsplug.get_txt


def verify(raw: bytes, mail: ParsedMail, lookup: DnsFunc | None = None, owned: tuple[str, ...] = ()) -> Verdict:
    """The verdict of the first aligned signature that passes, else every reason none did."""
    if not mail.sender:
        return Verdict(False, "dkim", "no From address")
    try:
        checker = dkim.DKIM(raw, timeout=DNS_TIMEOUT)
    except dkim.DKIMException as exc:
        return Verdict(False, "dkim", f"unreadable headers: {exc}")
    candidates, unaligned = _by_alignment(checker, domain_of(mail.sender))
    failures = [_unaligned(unaligned)] if unaligned else []
    end = time.monotonic() + MESSAGE_DNS_BUDGET
    budgeted = _budgeted(lookup or dnsfunc, end)
    examined = candidates[:MAX_SIGNATURES]
    for n, idx in enumerate(examined):
        if time.monotonic() >= end:
            failures.append(f"{len(examined) - n} more aligned DKIM signatures not examined: this message's "
                            f"DNS time ({MESSAGE_DNS_BUDGET} s) is used up")
            break
        verdict = _verify_one(raw, checker, idx, budgeted, mail, owned)
        if verdict.authenticated:
            return verdict
        failures.append(verdict.detail)
    if len(candidates) > MAX_SIGNATURES:
        failures.append(f"{len(candidates) - MAX_SIGNATURES} more aligned DKIM signatures not examined "
                        f"(at most {MAX_SIGNATURES} are)")
    return Verdict(False, "dkim", "; ".join(failures) or "no DKIM signature")


def _budgeted(lookup: DnsFunc, end: float) -> DnsFunc:
    """``lookup`` given what is left of the message's DNS time (at most ``DNS_TIMEOUT`` a look-up)."""
    def within(name: bytes, timeout: float = DNS_TIMEOUT) -> bytes | None:
        left = end - time.monotonic()
        if left <= 0:
            raise dkim.DnsTimeoutError(f"this message's DNS time ({MESSAGE_DNS_BUDGET} s) is used up")
        return lookup(name, timeout=min(timeout, left))
    return within


def _by_alignment(checker: dkim.DKIM, from_domain: str) -> tuple[list[int], list[str]]:
    """The indexes (dkimpy's: topmost first) of the signatures whose d= aligns with From, and the
    d= of the others: read from the headers alone, without DNS."""
    signatures = [value for name, value in checker.headers if name.lower() == b"dkim-signature"]
    candidates, unaligned = [], []
    for idx, value in enumerate(signatures):
        try:
            domain = parse_tag_value(value).get(b"d", b"").decode("ascii", "replace")
        except InvalidTagValueList:
            domain = ""
        if aligned(domain, from_domain):
            candidates.append(idx)
        else:
            unaligned.append(domain)
    return candidates, unaligned


def _unaligned(domains: list[str]) -> str:
    named = list(dict.fromkeys(d[:253] or "(none)" for d in domains))
    more = f" and {len(named) - _SHOWN} more" if len(named) > _SHOWN else ""
    return "not aligned with From: " + ", ".join(f"d={d}" for d in named[:_SHOWN]) + more


def _verify_one(raw: bytes, checker: dkim.DKIM, idx: int, lookup: DnsFunc, mail: ParsedMail,
                owned: tuple[str, ...]) -> Verdict:
    try:
        ok = checker.verify(idx=idx, dnsfunc=lookup)
    except dkim.DKIMException as exc:
        return Verdict(False, "dkim", str(exc))
    domain = (checker.domain or b"").decode("ascii", "replace")
    if not ok:
        return Verdict(False, "dkim", f"d={domain} did not verify")
    if b"l" in checker.signature_fields:  # RFC 6376 8.2: anyone may append to the body
        return Verdict(False, "dkim", f"d={domain} signs only part of the body (l=)")
    verdict = Verdict(True, "dkim", f"dkim=pass {domain}")
    signed = {name.decode("ascii", "replace") for name in checker.include_headers}
    problem = header_problem(raw, mail, owned, signed)
    return refused(verdict, problem) if problem else verdict
