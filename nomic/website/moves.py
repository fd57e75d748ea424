"""mailto: links that fill in a move (a vote, a judgment, the call of a vote, a support or an
objection) on a page about what it acts on: the subject and the line, as the Scribe reads them."""
from __future__ import annotations

from nomic.website.text import mailto


def links(address: str, subject: str, lines: tuple[str, ...]) -> list[dict[str, str]]:
    """One link a line: ``label`` (the line) and ``href``."""
    return [{"label": line, "href": mailto(address, subject, line)} for line in lines]
