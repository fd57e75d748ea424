"""The sender: hands queued deliveries to the SMTP relay (``[outbox] relay = "HOST:PORT"``).

``run_once(game)`` is one pass (``nomic send``); ``run_forever(game, stop)``
is what ``nomic serve`` runs. Several senders may run at once: a delivery
is taken with a compare-and-set claim.

What survives a crash, exactly
------------------------------
Each delivery is committed three times: ``claimed`` (before connecting),
``sending`` (after the relay accepted MAIL FROM and RCPT TO, just before
DATA), and ``sent``/``failed``/``queued`` (right after the relay's answer to
the end of DATA). The next pass finds the deliveries of a dead sender (its
pid is gone on this host, or its claim is older than ``claim_lease``):

- ``claimed``: the relay never got the message: it goes back to the queue.
  A crash before DATA therefore loses nothing and doubles nothing.
- ``sending``: the crash fell inside the DATA exchange, between our first
  byte of DATA and our commit of the relay's answer, and nobody can know
  whether the relay took the message. ``[outbox] in_doubt`` decides:
  ``"resend"`` (the default: at-least-once; the one message that was in
  flight may arrive twice, with the same Message-ID and the same bytes, so
  mail clients and archives that deduplicate by Message-ID show it once) or
  ``"hold"`` (at-most-once: it is marked failed as "in doubt" for the
  operator to check in the relay's log). The window is one message per
  sender and lasts from the end of DATA to one database commit.

Temporary failures (4xx, a dropped or refused connection) go back to the
queue with a doubling back-off (``retry_base`` seconds, at most
``retry_cap``) until ``max_attempts``; a 5xx answer fails the delivery at once.
Any other error while handing over one delivery is that delivery's alone: it
is retried the same way and the pass goes on. An address that is not ASCII
goes with SMTPUTF8 (RFC 6531) when the relay offers it, and fails at once
when it does not.
"""
from __future__ import annotations

import logging
import os
import re
import smtplib
import socket
import threading
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from sqlalchemy import update
from sqlmodel import Session, or_, select

from mailer import bounces, headers
from mailer.listconfig import ListSettings, settings
from mailer.outbox import Delivery, OutboxMessage, iso, settle
from mailer.tokens import stamped_token

if TYPE_CHECKING:
    from mailer.ports import GameHandle

log = logging.getLogger("nomic.sender")
HOST = socket.gethostname()
CRLF = re.compile(rb"\r?\n")
HEAD_END = re.compile(rb"\r?\n\r?\n")  # the blank line after the header section
ERROR_MAX = 1000  # characters of a last_error


@dataclass(frozen=True)
class SenderConfig:
    relay: str
    timeout: float
    max_attempts: int
    retry_base: int
    retry_cap: int
    claim_lease: int
    in_doubt: str

    @classmethod
    def of(cls, game: "GameHandle") -> "SenderConfig":
        o = game.config.section("outbox")
        in_doubt = str(o.get("in_doubt", "resend"))
        if in_doubt not in ("resend", "hold"):
            raise ValueError(f'[outbox] in_doubt must be "resend" or "hold", not {in_doubt!r}')
        relay = str(o.get("relay", ""))
        if relay and not relay.rpartition(":")[2].isdigit():
            raise ValueError(f'[outbox] relay must be "HOST:PORT", not {relay!r}')
        return cls(relay=relay, timeout=float(o.get("timeout", 30)),
                   max_attempts=int(o.get("max_attempts", 8)), retry_base=int(o.get("retry_base", 60)),
                   retry_cap=int(o.get("retry_cap", 6 * 3600)), claim_lease=int(o.get("claim_lease", 600)),
                   in_doubt=in_doubt)

    def host_port(self) -> tuple[str, int]:
        host, _, port = self.relay.rpartition(":")
        return host or "localhost", int(port or 25)


class Temporary(Exception):
    """Try again later."""


class Unreachable(Temporary):
    """The relay cannot be reached, or dropped the connection: try again later, and end the pass."""


class Permanent(Exception):
    """Never try again."""


class Doubt(Exception):
    """The connection failed during DATA: the relay may have the message."""


