"""``nomic poll``: intake from an IMAP mailbox, for games without their own MTA.

Each round fetches what is new (``BODY.PEEK[]``, so fetching marks nothing),
journals it in one transaction with its UIDVALIDITY and UID in the journal
meta (source "imap"; a message that cannot be read is journaled all the same,
and its fold records it as a fault: ``admit``), and only then marks it \\Seen or moves it to
``[imap] processed_folder``; a crash in between fetches it again and the
journal reports a duplicate. Then the new entries are processed (the engine,
answers), as ``nomic ingest`` does; the clock stays with ``nomic serve`` or
``nomic tick``.

Between rounds it waits in IDLE when the server offers it (renewed every
``idle_renew`` seconds, under the 29 minutes of RFC 2177), else polls every
``poll_interval`` seconds. Every network operation has ``timeout``. A dead
connection (imapclient reports EOF during IDLE as an empty result, so every
IDLE ends with a NOOP that fails on a dead socket) is dropped and a new one
made, with exponential back-off.
"""
from __future__ import annotations

import logging
import socket
import ssl
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError
from sqlmodel import Session

import storage
from storage.settings.common import ImapSection

if TYPE_CHECKING:
    from mailer.inbox import Inbox

log = logging.getLogger("nomic.imap")
FETCH_CHUNK = 100
MAX_BACKOFF = 300.0
NETWORK_ERRORS = (IMAPClientError, OSError, socket.timeout, ssl.SSLError)


class PollError(Exception):
    """The poller cannot run (configuration, login)."""


def secret(cfg: ImapSection, game_dir: Path) -> str:
    """The login password: ``password_file``'s first line (relative to the game directory), else ``password``."""
    if cfg.password_file:
        return (game_dir / cfg.password_file).read_text().strip()
    return cfg.password


def connect(cfg: ImapSection, password: str) -> IMAPClient:
    client = IMAPClient(cfg.host, port=cfg.port, ssl=cfg.ssl, timeout=cfg.timeout)
    try:
        if not cfg.ssl and cfg.starttls and b"STARTTLS" in client.capabilities():
            client.starttls(ssl.create_default_context())
        client.login(cfg.user, password)
    except Exception:
        _close(client)
        raise
    return client


def _close(client: IMAPClient) -> None:
    try:
        client.logout()
    except Exception:  # already dead: nothing more to say to it
        try:
            client.shutdown()
        except Exception:
            pass


class Poller:
    """One mailbox, one game: fetch, journal, mark, process."""

    def __init__(self, inbox: "Inbox", cfg: ImapSection, process: Callable[[], object]):
        self.inbox = inbox
        self.cfg = cfg
        self.process = process

    def round(self, client: IMAPClient) -> int:
        """Journal every message waiting in the mailbox; returns how many were new."""
        uidvalidity = int(client.select_folder(self.cfg.mailbox)[b"UIDVALIDITY"])
        criteria = ["ALL"] if self.cfg.processed_folder else ["UNSEEN"]
        uids = sorted(client.search(criteria))
        new = 0
        for start in range(0, len(uids), FETCH_CHUNK):
            new += self._take(client, uidvalidity, uids[start:start + FETCH_CHUNK])
        if new:
            self.process()
        return new

    def _take(self, client: IMAPClient, uidvalidity: int, uids: list[int]) -> int:
        fetched = client.fetch(uids, ["BODY.PEEK[]"])
        at = datetime.now(timezone.utc)
        arrivals = []
        for uid in uids:
            raw = fetched.get(uid, {}).get(b"BODY[]")
            if raw is None:  # expunged meanwhile
                continue
            extra = {"imap": {"mailbox": self.cfg.mailbox, "uidvalidity": uidvalidity, "uid": uid}}
            arrivals.append(self.inbox.admit(raw, at, source="imap", extra=extra))
        receipts = self.inbox.receive_many(arrivals)
        with Session(self.inbox.journal.db) as s:  # where the poller got to, for the operator
            storage.set_meta(s, f"imap:{self.cfg.mailbox}", f"{uidvalidity}:{uids[-1]}")
            s.commit()
        done = [a.meta["imap"]["uid"] for a in arrivals]
        self._mark(client, done)
        for arrival, receipt in zip(arrivals, receipts):
            log.info("UID %s: %s journal entry %s (%s)", arrival.meta["imap"]["uid"],
                     "duplicate of" if receipt.status == "duplicate" else "new", receipt.seq, receipt.key)
        return sum(r.status == "new" for r in receipts)

    def _mark(self, client: IMAPClient, uids: list[int]) -> None:
        """Only after the journal commit: \\Seen, or moved to the processed folder."""
        if not uids:
            return
        folder = self.cfg.processed_folder
        if not folder:
            client.add_flags(uids, [b"\\Seen"], silent=True)
            return
        if not client.folder_exists(folder):
            client.create_folder(folder)
        if client.has_capability("MOVE"):
            client.move(uids, folder)
        else:
            client.copy(uids, folder)
            client.delete_messages(uids, silent=True)
            if client.has_capability("UIDPLUS"):
                client.uid_expunge(uids)
            else:
                client.expunge()

    def wait(self, client: IMAPClient) -> None:
        """Until the mailbox changes (IDLE) or ``poll_interval``; raises if the connection died."""
        if not client.has_capability("IDLE"):
            time.sleep(self.cfg.poll_interval)
            client.noop()
            return
        client.idle()
        try:
            client.idle_check(timeout=self.cfg.idle_renew)
        finally:
            client.idle_done()
        client.noop()  # an EOF during IDLE looks like "nothing happened": this one raises


def run(inbox: "Inbox", cfg: ImapSection, game_dir: Path, process: Callable[[], object], once: bool = False) -> int:
    """``nomic poll``: poll until SIGTERM/SIGINT; with ``once``, one round. Returns new messages.
    Each round's new mail is journaled through ``inbox``, then ``process`` folds it."""
    logging.getLogger("nomic").setLevel(logging.INFO)
    if not cfg.host or not cfg.user:
        raise PollError("set [imap] host and user in game.toml to poll a mailbox")
    password = secret(cfg, game_dir)
    poller = Poller(inbox, cfg, process)
    backoff = 1.0
    total = 0
    while True:
        try:
            client = connect(cfg, password)
        except NETWORK_ERRORS as exc:
            if once:
                raise PollError(f"cannot reach {cfg.host}:{cfg.port}: {exc}") from None
            log.warning("cannot reach %s:%s (%s); retrying in %.0f s", cfg.host, cfg.port, exc, backoff)
            time.sleep(backoff)
            backoff = min(MAX_BACKOFF, backoff * 2)
            continue
        try:
            while True:
                total += poller.round(client)
                backoff = 1.0
                if once:
                    return total
                poller.wait(client)
        except NETWORK_ERRORS as exc:
            if once:
                raise PollError(f"IMAP connection failed: {exc}") from None
            log.warning("IMAP connection lost (%s); reconnecting", exc)
        except Exception as exc:  # e.g. the journal cannot be written: nothing was marked
            if once:
                raise PollError(f"cannot journal the mail: {exc}") from None
            log.exception("polling failed; nothing was marked; retrying in %.0f s", backoff)
            time.sleep(backoff)
            backoff = min(MAX_BACKOFF, backoff * 2)
        finally:
            _close(client)

