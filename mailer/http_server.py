"""``nomic serve --http``: the built site, and the list's links and form (mailer/web.py).

``nomic host serve --http`` serves every game's site under ``/SLUG/`` (each with its own
links and form) and a list of the games at ``/`` (``make_host_server``).

A small threaded server, meant for loopback behind nginx (docs/operating.md)
or a demo, that a misbehaving client cannot wedge:

- at most ``[http] max_connections`` connections at once, one thread each,
  and ``max_per_client`` of them from one client (an address, or an IPv6 /64;
  a trusted proxy's are counted only in the total); the next is answered 503
  by the accepting thread and closed, so a slow client shuts out only itself;
- a client has ``[http] timeout`` seconds to send its whole request (a slow
  drip is cut off, not only silence); each write of the answer may take as long;
- a POST's Content-Length must be 0 to ``MAX_POST``: malformed, negative or
  repeated differently is 400, larger is 413, chunked is 411, each answered
  without reading the body (no header means an empty body);
- a path with a NUL or another control character, a backslash, a ``.`` or
  ``..`` segment, an empty segment or percent-encoding that is not UTF-8,
  once decoded, is 400;
- a directory is never listed: ``dir/`` is ``dir/index.html`` or 404;
- a page or form that reads the game waits at most ``GAME_WAIT`` seconds for
  its lock (a long fold), then gets 503;
- the subscribe form sends at most ``[http] confirm_per_client`` confirmation
  mails an hour for one client (then 429), so one client cannot use up the
  hourly share of a mail domain or of the game (mailer.web).
"""
from __future__ import annotations

import io
import logging
import os
import re
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.message import Message
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from mailer.http_clients import ClientQuota, ClientSlots, client_of, forwarded_client
from mailer.web import Forms, handle_get, handle_post
from storage.settings.common import HttpSection

log = logging.getLogger("nomic.http")
MAX_POST = 64 * 1024  # bytes; the largest real POST (the subscribe form) is a few hundred
GAME_WAIT = 5  # seconds a request waits for its game's lock before 503
LENGTH = re.compile(r"[0-9]{1,12}")
BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Retry-After: 10\r\nConnection: close\r\nContent-Length: 27\r\n\r\nToo busy; try again later.\n")


class Refusal(Exception):
    """A request answered with ``status`` and ``text`` before anything else is read or done."""

    def __init__(self, status: int, text: str):
        super().__init__(text)
        self.status, self.text = status, text


def check_path(target: str) -> None:
    """Refuse (400) a request target that no file of the site can have."""
    path = urlsplit(target).path
    try:
        decoded = unquote(path, errors="strict")
    except UnicodeDecodeError:
        raise Refusal(400, "Bad path.") from None
    segments = decoded.split("/")[1:]
    if (not target.startswith("/") or any(c < " " or c in "\x7f\\" for c in decoded)
            or any(s in ("", ".", "..") for s in segments[:-1]) or segments[-1:] in (["."], [".."])):
        raise Refusal(400, "Bad path.")


def body_length(headers: Message) -> int:
    """The length of a POST's body, from its headers alone."""
    if headers.get("Transfer-Encoding"):
        raise Refusal(411, "Send the body with a Content-Length.")
    values = {v.strip() for v in headers.get_all("Content-Length") or ["0"]}
    if len(values) != 1 or not LENGTH.fullmatch(next(iter(values))):
        raise Refusal(400, "Bad Content-Length.")
    length = int(values.pop())
    if length > MAX_POST:
        raise Refusal(413, "The body is too large.")
    return length


class _Deadline(io.RawIOBase):
    """A socket's reading side with one deadline for all of it: a client dripping a byte at a
    time is cut off too, which a plain socket timeout (per read) would not do."""

    def __init__(self, sock: socket.socket, seconds: float):
        self.sock, self.end = sock, time.monotonic() + seconds

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.end - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took too long")
        self.sock.settimeout(left)
        return self.sock.recv_into(buffer)


