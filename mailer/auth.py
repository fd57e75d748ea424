"""Who sent a message: the From address, and whether the game may believe it.

The verdict is computed once at intake and stored in the journal, so a
replay gets the same answer even if DNS (for dkim mode) has changed since.

A DKIM pass vouches for less than it seems: a verifier checks the
bottom-most copy of each header the signature names (its h= tag), the game
reads the topmost, and a genuine message may have been written to someone
else. So a pass counts only when the game reads signed copies and the mail
names one of the game's own addresses (``header_problem``).
"""
from __future__ import annotations

import hmac
import re
from collections import Counter
from collections.abc import Collection
from dataclasses import asdict, dataclass, replace
from email.utils import getaddresses

import authres
from publicsuffixlist import PublicSuffixList

from mailer.grammar import passphrase
from mailer.message import ParsedMail, parse
from storage.settings.common import AuthSection

_ADDRESS = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
# The headers the game reads; each must appear at most once (RFC 5322 3.6 allows no more).
READ_HEADERS = ("From", "To", "Cc", "Subject", "Message-ID", "In-Reply-To", "References")
_CANONICAL = {name.lower(): name for name in READ_HEADERS}
# Added again in transit, above the signature, and never read by the game: a signature may name
# them (RFC 6376 5.4.2: it covers the bottom-most copy) although a delivered message holds several.
_TRANSIT = frozenset({"received", "dkim-signature"})
# A CR not ending a line: DKIM verifiers end lines at CRLF (RFC 5322), Python's parser at a bare CR
# too, so headers (and a body) hidden behind one are read by the game and never by the verifier.
_BARE_CR = re.compile(rb"\r(?!\n)")
_HEADER_END = re.compile(rb"\n\r?\n")
_LINE_END = re.compile(rb"\r?\n")
_FIELD_NAME = re.compile(rb"([\x21-\x39\x3b-\x7e]+):")  # printable ASCII but the colon (RFC 5322 2.2)
# The Public Suffix List bundled with the package (no network): built once, read-only afterwards.
_PSL = PublicSuffixList()


@dataclass(frozen=True)
class Verdict:
    authenticated: bool
    method: str
    detail: str = ""

    def to_json(self) -> dict:
        return asdict(self)


def authenticate(raw: bytes, mail: ParsedMail, auth: AuthSection, offices: dict | None = None,
                 owned: tuple[str, ...] = ()) -> Verdict:
    """The verdict on one message, per game.toml's ``[auth]`` and ``[offices]`` sections.

    ``mail`` may hold only the headers (mailer.message.parse_head). ``owned``
    are the game's addresses (game.address, game.list_address): in authres and
    dkim modes one of them must be in To or Cc (empty: not checked). A sender
    holding an office whose passphrase is set (``[offices] emperor_passphrase``
    / ``scribe_passphrase``) must also give it on a "Passphrase: ..." line of
    the new text, or the message is not authenticated.
    """
    mode = auth.mode
    if _from_count(mail) != 1 or not _ADDRESS.match(mail.sender):
        return Verdict(False, mode, "not exactly one valid From address")
    if mode in ("authres", "dkim") and _bare_cr_in_headers(raw):
        return Verdict(False, mode, "a bare CR in the headers: the DKIM verifier and the game would read "
                                    "different headers")
    verdict = _by_mode(raw, mail, mode, auth, owned)
    if not verdict.authenticated:
        return verdict
    required = _passphrases(mail.sender, offices or {})
    if required:
        given = passphrase(parse(raw).text) or ""  # the body is read only here
        if not any(hmac.compare_digest(given.encode(), p.encode()) for p in required):
            return refused(verdict, "the office's passphrase is missing or wrong")
    return verdict


def refused(verdict: Verdict, problem: str) -> Verdict:
    """``verdict`` (a pass) overruled by ``problem``."""
    return replace(verdict, authenticated=False, detail=f"{verdict.detail}; {problem}")


def _by_mode(raw: bytes, mail: ParsedMail, mode: str, auth: AuthSection, owned: tuple[str, ...]) -> Verdict:
    if mode == "none":
        return Verdict(bool(mail.sender), "none", "authentication is off (tests and demos only)")
    if mode == "authres":
        return _authres(raw, mail, auth, owned)
    if mode == "dkim":
        from mailer.dkim import verify  # imported lazily: DNS machinery
        return verify(raw, mail, owned=owned)
    return Verdict(False, mode, f"unknown auth mode {mode!r}")


def _bare_cr_in_headers(raw: bytes) -> bool:
    end = _HEADER_END.search(raw)  # the first empty line, as a DKIM verifier finds it
    return _BARE_CR.search(raw, 0, end.start() + 1 if end else len(raw)) is not None


