"""Building the machine mail every composer sends: headers first, a Jinja-rendered body."""
from __future__ import annotations

from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

from mailer.listconfig import ListSettings
from nomic.render import render

SCRIBE_NAME = "The Humble Scribe"


def message_id(ls: ListSettings, kind: str, seq: int, hash_: str, sub: int | None = None) -> str:
    """``<sub{N}.{kind}.{seq}.{hash}@{domain}>`` for mail about submission N, else without ``sub``."""
    head = f"sub{sub}." if sub is not None else ""
    return f"<{head}{kind}.{seq}.{hash_[:16]}@{ls.domain}>"


def machine_mail(ls: ListSettings, *, to: str, subject: str, at: datetime, msgid: str,
                 template: str, **context) -> EmailMessage:
    """A mail from THS, never to be answered automatically (RFC 3834)."""
    mail = EmailMessage()
    mail["From"] = formataddr((SCRIBE_NAME, ls.address))
    mail["To"] = to
    mail["Subject"] = subject
    mail["Date"] = format_datetime(at.astimezone(timezone.utc))
    mail["Message-ID"] = msgid
    mail["Auto-Submitted"] = "auto-generated"
    mail.set_content(render(template, ls=ls, **context))
    return mail


def list_headers(mail: EmailMessage, ls: ListSettings) -> None:
    """RFC 2369 and 2919 headers shared by every copy (the per-recipient unsubscribe is added when sending)."""
    mail["List-Id"] = ls.list_id_header
    mail["List-Post"] = f"<mailto:{ls.list_address}>"
    mail["List-Help"] = f"<mailto:{ls.address}?subject=help>"
    mail["List-Subscribe"] = f"<mailto:{ls.address}?subject=subscribe>" + (
        f", <{ls.url('subscribe.html')}>" if ls.site_url else "")
    if ls.site_url:
        mail["List-Archive"] = f"<{ls.archive_url}>"
    mail["Precedence"] = "list"
    mail["X-Loop"] = ls.list_address
