"""An outgoing mail as a person reads it: ``nomic outbox --show N`` and ``nomic outbox --json``'s ``text``."""
from __future__ import annotations

from email import policy
from email.message import MIMEPart
from email.parser import BytesParser

from mailer.message import html_to_text

# The headers of a mail inside a MIME digest worth showing.
_INNER_HEADERS = ("From", "Date", "Subject")


def mail_text(raw: bytes) -> str:
    """Every header (decoded, unfolded), a blank line, then the body as text.

    Of alternatives the plain text is shown; each message of a MIME digest is
    shown with its From, Date and Subject; other attachments by type and name.
    """
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    head = "\n".join(f"{name}: {_unfolded(value)}" for name, value in msg.items())
    return f"{head}\n\n{_body(msg)}".rstrip("\n") + "\n"


def _unfolded(value: object) -> str:
    return " ".join(str(value).split())


def _body(part: MIMEPart) -> str:
    ctype = part.get_content_type()
    if ctype == "message/rfc822":
        inner = part.get_content()
        head = "\n".join(f"{h}: {_unfolded(inner[h])}" for h in _INNER_HEADERS if inner[h] is not None)
        return f"{head}\n\n{_body(inner)}"
    if ctype == "multipart/alternative":
        return _body(part.get_body(("plain", "html")) or next(part.iter_parts()))
    if part.is_multipart():
        return "\n".join(_body(p).rstrip("\n") + "\n" for p in part.iter_parts())
    if part.is_attachment() or part.get_content_maintype() != "text":
        return f"[attachment: {ctype} {part.get_filename() or ''}]".replace(" ]", "]") + "\n"
    text = part.get_content()
    return html_to_text(text).text if ctype == "text/html" else text
