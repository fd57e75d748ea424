"""The public mail as its archive (mail_archive.py) files it, kept across builds with the mail the
reader read (``Known``): the first copy of each Message-ID, each message's thread and place in it,
and each month's messages of each kind. Mail is only ever added to and a message's thread is
fixed when it arrives, so ``update`` files the new messages alone and says what they changed.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from nomic.website.public_mail import PublicMail, path_of


@dataclass
class MailIndex:
    """- ``mail``: the first copy of each Message-ID, in order (a message's place); ``ids``: their
      outbox rows; ``files`` and ``pages``: the paths of their copies and pages; ``thread``: each
      one's thread, by place (a thread's place, in the order they started); ``threads``: each thread's messages' places; ``keys``: each thread's key
      (the Message-ID of the message that started it, or that a message of it referenced first); ``feeds``: the paths of their feeds;
    - ``months``: the places of each (month, kind)'s messages;
    - ``page_keys``: what each message's page shows besides itself: its thread, by its length
      and last message (threads only grow); ``feed_keys``: what each thread's feed is made of, the
      same with the caller's ``token`` (the site's address);
    - ``new``: the places ``update`` added; ``grown``: the threads they joined (every thread, with
      a new ``token``); ``since`` and ``version`` as ``Family.changes`` wants them.
    """
    read: list[PublicMail] | None = None  # the reader's list (only added to), as far as read
    count: int = 0
    token: object = None
    mail: list[PublicMail] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)
    feeds: list[str] = field(default_factory=list)
    thread: list[int] = field(default_factory=list)
    page_keys: list[tuple] = field(default_factory=list)
    feed_keys: list[tuple] = field(default_factory=list)
    threads: list[list[int]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    months: dict[tuple[str, str], list[int]] = field(default_factory=lambda: defaultdict(list))
    new: range = range(0)
    grown: set[int] = field(default_factory=set)
    version: object = field(default_factory=object)
    since: object = None
    _seen: set[str] = field(default_factory=set)
    _root: dict[str, str] = field(default_factory=dict)  # Message-IDs (sent or referenced) -> thread's key
    _threads: dict[str, int] = field(default_factory=dict)  # a thread's key -> its place

    def update(self, read: list[PublicMail], token: object) -> None:
        """File ``read[count:]`` (everything again if ``read`` is not the list read before)."""
        if read is not self.read or len(read) < self.count:
            self.__init__()  # type: ignore[misc]
        self.since = self.version if self.read is not None else None
        start, self.grown = len(self.mail), set()
        for msg in read[self.count:]:
            self._add(msg)
        for t in self.grown:
            last = self.ids[self.threads[t][-1]]
            for place in self.threads[t]:
                self.page_keys[place] = (self.ids[place], len(self.threads[t]), last)
        if token != self.token:
            self.grown = set(range(len(self.threads)))
        for t in self.grown:
            self.feed_keys[t] = (token, len(self.threads[t]), self.ids[self.threads[t][-1]])
        self.read, self.count, self.token = read, len(read), token
        self.new, self.version = range(start, len(self.mail)), object()

    def _add(self, msg: PublicMail) -> None:
        """A message joins the thread of the first message it references, or of an earlier message that
        referenced it or the same one (a matter's announcements all refer to the proposal's mail,
        which is not public itself); a copy of a Message-ID filed is left out (the game may send one
        mail in two copies, e.g. one to its officer)."""
        if msg.message_id in self._seen:
            return
        self._seen.add(msg.message_id)
        key = next((self._root[r] for r in msg.references if r in self._root), msg.message_id)
        self._root.setdefault(msg.message_id, key)
        for r in msg.references:
            self._root.setdefault(r, key)
        key = self._root[msg.message_id]
        thread = self._threads.setdefault(key, len(self.threads))
        if thread == len(self.threads):
            self.threads.append([])
            self.keys.append(key)
            self.feeds.append(f"feeds/thread-{path_of(key)[2:]}.xml")
            self.feed_keys.append(())
        place = len(self.mail)
        self.mail.append(msg)
        self.ids.append(msg.id)
        self.page_keys.append(())
        folder = path_of(msg.message_id)
        self.files.append(f"{folder}/message.eml")
        self.pages.append(f"{folder}/index.html")
        self.thread.append(thread)
        self.threads[thread].append(place)
        self.months[f"{msg.at:%Y-%m}", msg.kind].append(place)
        self.grown.add(thread)
