"""Authentication that asks DNS (``[auth] mode = "dkim"``), run where no one waits on a stranger.

A message's DKIM look-ups run on a thread pool of their own (``THREADS``), not
on the event loop's default executor that the rest of the daemon shares. At most
``PER_SENDER`` messages of one sender hold a thread at once; the sender is the
organisational domain of the From address, whose name servers the look-ups ask
(mailer.dkim looks up only signatures aligned with it). A sender's further
messages wait their turn on the event loop, holding no thread, so a stranger whose
name servers are slow delays its own mail and no one else's. Each message's DNS
is bounded in mailer.dkim (``MAX_SIGNATURES`` look-ups in ``MESSAGE_DNS_BUDGET``
seconds), and so is how long it holds its thread.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from mailer.auth import domain_of, organisational_domain
from mailer.message import parse_head

THREADS = 16  # messages whose look-ups run at once (a thread waiting on DNS costs little)
PER_SENDER = 2  # of those, from one sender (organisational From domain)

T = TypeVar("T")


def sender_of(raw: bytes) -> str:
    """The sender whose turn a message waits for: the organisational domain of its From, as
    mailer.auth will read it ("" when there is none to read: such messages share one turn)."""
    try:
        domain = domain_of(parse_head(raw).sender)
    except Exception:  # unreadable headers: authentication will say so; here they only queue together
        return ""
    return organisational_domain(domain) or domain


class AuthPool:
    """A thread pool for authentication, taken in turns by sender. Use on one event loop."""

    def __init__(self, threads: int = THREADS, per_sender: int = PER_SENDER):
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="auth")
        self.per_sender = per_sender
        self._turns: dict[str, tuple[asyncio.Semaphore, list[int]]] = {}  # sender: its gate, how many use it

    async def run(self, raw: bytes, work: Callable[..., T], *args: object) -> T:
        """``work(raw, *args)`` on the pool, when the message's sender has a turn free."""
        sender = sender_of(raw)
        gate, users = self._turns.setdefault(sender, (asyncio.Semaphore(self.per_sender), [0]))
        users[0] += 1
        try:
            async with gate:
                return await asyncio.get_running_loop().run_in_executor(self.pool, work, raw, *args)
        finally:
            users[0] -= 1
            if not users[0]:
                del self._turns[sender]