def header_names(raw: bytes) -> list[str]:
    """The name of every header field, in order, as a DKIM verifier reads them (given no bare CR).

    Counted here, not from ``ParsedMail.headers``: the game's parser may stop
    early in a long header section, and a copy it does not see is still a copy.
    """
    end = _HEADER_END.search(raw)
    names = []
    for line in _LINE_END.split(raw[:end.start() if end else len(raw)]):
        if line[:1] in (b" ", b"\t"):  # a folded continuation
            continue
        field = _FIELD_NAME.match(line)
        if field is None and not line.startswith(b"From "):  # not a header field: the body begins
            break
        if field is not None:
            names.append(field[1].decode("ascii"))
    return names


def header_problem(raw: bytes, mail: ParsedMail, owned: tuple[str, ...],
                   signed: Collection[str] | None = None) -> str:
    """Why a pass must not count for the headers the game reads ("": none).

    Each header the game reads appears once; so does each header the passing
    signature names, when its h= is known (``signed``, lower case: dkim mode),
    and then each header the game reads is in it. The game sees a Message-ID
    (its journal's key: without one, a copy re-sent with any change would be
    new). One of the ``owned`` addresses is in To or Cc: the Emperor's mail to
    a player, re-sent to the game by that player, is not an order to the game.
    """
    names = header_names(raw)
    counts = Counter(name.lower() for name in names)
    spelled: dict[str, str] = {}  # lower case -> as the detail spells it, in the order of the headers
    for name in names:
        spelled.setdefault(name.lower(), _CANONICAL.get(name.lower(), name))
    once = set(_CANONICAL) | (set(signed) - _TRANSIT if signed is not None else set())
    problems = [f"{spelled[low]} appears {counts[low]} times" for low in spelled if low in once and counts[low] > 1]
    if signed is not None:
        problems += [f"{name} is not signed" for low, name in _CANONICAL.items() if counts[low] and low not in signed]
    if mail.message_id.startswith("sha256:"):  # parse_head found no <id> to key the journal by
        problems.append("no Message-ID")
    if owned and not _addressed_to(mail, owned):
        problems.append("To/Cc names none of the game's addresses (" + ", ".join(owned) + ")")
    return "; ".join(problems)


def _addressed_to(mail: ParsedMail, owned: tuple[str, ...]) -> bool:
    values = [str(v) for name in ("To", "Cc") for v in (mail.headers.get_all(name) or [])] if mail.headers else []
    wanted = {addr.lower() for addr in owned}
    return any(addr.lower() in wanted for _, addr in getaddresses(values))


def _from_count(mail: ParsedMail) -> int:
    if mail.authors is not None:  # counted when the From was read (mailer.message.plain_from)
        return mail.authors
    try:
        values = [str(v) for v in (mail.headers.get_all("From") or [])] if mail.headers else []
    except Exception:  # an unparseable From
        return 0
    return len([addr for _, addr in getaddresses(values) if addr])


def _passphrases(sender: str, offices: dict) -> list[str]:
    """The passphrases of the offices ``sender`` holds (``[offices] NAME_passphrase`` for office NAME)."""
    return [str(phrase) for key, phrase in offices.items()
            if key.endswith("_passphrase") and phrase and sender in _holders(offices.get(key.removesuffix("_passphrase")))]


def _holders(value: object) -> set[str]:
    """An office's holders as ``[offices]`` gives them: one address or a list."""
    listed = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return {str(a).strip().lower() for a in listed}


def domain_of(addr: str) -> str:
    return addr.rpartition("@")[2].lower()


def organisational_domain(domain: str) -> str | None:
    """The domain registered under its public suffix (RFC 7489 3.2), by the Public Suffix List.

    None for a public suffix itself (a bare TLD, co.uk, github.io) or a malformed name.
    """
    name = domain.strip().lower().rstrip(".")
    try:
        name = name.encode("idna").decode("ascii")  # d= is in A-labels; a From domain may not be
    except UnicodeError:
        return None
    return _PSL.privatesuffix(name)


def aligned(domain: str, from_domain: str) -> bool:
    """Relaxed alignment (RFC 7489 3.1): the same organisational domain; a public suffix never aligns."""
    org = organisational_domain(domain)
    return org is not None and org == organisational_domain(from_domain)


def _authres(raw: bytes, mail: ParsedMail, auth: AuthSection, owned: tuple[str, ...]) -> Verdict:
    """An aligned pass in a trusted Authentication-Results header, for headers read as they were checked.

    Without an ``authserv_id`` no header is trusted unless the operator set
    ``trust_topmost_header = true`` (config.Config.check_auth refuses to start
    otherwise): a forged header is the topmost whenever the MTA adds none.
    """
    authserv_id = auth.authserv_id.strip()
    if not authserv_id and not auth.trust_topmost_header:
        return Verdict(False, "authres", "no [auth] authserv_id (and trust_topmost_header is not true): "
                                         "no Authentication-Results header is believed")
    verdict = _authres_pass(mail, authserv_id)
    problem = header_problem(raw, mail, owned) if verdict.authenticated else ""
    return refused(verdict, problem) if problem else verdict


def _authres_pass(mail: ParsedMail, authserv_id: str) -> Verdict:
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
