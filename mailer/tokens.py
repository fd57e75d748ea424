"""Tokens that prove an address without a table: HMACs of the address keyed with the game's token key
(``[list] token_secret``, written at random by ``nomic init`` and never published; a game begun before
it existed has none and uses its seed, whose publication ``reveal_seed`` is then refused).

Used for the one-click unsubscribe URL, the web subscription confirmation
and the VERP return path. Each use has its own purpose string, so a token
made for one can never be replayed as another.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from datetime import datetime, timezone

STAMP = "%Y%m%dT%H%M%SZ"  # when a stamped token was made; its upper-case T and Z never occur in a
# lower-cased address, so "address + stamp" cannot be read as a longer address without one


def mac(key: str, purpose: str, value: str, length: int = 20) -> str:
    digest = hmac.new(key.encode(), f"{purpose}\x00{value}".encode(), hashlib.sha256).hexdigest()
    return digest[:length]


def address_token(key: str, purpose: str, address: str, extra: str = "") -> str:
    """``<base64url(address)>.<mac>``: the address readable, its MAC unforgeable."""
    address = address.lower()
    b64 = base64.urlsafe_b64encode(address.encode()).decode().rstrip("=")
    return f"{b64}.{mac(key, purpose, address + extra)}"


def read_address_token(key: str, purpose: str, token: str, extra: str = "") -> str | None:
    """The address a token was made for, or None if it is malformed or forged."""
    b64, _, given = token.strip().partition(".")
    try:
        address = base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    if "@" not in address or not hmac.compare_digest(given.lower(), mac(key, purpose, address + extra)):
        return None
    return address


def stamped_token(key: str, purpose: str, address: str, issued: datetime) -> str:
    """``<issued>/<address token>``: a token that says, unforgeably, when it was made."""
    stamp = issued.astimezone(timezone.utc).strftime(STAMP)
    return f"{stamp}/{address_token(key, purpose, address, stamp)}"


def read_stamped_token(key: str, purpose: str, text: str) -> tuple[str, datetime] | None:
    """The address and the time of issue of a ``stamped_token``; None if malformed or forged."""
    stamp, _, token = text.partition("/")
    try:
        issued = datetime.strptime(stamp, STAMP).replace(tzinfo=timezone.utc)
    except ValueError:
        return None
    address = read_address_token(key, purpose, token, stamp)
    return None if address is None else (address, issued)