def _alive(claim: str | None, mine: str) -> bool:
    """Could the sender holding ``claim`` still be at work? (``mine``: this pass's own claim)"""
    host, _, rest = (claim or "").partition(":")
    pid = rest.partition(":")[0]
    if host != HOST or not pid.isdigit():
        return True  # another machine's sender: only the lease can tell
    if int(pid) == os.getpid():
        return claim == mine  # passes in one process run one after another
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover(session: Session, cfg: SenderConfig, now: datetime, mine: str) -> int:
    """Release the deliveries of senders that died; returns how many."""
    stale = [d for d in session.exec(select(Delivery).where(Delivery.status.in_(("claimed", "sending")))).all()  # type: ignore[attr-defined]
             if not _alive(d.claim, mine) or (d.claimed_at or "") < iso(now - timedelta(seconds=cfg.claim_lease))]
    for d in stale:
        if d.status == "sending" and cfg.in_doubt == "hold":
            d.status, d.last_error = "failed", "in doubt: the sender died during DATA; not resent (in_doubt = hold)"
            log.warning("delivery %s to %s is in doubt and held", d.id, d.rcpt)
        else:
            if d.status == "sending":
                d.last_error = "in doubt: the sender died during DATA; resent (in_doubt = resend)"
                log.warning("delivery %s to %s is in doubt and will be resent", d.id, d.rcpt)
            d.status = "queued"
        d.claim = d.claimed_at = None
        session.add(d)
        session.flush()
        settle(session, d.outbox_id, d.last_error)
    session.commit()
    return len(stale)


def personalize(raw: bytes, row: OutboxMessage, rcpt: str, ls: ListSettings) -> bytes:
    """The bytes for one recipient: list mail gets its RFC 8058 one-click unsubscribe.

    The link is stamped with the time the mail was composed (``row.created``), so
    mailer/web.py can refuse it once it is old or older than the recipient's latest
    subscription, and every attempt at one delivery sends the same bytes.
    """
    if not row.personal:
        return raw
    links = [f"<mailto:{ls.address}?subject=unsubscribe>"]
    if ls.site_url:
        issued = datetime.fromisoformat(row.created.replace("Z", "+00:00"))
        links.insert(0, f"<{ls.url('unsubscribe/' + stamped_token(ls.seed, 'unsubscribe', rcpt, issued))}>")
    head = "List-Unsubscribe: " + ",\n ".join(links) + "\n"
    if ls.site_url:
        head += "List-Unsubscribe-Post: List-Unsubscribe=One-Click\n"
    return head.encode() + raw


class Relay:
    """One SMTP connection to the relay, opened on first use."""

    def __init__(self, cfg: SenderConfig):
        self.cfg = cfg
        self.smtp: smtplib.SMTP | None = None

    def send(self, mail_from: str, rcpt: str, data: bytes, before_data) -> None:
        try:
            if self.smtp is None:
                host, port = self.cfg.host_port()
                self.smtp = smtplib.SMTP(host, port, timeout=self.cfg.timeout)
                self.smtp.ehlo_or_helo_if_needed()
            options = self._options(self.smtp, mail_from, rcpt, data)
            reply = self.smtp.mail(mail_from, options)
            if reply[0] == 250:
                reply = self.smtp.rcpt(rcpt)
        except (OSError, smtplib.SMTPException) as exc:
            self.close()
            raise Unreachable(f"relay {self.cfg.relay}: {exc}") from None
        if reply[0] not in (250, 251):
            self._reset()
            _refused(*reply)
        before_data()
        try:
            code, resp = self.smtp.data(CRLF.sub(b"\r\n", data))  # smtplib leaves bytes' line ends alone
        except smtplib.SMTPDataError as exc:  # an answer: not in doubt
            self._reset()
            _refused(exc.smtp_code, exc.smtp_error)
        except Exception as exc:  # whatever broke, the relay may have the message
            self.close()
            raise Doubt(f"relay {self.cfg.relay}: {exc} during DATA") from None
        if code != 250:
            self._reset()
            _refused(code, resp)

    def _options(self, smtp: smtplib.SMTP, mail_from: str, rcpt: str, data: bytes) -> list[str]:
        """SMTPUTF8 (RFC 6531) for an address that is not ASCII, which cannot go without it, and
        for UTF-8 headers (RFC 6532) when the relay offers it."""
        offered = smtp.has_extn("smtputf8")
        if not (mail_from.isascii() and rcpt.isascii()):
            if not offered:
                raise Permanent(f"the address {rcpt} is not ASCII and the relay {self.cfg.relay} "
                                "does not offer SMTPUTF8 (RFC 6531), so it cannot be sent")
            return ["SMTPUTF8"]
        return ["SMTPUTF8"] if offered and not HEAD_END.split(data, 1)[0].isascii() else []

    def _reset(self) -> None:
        try:
            if self.smtp is not None:
                self.smtp.rset()
        except (OSError, smtplib.SMTPException):
            self.close()

    def close(self) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except (OSError, smtplib.SMTPException):
                self.smtp.close()
            self.smtp = None


def _refused(code: int, text: bytes) -> None:
    message = f"{code} {text.decode(errors='replace')}"
    raise (Permanent if code >= 500 else Temporary)(message)


