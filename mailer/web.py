"""The list's web side: RFC 8058 one-click unsubscribe, and the site's subscribe form.

``nomic serve --http`` calls ``handle_post(forms, path, body)`` for POSTs and
``handle_get(forms, path)`` for GETs under ``/subscribe/`` and ``/unsubscribe/``;
both return ``(status, text)`` (HTML for a GET's 200). ``Forms`` is what they need of the game.

- ``POST /unsubscribe/<issued>/<token>`` with the body ``List-Unsubscribe=One-Click``
  (RFC 8058; the GET page's button sends it too): the address leaves the list.
  Refused without that body, when the link is older than ``[http] unsubscribe_days``,
  or when it was made before the address's latest subscription (``Subscriber.since``):
  a link found in an old mail must not end a newer subscription.
- ``POST /subscribe`` (form field ``address``): a confirmation mail goes to the
  address; nothing else happens. ``[http]``'s confirm_per_* cap how many such mails go out.
- ``GET /subscribe/confirm/<issued>/<token>``: a page with a button (mail
  scanners that follow links must not subscribe anyone); its POST subscribes.

Tokens are HMACs of the address and the time of issue keyed with the game's
token key (mailer/tokens.py), so they need no table. A confirmed change reaches the
game the one way all changes do: it is journaled as a synthetic message from
the address ("Subscribe" or "Unsubscribe", authenticated by method "web") and
processed. That shape reuses the journal, the engine's commands and the answer
mail as they are, and a replay reproduces the subscription from the journal
alone; a new entry kind would have needed a second input path through every layer.

The callers serialise these functions with the processor (``nomic serve`` holds
its lock): they read the game state, and the form's limits are
check-then-queue.
"""
from __future__ import annotations

import json
import logging
import re
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import format_datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from engine.state import GameState
from mailer import outbox
from mailer.compose import machine_mail
from mailer.listconfig import ListSettings
from mailer.message import message_key
from mailer.tokens import mac, read_stamped_token, stamped_token
from rendering import render
from storage.settings.common import HttpSection

if TYPE_CHECKING:
    from mailer.inbox import Inbox

log = logging.getLogger("nomic.web")
CONFIRM_DAYS = 7
ADDRESS_MAX = 254
ONE_CLICK = ["One-Click"]  # the RFC 8058 body List-Unsubscribe=One-Click, as parse_qs reads it
# RFC 5321 with plain ASCII: dot-atom local part, domain of letter-digit-hyphen labels
ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
                     r"@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?")


@dataclass(frozen=True)
class Forms:
    """What the forms need of a game: its inbox (a confirmed change is journaled there), its
    database (the outbox, for confirmation mails), its list settings, its ``[http]`` section, and
    its state (read at each request: a subscriber's latest subscription)."""
    inbox: "Inbox"
    db: Engine
    settings: ListSettings
    limits: HttpSection
    state: Callable[[], GameState[Any]]


def handle_post(forms: Forms, path: str, body: bytes | str, now: datetime | None = None) -> tuple[int, str]:
    now = now or datetime.now(timezone.utc).replace(microsecond=0)
    path = urlsplit(path).path.rstrip("/")
    form = parse_qs(body.decode("utf-8", "replace") if isinstance(body, bytes) else body)
    ls = forms.settings
    if path.startswith("/unsubscribe/"):
        address, refusal = _unsubscribe_link(forms, ls, path, now)
        if address is None:
            return 400, refusal
        if form.get("List-Unsubscribe") != ONE_CLICK:
            return 400, ("This request lacks the body List-Unsubscribe=One-Click (RFC 8058); "
                         "open the link in a browser and press its button.")
        _journal(forms.inbox, ls, address, "Unsubscribe", now)
        return 200, f"{address} is unsubscribed from {ls.list_address}."
    if path == "/subscribe":
        return _request(forms, ls, (form.get("address") or [""])[0].strip().lower(), now)
    if path.startswith("/subscribe/confirm/"):
        address = _confirmed(ls, path, now)
        if address is None:
            return 400, f"This confirmation link is not valid or is older than {CONFIRM_DAYS} days."
        _journal(forms.inbox, ls, address, "Subscribe", now)
        return 200, f"{address} is subscribed to {ls.list_address}."
    return 404, "Not found."


def handle_get(forms: Forms, path: str, now: datetime | None = None) -> tuple[int, str]:
    """The page behind a link: says what the button will do; only its POST acts."""
    now = now or datetime.now(timezone.utc)
    ls = forms.settings
    path = urlsplit(path).path.rstrip("/")
    if path.startswith("/unsubscribe/"):
        address, refusal = _unsubscribe_link(forms, ls, path, now)
        if address is None:
            return 400, refusal
        return 200, render("web/confirm.html", ls=ls, action=f"Unsubscribe {address} from {ls.list_address}",
                           one_click=True)
    if path.startswith("/subscribe/confirm/"):
        address = _confirmed(ls, path, now)
        if address is None:
            return 400, "This link is not valid."
        return 200, render("web/confirm.html", ls=ls, action=f"Subscribe {address} to {ls.list_address}",
                           one_click=False)
    return 404, "Not found."


def _unsubscribe_link(forms: Forms, ls: ListSettings, path: str, now: datetime) -> tuple[str | None, str]:
    """``(address, "")`` when the link in ``path`` may unsubscribe now, else ``(None, why not)``."""
    elsewise = f"use the link in a recent mail from the list, or mail Unsubscribe to {ls.address}."
    found = read_stamped_token(ls.token_key, "unsubscribe", path.removeprefix("/unsubscribe/"))
    if found is None:
        return None, f"This unsubscribe link is not valid; {elsewise}"
    address, issued = found
    days = forms.limits.unsubscribe_days
    if now - issued > timedelta(days=days):
        return None, f"This unsubscribe link is more than {days} days old; {elsewise}"
    member = forms.state().subscriber(address)
    if member is None:
        return None, f"{address} is not subscribed to {ls.list_address}; nothing changed."
    if member.since is not None and issued < member.since:
        return None, f"This unsubscribe link was made before {address} last subscribed; {elsewise}"
    return address, ""


