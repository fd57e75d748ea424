"""What one HTTP client may take of the server: connections at once, and subscribe-form mails an hour.

A client is its address: an IPv4 address, or the /64 network of an IPv6
address (what one subscriber is given). A connection from a trusted proxy
(``[http] trusted_proxies``, nginx on loopback by default) is not one client:
its connections are counted only in the server's total (the proxy limits its
own clients), and a form post through it is counted for the address the
proxy added last to ``X-Forwarded-For``.
"""
from __future__ import annotations

import ipaddress
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable


def client_of(address: str) -> str:
    """The client an address belongs to: IPv4 as it is, IPv6 by its /64 (an IPv4-mapped one as IPv4)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def forwarded_client(peer: str, forwarded_for: str | None, proxies: Iterable[str]) -> str:
    """The client of a request from ``peer``: the last ``X-Forwarded-For`` address when the peer is a
    trusted proxy and gave one, else the peer."""
    if forwarded_for and peer in proxies:
        last = forwarded_for.rsplit(",", 1)[-1].strip()
        if last:
            return client_of(last)
    return client_of(peer)


class ClientSlots:
    """At most ``per_client`` connections at once from one client. Thread-safe."""

    def __init__(self, per_client: int):
        self.per_client = per_client
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, client: str) -> bool:
        """One more connection for ``client``, or False when it holds its share already."""
        with self._lock:
            if self._held[client] >= self.per_client:
                return False
            self._held[client] += 1
            return True

    def give(self, client: str) -> None:
        with self._lock:
            self._held[client] -= 1
            if self._held[client] <= 0:
                del self._held[client]


class ClientQuota:
    """At most ``per_window`` events for one client in any ``window`` seconds. Thread-safe.

    Memory stays bounded by the clients active in the last window: a client's
    times are dropped once they have all expired.
    """

    def __init__(self, per_window: int, window: float = 3600.0, clock: Callable[[], float] = time.monotonic):
        self.per_window, self.window, self.clock = per_window, window, clock
        self._times: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allows(self, client: str) -> bool:
        with self._lock:
            return len(self._recent(client)) < self.per_window

    def record(self, client: str) -> None:
        with self._lock:
            for other in list(self._times):
                if not self._recent(other):
                    del self._times[other]
            self._recent(client).append(self.clock())

    def _recent(self, client: str) -> deque[float]:
        times = self._times.setdefault(client, deque())
        since = self.clock() - self.window
        while times and times[0] <= since:
            times.popleft()
        return times
