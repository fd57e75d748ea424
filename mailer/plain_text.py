"""A plain text body set as ``EmailMessage.set_content`` sets it, without its header parsing.

The one place that reaches into the email package's internals: ``set_text`` asks the package's
private ``email.contentmanager._encode_text`` which transfer encoding ``set_content`` would choose
(``_encoded``: without its encoding a long text's first lines twice),
so that the body and its three headers come out byte for byte as ``set_content`` writes them, at a
fraction of the cost (set_content parses each header it adds: most of a mail's composing).
Tested on Python 3.11; tests/outbox/test_plain_headers.py holds
the two to the same bytes on every text hypothesis makes, so a change of the package fails there.
"""
from __future__ import annotations

import binascii
import copy
from email import contentmanager, quoprimime
from email.message import EmailMessage, Message
from email.policy import Policy
from typing import TypeVar

M = TypeVar("M", bound=Message)


def set_text(mail: EmailMessage, text: str) -> None:
    """``mail.set_content(text)`` for a mail with no Content-* header yet, the same headers and
    body, without the email package parsing the three headers it adds (most of its cost)."""
    cte, payload = _encoded(text, mail.policy)
    if not payload.isascii():  # 8bit: set_content's own way
        mail.set_content(text)
        return
    mail.set_raw("Content-Type", 'text/plain; charset="utf-8"')
    mail.set_raw("Content-Transfer-Encoding", cte)
    mail.set_payload(payload)
    if "MIME-Version" not in mail:
        mail.set_raw("MIME-Version", "1.0")


def _encoded(text: str, policy: Policy) -> tuple[str, str]:
    """``email.contentmanager._encode_text(text, "utf-8", None, policy)``: the transfer encoding
    ``set_content`` chooses, and the body in it. Where it chooses by the first ten lines of a longer
    text (quoted-printable or base64, its lines "\\n"), they are encoded once, not twice: the package
    encodes them to choose, then the whole text again. Quoted-printable encodes each line alone, so
    the whole is the ten lines' encoding followed by the rest's (``test_plain_headers`` holds the two
    to the package's)."""
    lines, width = text.encode("utf-8").splitlines(), policy.max_line_length
    if (len(lines) <= 10 or policy.linesep != "\n" or width is None
            or max(map(len, lines)) <= width and (text.isascii() or policy.cte_type == "8bit")):
        return contentmanager._encode_text(text, "utf-8", None, policy)  # type: ignore[attr-defined,no-any-return]
    head = b"\n".join(lines[:10]) + b"\n"
    head_qp = quoprimime.body_encode(head.decode("latin-1"), width)
    if len(head_qp) > len(binascii.b2a_base64(head)):  # (the package's choice, made from the same ten lines)
        return contentmanager._encode_text(text, "utf-8", "base64", policy)  # type: ignore[attr-defined,no-any-return]
    rest = b"\n".join(lines[10:]) + b"\n"
    return "quoted-printable", head_qp + quoprimime.body_encode(rest.decode("latin-1"), width)


def stored_payload(mail: Message) -> object:
    """The payload as stored: for a mail whose payload is ASCII text, what ``mail.get_payload()``
    returns, without its parse of the Content-Transfer-Encoding header (a policy.default mail parses
    it at each read: a tenth of composing an answer); a list for a multipart mail. (Text that is not
    ASCII may be stored otherwise than ``get_payload`` reads it: readers here take ASCII alone.)"""
    return mail._payload  # type: ignore[attr-defined]


def copied(mail: M) -> M:
    """``copy.deepcopy(mail)``. A mail of one part is copied as deepcopy copies it, without its walk
    of every header string and of the policy: its header list and defects are new lists, the rest
    (strings, which no edit changes in place, and its policy and charset, which are replaced, never
    edited) shared (a list copy's deepcopy was a seventh of making it). A multipart mail is deep-copied."""
    if mail.is_multipart():
        return copy.deepcopy(mail)
    made = copy.copy(mail)
    made._headers = list(mail._headers)  # type: ignore[attr-defined]
    made.defects = list(mail.defects)
    return made