def run_once(game: "GameHandle", now: datetime | None = None) -> int:
    """One pass over the due deliveries; returns how many were sent.

    A pass stops early when the relay cannot be reached (everything waits for
    the next pass), so a relay outage costs one attempt, not one per delivery.
    """
    cfg = SenderConfig.of(game)
    if not cfg.relay:
        log.warning("no [outbox] relay configured: mail stays queued")
        return 0
    now = now or datetime.now(timezone.utc)
    ls = settings(game)
    claim = f"{HOST}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    relay = Relay(cfg)
    sent = 0
    try:
        with Session(game.db, expire_on_commit=False) as s:
            recover(s, cfg, now, claim)
            for d in _due(s, now):
                if not _claim(s, d, claim, now):
                    continue
                outcome = _deliver(s, relay, cfg, ls, d, now)
                sent += outcome == "sent"
                if outcome == "unreachable":
                    break
    finally:
        relay.close()
    return sent


def _due(s: Session, now: datetime, batch: int = 200):
    last = 0
    while True:
        rows = s.exec(select(Delivery.id).where(
            Delivery.status == "queued", Delivery.id > last,
            or_(Delivery.next_attempt == "", Delivery.next_attempt <= iso(now)))
            .order_by(Delivery.id).limit(batch)).all()
        if not rows:
            return
        yield from rows
        last = rows[-1]


def _claim(s: Session, delivery_id: int, claim: str, now: datetime) -> bool:
    """Compare-and-set: only one sender gets a queued delivery."""
    result = s.exec(update(Delivery).where(Delivery.id == delivery_id, Delivery.status == "queued")  # type: ignore[call-overload]
                    .values(status="claimed", claim=claim, claimed_at=iso(now), attempts=Delivery.attempts + 1))
    s.commit()
    return result.rowcount == 1


def _deliver(s: Session, relay: Relay, cfg: SenderConfig, ls: ListSettings, delivery_id: int,
             now: datetime) -> str:
    d = s.get(Delivery, delivery_id, populate_existing=True)
    row = s.get(OutboxMessage, d.outbox_id) if d else None
    s.commit()  # hold no database lock while the relay talks: intake must not wait for it
    if d is None or row is None:
        return "gone"

    def before_data() -> None:
        d.status = "sending"
        s.add(d)
        s.commit()

    try:
        relay.send(bounces.verp(ls, d.rcpt), d.rcpt, personalize(row.raw, row, d.rcpt, ls), before_data)
    except Permanent as exc:
        return _finish(s, d, "failed", str(exc))
    except Doubt as exc:
        if cfg.in_doubt == "hold":
            return _finish(s, d, "failed", f"in doubt: {exc}; not resent (in_doubt = hold)")
        return _retry(s, cfg, d, now, f"in doubt: {exc}; will be resent")
    except Temporary as exc:
        outcome = _retry(s, cfg, d, now, str(exc))
        return "unreachable" if isinstance(exc, Unreachable) else outcome
    except Exception as exc:  # this delivery's own trouble (its bytes, its address): never the whole pass's
        log.exception("delivery %s to %s", d.id, d.rcpt)
        relay.close()  # the SMTP dialogue is in an unknown state
        return _retry(s, cfg, d, now, f"{type(exc).__name__}: {exc}")
    d.sent_at = iso(now)
    return _finish(s, d, "sent", None)


def _retry(s: Session, cfg: SenderConfig, d: Delivery, now: datetime, error: str) -> str:
    if d.attempts >= cfg.max_attempts:
        return _finish(s, d, "failed", f"gave up after {d.attempts} attempts: {error}")
    wait = min(cfg.retry_cap, cfg.retry_base * 2 ** (d.attempts - 1))
    d.next_attempt = iso(now + timedelta(seconds=wait))
    log.info("delivery %s to %s deferred until %s: %s", d.id, d.rcpt, d.next_attempt, error)
    return _finish(s, d, "queued", error)


def _finish(s: Session, d: Delivery, status: str, error: str | None) -> str:
    error = headers.text(error, ERROR_MAX) if error else None  # one line (and no NUL: PostgreSQL text)
    d.status, d.claim, d.claimed_at = status, None, None
    d.last_error = error or d.last_error  # a sent delivery keeps the trouble it had on the way
    s.add(d)
    s.flush()
    settle(s, d.outbox_id, error)
    s.commit()
    if status == "failed":
        log.warning("delivery %s to %s failed: %s", d.id, d.rcpt, error)
    return status


def run_forever(game: "GameHandle", stop: threading.Event, interval: float = 5.0) -> None:
    """The daemon's sender loop: a pass, then wait ``interval`` seconds or until ``stop`` is set."""
    while not stop.is_set():
        try:
            run_once(game)
        except Exception:  # a bad pass must not end the daemon's sender
            log.exception("sender pass failed")
        stop.wait(interval)
