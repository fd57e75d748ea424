"""A message's header section read into a compat32 ``Message``, as ``BytesHeaderParser`` reads it.

Intake reads only the header section of each message (mailer.message.parse_head), and the email
package's feed parser spent two thirds of that on line-by-line machinery. A plain section is read
here instead: lines ended by CRLF and nothing else, the last one empty, every other one a field
("Name:", the name printable ASCII) or a field's continuation (a space or tab first), the first no
continuation. That gives the fields the feed parser gives, each value as the compat32 policy makes
it, and no defects. Any other section (bare CR or LF, a "From " line, a line that is no field, no
blank line) is the feed parser's. tests/mailer/test_header_section.py holds the two to the same
``Message`` on every section hypothesis makes.
"""
from __future__ import annotations

import re
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser
from typing import TypeVar

M = TypeVar("M", bound=Message)

# A field: its name (printable ASCII but the colon), the colon, white space, then its value: the rest
# of its line and its continuation lines (a space or tab first), each line ended by CRLF, no bare CR or LF.
_FIELD = r"([\x21-\x39\x3b-\x7e]++):[ \t]*+([^\r\n]*+(?:\r\n[ \t][^\r\n]*+)*+)\r\n"
_FIELDS = re.compile(_FIELD)
_SECTION = re.compile(rf"(?:{_FIELD})++\r\n")  # a plain section: fields, then the blank line


def read_header_section(section: bytes) -> Message:
    """``BytesHeaderParser(policy=compat32).parsebytes(section)``, a plain section read without it."""
    msg = plain_section(section, Message)
    return BytesHeaderParser(policy=policy.compat32).parsebytes(section) if msg is None else msg


def plain_section(section: bytes, factory: type[M]) -> M | None:
    """A plain ``section`` read into a new compat32 ``factory`` message as the header parser reads
    it (mailer.message reads a whole message of one part so); None for any other section."""
    fields = _plain_fields(section.decode("ascii", "surrogateescape"))  # (as the bytes parser decodes it)
    if fields is None:
        return None
    msg = factory(policy=policy.compat32)
    for name, value in fields:
        msg.set_raw(name, value)
    msg.set_payload("")  # what follows the blank line: nothing, in a section
    return msg


def _plain_fields(text: str) -> list[tuple[str, str]] | None:
    """Each field's (name, value) as ``compat32.header_source_parse`` makes them of its lines (the
    value after the colon, white space first stripped, continuation lines kept with the CRLFs between
    them); None unless the section is plain. Two scans by ``_SECTION`` and ``_FIELDS`` (in C), not a
    loop over the lines; their quantifiers are possessive, so no input makes them backtrack."""
    if _SECTION.fullmatch(text) is None:
        return None
    return _FIELDS.findall(text)
