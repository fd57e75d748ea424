"""The list's web side: RFC 8058 one-click unsubscribe, and the site's subscribe form.

``nomic serve --http`` calls ``handle_post(game, path, body)`` for POSTs and
``handle_get(game, path)`` for GETs under ``/subscribe/`` and ``/unsubscribe/``;
both return ``(status, text)`` (HTML for GETs).

- ``POST /unsubscribe/<token>`` (body ``List-Unsubscribe=One-Click``, RFC 8058,
  or the button of the GET page): the address leaves the list.
- ``POST /subscribe`` (form field ``address``): a confirmation mail goes to the
  address, at most one an hour; nothing else happens.
- ``GET /subscribe/confirm/<issued>/<token>``: a page with a button (mail
  scanners that follow links must not subscribe anyone); its POST subscribes.

Tokens are HMACs of the address keyed with the game's seed (mailer/tokens.py),
so they need no table. A confirmed change reaches the game the one way all
changes do: it is journaled as a synthetic message from the address
("Subscribe" or "Unsubscribe", authenticated by method "web") and processed.
That shape reuses the journal, the engine's commands and the answer mail as
they are, and a replay reproduces the subscription from the journal alone;
a new entry kind would have needed a second input path through every layer.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

from sqlmodel import Session, select

from mailer import outbox
from mailer.compose import machine_mail
from mailer.listconfig import ListSettings, settings
from mailer.message import message_key
from mailer.tokens import address_token, mac, read_address_token
from nomic.render import render

if TYPE_CHECKING:
    from nomic.game import Game

log = logging.getLogger("nomic.web")
CONFIRM_DAYS = 7
ADDRESS_MAX = 254


def handle_post(game: "Game", path: str, body: bytes | str, now: datetime | None = None) -> tuple[int, str]:
    now = now or datetime.now(timezone.utc).replace(microsecond=0)
    path = urlsplit(path).path.rstrip("/")
    form = parse_qs(body.decode("utf-8", "replace") if isinstance(body, bytes) else body)
    ls = settings(game)
    if path.startswith("/unsubscribe/"):
        address = read_address_token(ls.seed, "unsubscribe", path.rpartition("/")[2])
        if address is None:
            return 400, "This unsubscribe link is not valid."
        _journal(game, ls, address, "Unsubscribe", now)
        return 200, f"{address} is unsubscribed from {ls.list_address}."
    if path == "/subscribe":
        return _request(game, ls, (form.get("address") or [""])[0].strip().lower(), now)
    if path.startswith("/subscribe/confirm/"):
        address = _confirmed(ls, path, now)
        if address is None:
            return 400, f"This confirmation link is not valid or is older than {CONFIRM_DAYS} days."
        _journal(game, ls, address, "Subscribe", now)
        return 200, f"{address} is subscribed to {ls.list_address}."
    return 404, "Not found."


def handle_get(game: "Game", path: str, now: datetime | None = None) -> tuple[int, str]:
    """The page behind a link: says what the button will do; only its POST acts."""
    ls = settings(game)
    path = urlsplit(path).path.rstrip("/")
    if path.startswith("/unsubscribe/"):
        address = read_address_token(ls.seed, "unsubscribe", path.rpartition("/")[2])
        action = f"Unsubscribe {address} from {ls.list_address}"
    elif path.startswith("/subscribe/confirm/"):
        address = _confirmed(ls, path, now or datetime.now(timezone.utc))
        action = f"Subscribe {address} to {ls.list_address}"
    else:
        return 404, "Not found."
    if address is None:
        return 400, "This link is not valid."
    return 200, render("web/confirm.html", ls=ls, action=action, path=path,
                       body="List-Unsubscribe=One-Click" if path.startswith("/unsubscribe/") else "")


def confirm_path(ls: ListSettings, address: str, issued: datetime) -> str:
    stamp = issued.strftime("%Y%m%dT%H%M%SZ")
    return f"subscribe/confirm/{stamp}/{address_token(ls.seed, 'subscribe', address, stamp)}"


def _confirmed(ls: ListSettings, path: str, now: datetime) -> str | None:
    parts = path.split("/")
    if len(parts) != 5:
        return None
    stamp, token = parts[3], parts[4]
    try:
        issued = datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)
    except ValueError:
        return None
    if not timedelta(0) <= now - issued <= timedelta(days=CONFIRM_DAYS):
        return None
    return read_address_token(ls.seed, "subscribe", token, stamp)


def _valid(address: str) -> bool:
    local, _, domain = address.rpartition("@")
    return (0 < len(address) <= ADDRESS_MAX and bool(local) and "." in domain
            and not any(c.isspace() or c in "<>,;\"()[]\\" for c in address))


def _request(game: "Game", ls: ListSettings, address: str, now: datetime) -> tuple[int, str]:
    if not _valid(address):
        return 400, "Please give one email address, like alice@example.org."
    with Session(game.db) as s:
        recent = s.exec(select(outbox.OutboxMessage.id).where(
            outbox.OutboxMessage.kind == "confirm",
            outbox.OutboxMessage.recipients == f'["{address}"]',
            outbox.OutboxMessage.created > outbox.iso(now - timedelta(hours=1)))).first()
        if recent is None:
            link = ls.url(confirm_path(ls, address, now))
            mail = machine_mail(ls, to=address, at=now, subject=f"Confirm your subscription to {ls.list_address}",
                                msgid=f"<confirm.{now:%Y%m%d%H%M%S}.{mac(ls.seed, 'confirm-id', address, 16)}@{ls.domain}>",
                                template="mail/confirm.txt", address=address, link=link, days=CONFIRM_DAYS)
            outbox.queue(s, 0, "confirm", mail, [address], ls.address, now)
            s.commit()
    return 200, f"A confirmation mail is on its way to {address}. Nothing happens until you confirm."


def _journal(game: "Game", ls: ListSettings, address: str, command: str, now: datetime) -> None:
    """Journal the confirmed change as an authenticated message from the address.

    The caller's processing loop applies it (``nomic serve`` processes after every journal write).
    """
    from nomic.game import Arrival
    mail = EmailMessage()
    mail["From"] = address
    mail["To"] = ls.address
    mail["Subject"] = command
    mail["Date"] = format_datetime(now)
    mail["Message-ID"] = f"<web.{command.lower()}.{now:%Y%m%d%H%M%S}.{mac(ls.seed, 'web-id', address, 16)}@{ls.domain}>"
    mail.set_content(f"{command}\n")
    raw = bytes(mail)
    meta = {"source": "web", "mail_from": None, "rcpt_to": [ls.address],
            "auth": {"authenticated": True, "method": "web",
                     "detail": f"{command.lower()} confirmed with a token sent to {address}"}}
    game.receive_many([Arrival(message_key(raw), raw, now, meta)])
    log.info("web: %s %s", command.lower(), address)
