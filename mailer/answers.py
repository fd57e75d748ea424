"""The answer mail: every authenticated message to the game gets one, threaded to it.

Never to unauthenticated mail, bounces, auto-replies (RFC 3834), list posts,
nor the game's own mail; and at most ``[answers] per_sender_per_hour`` to one
sender in any hour of receipt times (the rest are logged, not answered), so
a mail loop or a flood cannot make the game a spam cannon. The limit counts
the answers already in the outbox, which are derived from the journal in
order, so it is deterministic. Each answer is noted in ``answer_log``
(sender, time of receipt; indexed), so the count stays cheap however large
the outbox grows; the processor reads the last hour of it once a batch (mailer/ledger.py).
"""
from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from sqlmodel import Session

from engine import threads
from engine.events import Event
from engine.inputs import Message
from mailer import outbox
from mailer.compose import machine_mail, message_id, thread
from mailer.ledger import Ledger
from mailer.mailing import Mailing
from storage import iso

if TYPE_CHECKING:
    from storage import Entry

log = logging.getLogger("nomic.answers")


def answer(session: Session, out: Mailing, entry: "Entry", msg: Message,
           events: list[Event], about: tuple[str, ...]) -> None:
    """Queue the answer to ``msg`` (see the module docstring for when there is none); ``about``: the
    ruleset's event kinds whose ``number`` names the matter the answer is about."""
    cfg, ls = out.config, out.settings
    if not msg.authenticated or msg.automatic or msg.to_list or not msg.sender:
        return
    if msg.sender in (cfg.address, cfg.list_address):
        return
    limit, ledger = out.answers_per_hour, out.ledger or Ledger(session)
    if ledger.answers_after(msg.sender, iso(msg.at - timedelta(hours=1))) >= limit:
        log.warning("not answering journal entry %s: %s had %d answers in the last hour",
                    entry.seq, msg.sender, limit)
        return
    unread = set(msg.not_understood)
    outcomes = [e.data for e in events if e.kind == "outcome"
                and not (e.data.get("command") in unread and not e.data.get("ok"))]
    subject = msg.subject or "your message"
    mail = machine_mail(ls, to=msg.sender, at=msg.at, auto="auto-replied",
                        subject=subject if subject.lower().startswith("re:") else f"Re: {subject}",
                        msgid=message_id(ls, "answer", entry.seq or 0, entry.hash, sub=_about(out, msg, events, about)),
                        template="mail/answer.txt", outcomes=outcomes, not_understood=msg.not_understood,
                        state=out.state, member=out.state.subscriber(msg.sender))
    if not msg.message_id.startswith("sha256:"):  # a message without a Message-ID has no thread
        thread(mail, msg.message_id, list(reversed(msg.references)))
    outbox.queue(session, entry.seq or 0, "answer", mail, [msg.sender], cfg.address, msg.at)
    ledger.answered(msg.sender, iso(msg.at))
    if out.ledger is None:  # not the processor's: written now
        ledger.entry_done(stored=True)
        ledger.write()


def _about(out: Mailing, msg: Message, events: list[Event], about: tuple[str, ...]) -> int | None:
    """The matter the answer is about (its Message-ID says so), if any."""
    number = next((e.data.get("number") for e in events if e.kind in about), None)
    if number is None:
        number = threads.matter_of(out.state, msg.references, out.config.address)
    return number

