"""Raw mail bytes -> the parts the game reads: addresses, ids, subject, plain text."""
from __future__ import annotations

import email
import hashlib
import re
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr

_MSGID = re.compile(r"<([^<>\s]+)>")


@dataclass
class ParsedMail:
    message_id: str
    sender: str
    name: str
    subject: str
    text: str
    recipients: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    automatic: bool = False
    headers: EmailMessage | None = None


def message_key(raw: bytes) -> str:
    """The journal's dedup key: the Message-ID, else a hash of the content."""
    msg = email.message_from_bytes(raw, policy=policy.compat32)
    mid = _ids(str(msg.get("Message-ID", "")))
    return mid[0] if mid else "sha256:" + hashlib.sha256(raw).hexdigest()


def parse(raw: bytes) -> ParsedMail:
    msg: EmailMessage = email.message_from_bytes(raw, policy=policy.default)  # type: ignore[assignment]
    name, addr = parseaddr(_header(msg, "From"))
    refs = _ids(_header(msg, "In-Reply-To")) + list(reversed(_ids(_header(msg, "References"))))
    rcpts = [a.lower() for _, a in getaddresses([_header(msg, h) for h in ("To", "Cc")]) if a]
    return ParsedMail(
        message_id=message_key(raw), sender=addr.strip().lower(), name=name.strip(),
        subject=_header(msg, "Subject").strip(), text=body_text(msg), recipients=rcpts,
        references=list(dict.fromkeys(refs)), automatic=is_automatic(msg), headers=msg)


def _header(msg: EmailMessage, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # a header the policy cannot parse is read as absent
        return ""
    return "" if value is None else " ".join(str(value).split())


def _ids(value: str) -> list[str]:
    return _MSGID.findall(value or "")


def body_text(msg: EmailMessage) -> str:
    """The text/plain body (the first one), decoded; empty if there is none."""
    part = msg.get_body(preferencelist=("plain",)) if msg.is_multipart() else msg
    if part is None or part.get_content_type() != "text/plain":
        return ""
    try:
        return strip_quotes(part.get_content())
    except (LookupError, UnicodeError):
        payload = part.get_payload(decode=True) or b""
        return strip_quotes(payload.decode("utf-8", "replace"))


def strip_quotes(text: str) -> str:
    """Drop quoted lines ('> ...') and everything after a signature separator ('-- ')."""
    out = []
    for line in text.splitlines():
        if line.rstrip() == "--" or line == "-- ":
            break
        if line.lstrip().startswith(">"):
            continue
        out.append(line)
    return "\n".join(out)


def is_automatic(msg: EmailMessage) -> bool:
    """RFC 3834 and friends: mail that must never be answered."""
    auto = _header(msg, "Auto-Submitted").lower()
    if auto and auto != "no":
        return True
    if _header(msg, "Precedence").lower() in {"bulk", "junk", "list", "auto_reply"}:
        return True
    if _header(msg, "List-Id") or _header(msg, "X-Autoreply") or _header(msg, "X-Autorespond"):
        return True
    if _header(msg, "Return-Path").strip() == "<>":
        return True
    ctype = msg.get_content_type()
    return ctype == "multipart/report"
