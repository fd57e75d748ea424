"""The archive of the public mail, as public-inbox keeps one: a page per message at
``m/<message-id>/`` with the message as distributed beside it (``message.eml``), an Atom feed per
thread, and one mbox a month of the list (``archive/YYYY-MM.mbox``) and of the game's own list
mail (``archive/game-YYYY-MM.mbox``).

A message never changes once sent, so its page, file and month are keyed by the outbox rows
they hold: a rebuild writes only what a new message adds to.
"""
from __future__ import annotations

import re
import time
from collections import defaultdict
from collections.abc import Iterator
from functools import partial

from markupsafe import escape

from nomic.website.feeds import base, tag
from nomic.website.model import SiteModel
from nomic.website.pages import Family, Page, RawFile
from nomic.website.public_mail import GAME, LIST, PublicMail, href_of, path_of
from nomic.website.text import iso, when

FEED_LATEST = 50  # entries in a thread's feed


def roots(mail: list[PublicMail]) -> dict[str, str]:
    """Each message's thread: the Message-ID of its first message. A message joins the thread of the
    first message it references, or of an earlier message that referenced the same one (a matter's
    announcements all refer to the proposal's mail, which is not public itself)."""
    root: dict[str, str] = {}
    for msg in mail:
        thread = next((root[r] for r in msg.references if r in root), msg.message_id)
        root.setdefault(msg.message_id, thread)
        for r in msg.references:
            root.setdefault(r, thread)
    return root


def generate(m: SiteModel) -> Iterator[Page | Family | RawFile]:
    mail = _distinct(m.data.mail)
    root = roots(mail)
    threads: dict[str, list[PublicMail]] = defaultdict(list)
    for msg in mail:
        threads[root[msg.message_id]].append(msg)
    for msg in mail:
        yield RawFile(f"{path_of(msg.message_id)}/message.eml", msg.id, partial(getattr, msg, "raw"))
    yield Family("messages", "message.html", [f"{path_of(msg.message_id)}/index.html" for msg in mail],
                 [(msg.id, [t.id for t in threads[root[msg.message_id]]]) for msg in mail],
                 lambda i: _page(mail[i], threads[root[mail[i].message_id]]))
    for first, members in threads.items():
        yield _feed(m, first, members)
    yield from _mboxes(mail)


def _distinct(mail: list[PublicMail]) -> list[PublicMail]:
    """The first copy of each Message-ID (the game may send one mail in two copies, e.g. one to its
    officer)."""
    seen: set[str] = set()
    out = []
    for msg in mail:
        if msg.message_id not in seen:
            seen.add(msg.message_id)
            out.append(msg)
    return out


def _page(msg: PublicMail, thread: list[PublicMail]) -> dict:
    return {"subject": msg.subject or "(no subject)", "name": msg.name, "at": when(msg.at),
            "text": msg.text, "kind": msg.kind, "message_id": msg.message_id,
            "feed": f"feeds/thread-{path_of(thread[0].message_id)[2:]}.xml",
            "thread": [{"href": href_of(t.message_id), "subject": t.subject or "(no subject)", "name": t.name,
                        "at": when(t.at), "here": t is msg} for t in thread]}


def _feed(m: SiteModel, first: str, members: list[PublicMail]) -> Page:
    """The Atom feed of one thread (a matter's announcements and the list's replies to them)."""
    b, latest = base(m), members[-FEED_LATEST:]
    name = f"thread-{path_of(first)[2:]}"

    def context() -> dict:
        return {"id": tag(m, f"thread/{first}"), "title": f"{m.data.game['name']}: {members[0].subject}",
                "self_href": f"{b}feeds/{name}.xml", "alternate": f"{b}{href_of(first)}",
                "updated": iso(latest[-1].at),
                "entries": [{"id": tag(m, f"m/{msg.message_id}"), "href": f"{b}{href_of(msg.message_id)}",
                             "title": msg.subject, "updated": iso(msg.at), "author": msg.name,
                             "content": f"<pre>{escape(msg.text)}</pre>"} for msg in reversed(latest)]}
    return Page(f"feeds/{name}.xml", "feed.xml", context, key=(b, [msg.id for msg in latest]))


_FROM_LINE = re.compile(rb"^(>*From )", re.M)


def mbox_entry(msg: PublicMail) -> bytes:
    """One message in mboxrd form: a From line, the message with LF line ends and any line
    beginning with (quoted) "From " quoted once more, and a blank line after."""
    text = msg.raw.replace(b"\r\n", b"\n")
    if not text.endswith(b"\n"):
        text += b"\n"
    stamp = time.asctime(msg.at.utctimetuple()).encode()
    return b"From MAILER-DAEMON " + stamp + b"\n" + _FROM_LINE.sub(rb">\1", text) + b"\n"


def mbox(msgs: list[PublicMail]) -> bytes:
    return b"".join(map(mbox_entry, msgs))


def _mboxes(mail: list[PublicMail]) -> Iterator[Page | RawFile]:
    months: dict[tuple[str, str], list[PublicMail]] = defaultdict(list)
    for msg in mail:
        months[f"{msg.at:%Y-%m}", msg.kind].append(msg)
    listing = []
    for (month, kind), msgs in sorted(months.items()):
        name = f"{month}.mbox" if kind == LIST else f"game-{month}.mbox"
        listing.append({"href": name, "month": month, "kind": kind, "count": len(msgs)})
        yield RawFile(f"archive/{name}", [msg.id for msg in msgs], partial(mbox, msgs))
    yield Page("archive/index.html", "mboxes.html", {"months": listing, "list": LIST, "game": GAME})
