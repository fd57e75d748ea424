"""The archive of the public mail, as public-inbox keeps one: a page per message at
``m/<message-id>/`` with the message as distributed beside it (``message.eml``), an Atom feed per
thread, and one mbox a month of the list (``archive/YYYY-MM.mbox``) and of the game's own list
mail (``archive/game-YYYY-MM.mbox``).

A message never changes once sent, so its page, file and month are keyed by the outbox rows
they hold: a rebuild writes only what a new message adds to. The archive's index of the mail
(mail_index.py) is kept across builds, so a rebuild looks only at what new messages add to.
"""
from __future__ import annotations

import re
import time
from collections.abc import Iterator

from markupsafe import escape

from nomic.website.feeds import base, tag
from nomic.website.mail_index import MailIndex
from nomic.website.model import SiteModel
from nomic.website.pages import Family, Page
from nomic.website.public_mail import GAME, LIST, PublicMail, href_of, path_of
from nomic.website.text import iso, when

FEED_LATEST = 50  # entries in a thread's feed


def generate(m: SiteModel) -> Iterator[Page | Family]:
    """Each family's members compared only where the mail new since the last build changed them
    (the kept ``MailIndex``): a rebuild's work does not grow with the archive."""
    kept, b = m.data.archive, base(m)
    kept.update(m.data.mail, b)
    mail, threads, thread = kept.mail, kept.threads, kept.thread
    pages = sorted(set(kept.new).union(*(threads[t] for t in kept.grown)))
    yield Family("message files", "", list(kept.files), list(kept.ids),
                 lambda i: {}, changes=(kept.since, kept.version, ()), data=lambda i: mail[i].raw)
    yield Family("messages", "message.html", list(kept.pages),
                 list(kept.page_keys), lambda i: _page(mail[i], [mail[j] for j in threads[thread[i]]]),
                 changes=(kept.since, kept.version, pages))
    yield Family("thread feeds", "feed.xml", list(kept.feeds),
                 list(kept.feed_keys), lambda t: _feed(m, b, kept.keys[t], [mail[j] for j in threads[t]]),
                 changes=(kept.since, kept.version, sorted(kept.grown)))
    yield from _mboxes(kept)


def _page(msg: PublicMail, thread: list[PublicMail]) -> dict:
    return {"subject": msg.subject or "(no subject)", "name": msg.name, "at": when(msg.at),
            "text": msg.text, "kind": msg.kind, "message_id": msg.message_id,
            "feed": f"feeds/thread-{path_of(thread[0].message_id)[2:]}.xml",
            "thread": [{"href": href_of(t.message_id), "subject": t.subject or "(no subject)", "name": t.name,
                        "at": when(t.at), "here": t is msg} for t in thread]}


def _feed(m: SiteModel, b: str, first: str, members: list[PublicMail]) -> dict:
    """The Atom feed of one thread (a matter's announcements and the list's replies to them)."""
    latest = members[-FEED_LATEST:]
    name = f"thread-{path_of(first)[2:]}"
    return {"id": tag(m, f"thread/{first}"), "title": f"{m.data.game['name']}: {members[0].subject}",
            "self_href": f"{b}feeds/{name}.xml", "alternate": f"{b}{href_of(first)}",
            "updated": iso(latest[-1].at),
            "entries": [{"id": tag(m, f"m/{msg.message_id}"), "href": f"{b}{href_of(msg.message_id)}",
                         "title": msg.subject, "updated": iso(msg.at), "author": msg.name,
                         "content": f"<pre>{escape(msg.text)}</pre>"} for msg in reversed(latest)]}


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


def _mboxes(kept: MailIndex) -> Iterator[Page | Family]:
    """A month's mbox is keyed by its count and last message (messages are only added); the months
    are a family, compared all at once (a game of years has hundreds)."""
    listing, keys, months = [], [], []
    for (month, kind), places in sorted(kept.months.items()):
        name = f"{month}.mbox" if kind == LIST else f"game-{month}.mbox"
        listing.append({"href": name, "month": month, "kind": kind, "count": len(places)})
        keys.append((len(places), kept.ids[places[-1]]))
        months.append(places)
    yield Family("mboxes", "", [f"archive/{month['href']}" for month in listing], keys, lambda i: {},
                 data=lambda i: _month(kept.mail, months[i], keys[i][0]))
    yield Page("archive/index.html", "mboxes.html", {"months": listing, "list": LIST, "game": GAME})


def _month(mail: list[PublicMail], places: list[int], n: int) -> bytes:
    return mbox([mail[i] for i in places[:n]])
