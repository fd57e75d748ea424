"""Player text to safe HTML, and the small text helpers the pages share.

Everything a player wrote (titles, proposal texts, list posts, names) goes
through markdown-it-py with raw HTML disabled and then through nh3, whose
allow-list drops every script, event handler, style and unknown URL scheme.
Mail relies on line breaks, so single newlines are kept as <br>.

``Text`` remembers what it rendered by the source text: a long game's pages repeat
the same titles and texts, and the daemon rebuilds the site in one process every
few seconds with the same ``Text`` (its ``SiteMemory``). Markup is an immutable
str, so sharing results is safe.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from datetime import datetime
from functools import lru_cache
from urllib.parse import quote

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

TAGS = {"p", "br", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "a",
        "h1", "h2", "h3", "h4", "h5", "h6", "hr"}
INLINE_TAGS = {"em", "strong", "code", "br"}
SCHEMES = {"http", "https", "mailto"}
# Text that markdown-it and nh3 give back unchanged: no markup, entity, escape, line break or HTML
# metacharacter (tests/site/test_text.py checks this against the full path).
PLAIN = re.compile(r"[A-Za-z0-9 .,;:?!'\"()/+=#%-]*")


def _clean(html: str, tags: set[str]) -> Markup:
    return Markup(nh3.clean(html, tags=tags, attributes={"a": {"href", "title"}},
                            url_schemes=SCHEMES, link_rel="nofollow noopener noreferrer ugc"))


class Text:
    """Player text as sanitised HTML, each result remembered (least recently used first out)."""

    def __init__(self, blocks: int = 4096, lines: int = 32768) -> None:
        self.md = MarkdownIt("commonmark", {"html": False, "breaks": True, "linkify": False})
        self.markdown = lru_cache(maxsize=blocks)(self._markdown)
        self.inline = lru_cache(maxsize=lines)(self._inline)

    def _markdown(self, text: str) -> Markup:
        """A block of player text (a proposal, a rule, a list post) as sanitised HTML."""
        return _clean(self.md.render(text or ""), TAGS)

    def _inline(self, text: str) -> Markup:
        """A one-line piece of player text (a title, a subject): emphasis and code only, no links."""
        if PLAIN.fullmatch(text or ""):
            return Markup(text or "")
        return _clean(self.md.renderInline(text or ""), INLINE_TAGS)


def slug(text: str) -> str:
    """A page name from a player's name: its letters and digits in any script, lower case, dashes
    between ("Zoë Ærø" -> "zoë-ærø", not "zo-r"); NFC, so one name always makes one slug."""
    s = re.sub(r"[\W_]+", "-", unicodedata.normalize("NFC", text).lower()).strip("-")
    return s[:40].strip("-") or "x"


def when(t: datetime | None) -> str:
    """"2026-01-29 01:00 UTC" (isoformat: strftime took twice as long, 4% of a site's build)."""
    return t.isoformat(" ", "minutes")[:16] + " UTC" if t else ""


def iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


def obfuscate(address: str) -> str:
    """Shown addresses read as addresses to people, less so to harvesters."""
    return address.replace("@", " at ").replace(".", " dot ")


def mailto(address: str, subject: str = "", body: str = "") -> str:
    params = [f"{k}={quote(v, safe='')}" for k, v in (("subject", subject), ("body", body)) if v]
    return f"mailto:{address}" + ("?" + "&".join(params) if params else "")


def word_diff(old: str, new: str) -> Markup:
    """The change from ``old`` to ``new`` word by word, as <del>/<ins> runs."""
    a, b = re.split(r"(\s+)", old), re.split(r"(\s+)", new)
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(str(escape("".join(a[i1:i2]))))
            continue
        if i2 > i1:
            out.append(f"<del>{escape(''.join(a[i1:i2]))}</del>")
        if j2 > j1:
            out.append(f"<ins>{escape(''.join(b[j1:j2]))}</ins>")
    return Markup("".join(out))