class Server(ThreadingHTTPServer):
    """A thread per connection, up to ``max_connections`` and ``max_per_client`` from one client
    (``mailer.http_clients``); past either, 503 from the accepting thread.

    ``resolve`` gives the site a path is for; ``index``, when given, answers ``/`` (a host's list of games).
    """
    daemon_threads = True

    def __init__(self, address: tuple[str, int], limits: HttpSection, resolve: Callable[[str], "Mount | None"],
                 index: Callable[[], str] | None = None):
        self.limits, self.resolve, self.index = limits, resolve, index
        self.slots = threading.BoundedSemaphore(limits.max_connections)
        self.clients = ClientSlots(limits.max_per_client)
        self.form_quota = ClientQuota(limits.confirm_per_client)
        super().__init__(address, Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        client = self._limited_client(client_address[0])
        if client is not None and not self.clients.take(client):
            self._refuse(request, f"{client} holds {self.limits.max_per_client} connections")
            return
        if not self.slots.acquire(blocking=False):
            self._give(client)
            self._refuse(request, f"the connection limit ({self.limits.max_connections}) is reached")
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            self._give(client)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()
            self._give(self._limited_client(client_address[0]))

    def _limited_client(self, peer: str) -> str | None:
        """The client whose share a connection from ``peer`` takes; None for a trusted proxy."""
        return None if peer in self.limits.trusted_proxies else client_of(peer)

    def _give(self, client: str | None) -> None:
        if client is not None:
            self.clients.give(client)

    def _refuse(self, request: Any, why: str) -> None:
        log.warning("http: %s; 503", why)
        _busy(request)
        self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.warning("http: connection from %s failed", client_address[0], exc_info=True)


def _busy(sock: socket.socket) -> None:
    """Answer 503 without blocking; read what the client already sent, since closing with it
    unread would reset the connection and the client could lose the answer."""
    try:
        sock.setblocking(False)
        sock.send(BUSY)
        sock.recv(MAX_POST)
    except OSError:
        pass


@dataclass(frozen=True)
class Site:
    """One game's built site (in ``root``) and list pages (``forms``); ``lock`` is its processor's
    (mailer.web reads the state)."""
    forms: Forms
    root: Path
    lock: threading.Lock
    after_post: Callable[[], None]

    @property
    def dir(self) -> str:
        return str(self.root)


Mount = tuple[Site, str]  # the site a request is for, and the path prefix it is served under


def make_server(address: tuple[str, int], site: Site) -> Server:
    """The server for ``nomic serve --http``: one game's site at ``/``."""
    mount = (site, "")
    return Server(address, site.forms.limits, lambda path: mount)


def make_host_server(address: tuple[str, int], limits: HttpSection, sites: Callable[[], Mapping[str, Site]],
                     index: Callable[[], str]) -> Server:
    """The server for ``nomic host serve --http``: each game's site under ``/SLUG/``, ``index()`` at ``/``.

    ``sites`` is asked at every request: the host may add and remove games while serving.
    """
    def resolve(path: str) -> Mount | None:
        slug = urlsplit(path).path.split("/")[1]
        site = sites().get(slug)
        return None if site is None else (site, "/" + slug)
    return Server(address, limits, resolve, index)


class Handler(SimpleHTTPRequestHandler):
    """One connection's requests: the file of the site the path names, or mailer.web's pages and forms."""
    server: Server
    prefix = ""  # the path prefix of the request's site

    def __init__(self, *args: Any, **kw: Any):
        super().__init__(*args, directory=os.devnull, **kw)  # the site's, once the request names it

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.limits.timeout)  # for writes; reads follow the deadline
        self.rfile.close()  # the plain reader setup() made; a deadline for the whole request instead
        self.rfile = io.BufferedReader(_Deadline(self.connection, self.server.limits.timeout))

    def do_GET(self) -> None:
        """The built site; the pages behind subscribe/unsubscribe links come from mailer.web."""
        if self._index():
            return
        site = self._accept()
        if site is None:
            return
        path = self._within()
        if path.startswith(("/subscribe/", "/unsubscribe/")):
            self._web(handle_get, site, path)
        else:
            super().do_GET()

    def do_HEAD(self) -> None:
        if not self._index() and self._accept() is not None:
            super().do_HEAD()

    def do_POST(self) -> None:
        site = self._accept()
        if site is None:
            return
        try:
            length = body_length(self.headers)
        except Refusal as refused:
            self._reply(refused.status, refused.text)
            return
        body = self.rfile.read(length)
        if len(body) < length:  # the client gave up
            return
        self.connection.settimeout(self.server.limits.timeout)
        path = self._within()
        if urlsplit(path).path.rstrip("/") != "/subscribe":
            self._web(handle_post, site, path, body)
        elif self._form_allowed():
            if self._web(handle_post, site, path, body) == 200:
                self.server.form_quota.record(self._client())
        site.after_post()

    def translate_path(self, path: str) -> str:
        return super().translate_path(path[len(self.prefix):])

    def list_directory(self, path: "str | os.PathLike[str]") -> None:
        """Never: a directory without index.html is not found."""
        self.send_error(404, "File not found")

    def _index(self) -> bool:
        """A host's list of games at ``/``: answered here (True), or not asked for."""
        index = self.server.index
        if index is None or self.command == "POST" or urlsplit(self.path).path not in ("/", "/index.html"):
            return False
        self._reply(200, index(), "text/html")
        return True

    def _accept(self) -> Site | None:
        """The site the path is for, or None with the 400 or 404 sent. Writes get the plain socket timeout."""
        self.connection.settimeout(self.server.limits.timeout)
        try:
            check_path(self.path)
        except Refusal as refused:
            self._reply(refused.status, refused.text)
            return None
        mount = self.server.resolve(self.path)
        if mount is None:
            self._reply(404, "Not found.")
            return None
        site, self.prefix = mount
        self.directory = site.dir
        return site

    def _within(self) -> str:
        """The request's path within its site."""
        return self.path[len(self.prefix):] or "/"

    def _client(self) -> str:
        return forwarded_client(self.client_address[0], self.headers.get("X-Forwarded-For"),
                                self.server.limits.trusted_proxies)

    def _form_allowed(self) -> bool:
        """May this client have one more confirmation mail sent (``[http] confirm_per_client`` an hour)?
        Answered 429 here if not: one client must not use up a domain's or the game's hourly share."""
        client = self._client()
        if self.server.form_quota.allows(client):
            return True
        log.warning("web: no confirmation for a request from %s: its hourly share is used", client)
        self._reply(429, "Too many subscription requests came from your address in the last hour; "
                         "try again later.")
        return False

    def _web(self, handle: Callable[..., tuple[int, str]], site: Site, *args: Any) -> int:
        """Answer with mailer.web's ``handle``; its status. A game whose processor keeps its lock
        past ``GAME_WAIT`` (a very long fold) gets 503, not a thread held for as long."""
        if not site.lock.acquire(timeout=GAME_WAIT):
            self._reply(503, "The game is busy; try again later.")
            return 503
        try:
            status, text = handle(site.forms, *args)
        except Exception:
            log.exception("%s %s failed", self.command, self.path)
            status, text = 500, "Something went wrong; nothing was changed."
        finally:
            site.lock.release()
        html = self.command == "GET" and status == 200
        self._reply(status, text, "text/html" if html else "text/plain")
        return status

    def _reply(self, status: int, text: str, ctype: str = "text/plain") -> None:
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", f"{ctype}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("http: " + format, *args)