def confirm_path(ls: ListSettings, address: str, issued: datetime) -> str:
    return f"subscribe/confirm/{stamped_token(ls.token_key, 'subscribe', address, issued)}"


def _confirmed(ls: ListSettings, path: str, now: datetime) -> str | None:
    found = read_stamped_token(ls.token_key, "subscribe", path.removeprefix("/subscribe/confirm/"))
    if found is None or not timedelta(0) <= now - found[1] <= timedelta(days=CONFIRM_DAYS):
        return None
    return found[0]


def mailbox(address: str) -> str:
    """The mailbox an address reaches at most providers: lower case, no ``+tag``, no dots before the @."""
    local, _, domain = address.lower().rpartition("@")
    return f"{local.partition('+')[0].replace('.', '')}@{domain.rstrip('.')}"


def _request(forms: Forms, ls: ListSettings, address: str, now: datetime) -> tuple[int, str]:
    if not address.isascii():
        return 400, ("This list can mail only addresses written in plain ASCII (no letters like é or ü); "
                     "please give another address.")
    if len(address) > ADDRESS_MAX or not ADDRESS.fullmatch(address):
        return 400, "Please give one email address, like alice@example.org."
    limits = forms.limits
    with Session(forms.db) as s:
        refusal = _too_many(limits, ls, address, _recent_confirmations(s, now))
        if refusal:
            log.warning("web: no confirmation to %s: %s", address, refusal)
            return 429, refusal
        link = ls.url(confirm_path(ls, address, now))
        mail = machine_mail(ls, to=address, at=now, subject=f"Confirm your subscription to {ls.list_address}",
                            msgid=f"{_confirm_id(now)}.{mac(ls.token_key, 'confirm-id', address, 16)}@{ls.domain}>",
                            template="mail/confirm.txt", address=address, link=link, days=CONFIRM_DAYS)
        outbox.queue(s, 0, "confirm", mail, [address], ls.address, now)
        s.commit()
    return 200, f"A confirmation mail is on its way to {address}. Nothing happens until you confirm."


def _confirm_id(at: datetime) -> str:
    """How the Message-ID of a confirmation sent at ``at`` begins."""
    return f"<confirm.{at:%Y%m%d%H%M%S}"


def _recent_confirmations(s: Session, now: datetime) -> list[str]:
    """Every address the form mailed in the hour up to ``now``.

    Found by Message-ID (indexed; ``_confirm_id``): the outbox has no index on kind
    or time, and a scan of it would read every stored mail. Both bounds are times,
    so the range does not depend on how the database's collation orders
    punctuation (glibc's en_US ignores it).
    """
    sent = outbox.OutboxMessage.message_id
    rows = s.exec(select(outbox.OutboxMessage.recipients).where(
        sent > _confirm_id(now - timedelta(hours=1)), sent < _confirm_id(now + timedelta(seconds=1)),
        outbox.OutboxMessage.kind == "confirm")).all()
    return [a for r in rows for a in json.loads(r)]


def _too_many(limits: HttpSection, ls: ListSettings, address: str, recent: list[str]) -> str | None:
    """Why no confirmation may go to ``address`` now, or None.

    Confirmation mails are counted over the last hour: to one mailbox (the
    address lower-cased, without its ``+tag`` and without dots in the local
    part, so ``A.lice+x@`` counts as ``alice@``), to one domain, and in all.
    """
    boxes = [mailbox(a) for a in recent]
    box = mailbox(address)
    domain = box.rpartition("@")[2]
    if boxes.count(box) >= limits.confirm_per_address:
        return (f"A confirmation mail went to this address less than an hour ago; look for it "
                f"(it works for {CONFIRM_DAYS} days), or try again in an hour.")
    if sum(b.rpartition("@")[2] == domain for b in boxes) >= limits.confirm_per_domain:
        return (f"Too many confirmation mails went to {domain} in the last hour; try again later, "
                f"or mail Subscribe to {ls.address}.")
    if len(recent) >= limits.confirm_per_hour:
        return f"Too many confirmation mails went out in the last hour; try again later, or mail Subscribe to {ls.address}."
    return None


def _journal(inbox: "Inbox", ls: ListSettings, address: str, command: str, now: datetime) -> None:
    """Journal the confirmed change as an authenticated message from the address.

    The caller's processing loop applies it (``nomic serve`` processes after every journal write).
    """
    from mailer.ports import Arrival
    mail = EmailMessage()
    mail["From"] = address
    mail["To"] = ls.address
    mail["Subject"] = command
    mail["Date"] = format_datetime(now)
    mail["Message-ID"] = f"<web.{command.lower()}.{now:%Y%m%d%H%M%S}.{mac(ls.token_key, 'web-id', address, 16)}@{ls.domain}>"
    mail.set_content(f"{command}\n")
    raw = bytes(mail)
    meta = {"source": "web", "mail_from": None, "rcpt_to": [ls.address],
            "auth": {"authenticated": True, "method": "web",
                     "detail": f"{command.lower()} confirmed with a token sent to {address}"}}
    inbox.receive_many([Arrival(message_key(raw), raw, now, meta)])
    log.info("web: %s %s", command.lower(), address)
