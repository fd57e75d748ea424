"""Who sent a message: the From address, and whether the game may believe it.

The verdict is computed once at intake and stored in the journal, so a
replay gets the same answer even if DNS (for dkim mode) has changed since.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import authres

from mailer.message import ParsedMail


@dataclass(frozen=True)
class Verdict:
    authenticated: bool
    method: str
    detail: str = ""

    def to_json(self) -> dict:
        return asdict(self)


def authenticate(raw: bytes, mail: ParsedMail, mode: str, authserv_id: str = "") -> Verdict:
    if mode == "none":
        return Verdict(bool(mail.sender), "none", "authentication is off (tests and demos only)")
    if mode == "authres":
        return _authres(mail, authserv_id)
    if mode == "dkim":
        from mailer.dkim import verify  # imported lazily: DNS machinery
        return verify(raw, mail)
    return Verdict(False, mode, f"unknown auth mode {mode!r}")


def _domain(addr: str) -> str:
    return addr.rpartition("@")[2].lower()


def _aligned(domain: str, from_domain: str) -> bool:
    """Relaxed alignment (RFC 7489): the same organisational domain, approximated by suffix."""
    domain = domain.lower().rstrip(".")
    return domain == from_domain or from_domain.endswith("." + domain) or domain.endswith("." + from_domain)


def _authres(mail: ParsedMail, authserv_id: str) -> Verdict:
    if mail.headers is None or not mail.sender:
        return Verdict(False, "authres", "no From address")
    from_domain = _domain(mail.sender)
    for value in mail.headers.get_all("Authentication-Results") or []:
        try:
            header = authres.AuthenticationResultsHeader.parse_value(" ".join(str(value).split()))
        except Exception:
            continue
        if authserv_id and header.authserv_id.lower() != authserv_id.lower():
            continue
        for result in header.results:
            if result.result.lower() != "pass":
                continue
            if result.method == "dmarc":
                domain = _prop(result, "header.from")
            elif result.method == "dkim":
                domain = _prop(result, "header.d") or _prop(result, "header.i").rpartition("@")[2]
            else:
                continue
            if domain and _aligned(domain, from_domain):
                return Verdict(True, "authres", f"{result.method}=pass {domain}")
    return Verdict(False, "authres", "no aligned DKIM or DMARC pass from a trusted authserv-id")


def _prop(result, name: str) -> str:
    ptype, _, pname = name.partition(".")
    for prop in getattr(result, "properties", []):
        if prop.type == ptype and prop.name == pname:
            return str(prop.value)
    return ""
