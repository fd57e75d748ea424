"""Who sent a message: the From address, and whether the game may believe it.

The verdict is computed once at intake and stored in the journal, so a
replay gets the same answer even if DNS (for dkim mode) has changed since.
"""
from __future__ import annotations

import hmac
import logging
import re
from dataclasses import asdict, dataclass, replace
from email.utils import getaddresses
from functools import cache

import authres

from mailer.grammar import passphrase
from mailer.message import ParsedMail, parse

log = logging.getLogger("nomic.auth")
_ADDRESS = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


@dataclass(frozen=True)
class Verdict:
    authenticated: bool
    method: str
    detail: str = ""

    def to_json(self) -> dict:
        return asdict(self)


def authenticate(raw: bytes, mail: ParsedMail, auth: dict, offices: dict | None = None) -> Verdict:
    """The verdict on one message, per game.toml's ``[auth]`` and ``[offices]`` sections.

    ``mail`` may hold only the headers (mailer.message.parse_head). A sender
    holding an office whose passphrase is set (``[offices] emperor_passphrase``
    / ``scribe_passphrase``) must also give it on a "Passphrase: ..." line of
    the new text, or the message is not authenticated.
    """
    if _from_count(mail) != 1 or not _ADDRESS.match(mail.sender):
        return Verdict(False, auth.get("mode", "authres"), "not exactly one valid From address")
    verdict = _by_mode(raw, mail, auth.get("mode", "authres"), auth.get("authserv_id", ""))
    if not verdict.authenticated:
        return verdict
    required = _passphrases(mail.sender, offices or {})
    if required:
        given = passphrase(parse(raw).text) or ""  # the body is read only here
        if not any(hmac.compare_digest(given.encode(), p.encode()) for p in required):
            return replace(verdict, authenticated=False,
                           detail=f"{verdict.detail}; the office's passphrase is missing or wrong")
    return verdict


def _by_mode(raw: bytes, mail: ParsedMail, mode: str, authserv_id: str) -> Verdict:
    if mode == "none":
        _warn_none()
        return Verdict(bool(mail.sender), "none", "authentication is off (tests and demos only)")
    if mode == "authres":
        return _authres(mail, authserv_id)
    if mode == "dkim":
        from mailer.dkim import verify  # imported lazily: DNS machinery
        return verify(raw, mail)
    return Verdict(False, mode, f"unknown auth mode {mode!r}")


def _from_count(mail: ParsedMail) -> int:
    try:
        values = [str(v) for v in (mail.headers.get_all("From") or [])] if mail.headers else []
    except Exception:  # an unparseable From
        return 0
    return len([addr for _, addr in getaddresses(values) if addr])


@cache
def _warn_none() -> None:
    log.warning("[auth] mode = \"none\": every From address is believed; for tests and demos only")


def _passphrases(sender: str, offices: dict) -> list[str]:
    return [str(offices[f"{office}_passphrase"]) for office in ("emperor", "scribe")
            if offices.get(f"{office}_passphrase") and sender == str(offices.get(office, "")).lower()]


def domain_of(addr: str) -> str:
    return addr.rpartition("@")[2].lower()


def aligned(domain: str, from_domain: str) -> bool:
    """Relaxed alignment (RFC 7489): the same organisational domain, approximated by suffix."""
    domain = domain.lower().rstrip(".")
    return domain == from_domain or from_domain.endswith("." + domain) or domain.endswith("." + from_domain)


def _authres(mail: ParsedMail, authserv_id: str) -> Verdict:
    """Trust the Authentication-Results of our own MTA only (RFC 8601 section 5).

    With ``authserv_id`` set, only headers of that authserv-id count (the MTA
    must remove any that arrive from outside with it); without it, only the
    topmost header, the one our MTA added last.
    """
    if mail.headers is None or not mail.sender:
        return Verdict(False, "authres", "no From address")
    from_domain = domain_of(mail.sender)
    values = mail.headers.get_all("Authentication-Results") or []
    for value in values if authserv_id else values[:1]:
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
            if domain and aligned(domain, from_domain):
                return Verdict(True, "authres", f"{result.method}=pass {domain}")
    return Verdict(False, "authres", "no aligned DKIM or DMARC pass from a trusted authserv-id")


def _prop(result, name: str) -> str:
    ptype, _, pname = name.partition(".")
    for prop in getattr(result, "properties", []):
        if prop.type == ptype and prop.name == pname:
            return str(prop.value)
    return ""
