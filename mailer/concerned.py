"""An announcement reaches the people it concerns even when they are not on the list.

The author of a matter and whoever must act on it (a Suber player called to vote, the player on
turn) get their own copy, of kind ``concerned``, when the list's per-message copy does not reach
them: they unsubscribed, take the digest, or the game does not subscribe its players
(``[list] subscribe_players = false``). Like an officer's copy it is not list traffic: no list
headers, no unsubscribe link.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from datetime import datetime

from sqlmodel import Session

from mailer import outbox
from mailer.listconfig import ListSettings

KIND = "concerned"


def copies(session: Session, ls: ListSettings, seq: int, at: datetime, make: Callable[[str], outbox.Mail],
           concerned: Iterable[str], *reached: Collection[str]) -> None:
    """Queue ``make(person)`` to each of ``concerned`` whom ``reached`` (the list copy's
    recipients, the officers' copies) leaves out. (Each of ``reached`` is asked, not copied: a
    list's members answer in constant time, ``Recipients``.)"""
    for person in dict.fromkeys(a.lower() for a in concerned if a):
        if person not in (ls.address, ls.list_address) and not any(person in r for r in reached):
            outbox.queue(session, seq, KIND, make(person), [person], ls.address, at)
