"""The answer mail: every authenticated message to the game gets one, threaded to it."""
from __future__ import annotations

from datetime import timezone
from email.message import EmailMessage
from email.utils import format_datetime
from typing import TYPE_CHECKING

from sqlmodel import Session

from engine.events import Event
from engine.inputs import Message
from mailer import outbox
from nomic.render import render

if TYPE_CHECKING:
    from nomic.game import Game
    from nomic.storage import JournalEntry


def answer(session: Session, game: "Game", entry: "JournalEntry", msg: Message,
           events: list[Event]) -> None:
    """Every authenticated message to the game gets an answer, threaded to it.

    Never to unauthenticated mail, bounces or auto-replies (RFC 3834), nor to list posts.
    """
    if not msg.authenticated or msg.automatic or msg.to_list or not msg.sender:
        return
    outcomes = [e.data for e in events if e.kind == "outcome"]
    cfg = game.engine_config
    body = render("mail/answer.txt", outcomes=outcomes, state=game.state(),
                  game_name=game.config.game["name"], site_url=game.config.game.get("site_url", ""))
    mail = EmailMessage()
    mail["From"] = f"The Humble Scribe <{cfg.address}>"
    mail["To"] = msg.sender
    subject = msg.subject or "your message"
    mail["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    mail["Date"] = format_datetime(msg.at.astimezone(timezone.utc))
    mail["Message-ID"] = f"<answer.{entry.seq}.{entry.hash[:16]}@{cfg.address.rpartition('@')[2]}>"
    mail["In-Reply-To"] = f"<{msg.message_id}>"
    mail["References"] = " ".join(f"<{r}>" for r in [*reversed(msg.references), msg.message_id])
    mail["Auto-Submitted"] = "auto-replied"
    mail.set_content(body)
    outbox.queue(session, entry.seq or 0, "answer", mail, [msg.sender], cfg.address, msg.at)
