"""``nomic host serve``: no game waits on another (issue 26).

The list of games at ``/`` is built from each game's last published summary, without
its lock; LMTP answers each recipient as soon as its own game has journaled the message.
"""
from __future__ import annotations

import socket
import sqlite3
import threading
import urllib.error
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mailer.http_server import make_host_server
from nomic.host_serve import Host, stop_all
from tests.host.test_host import ALICE, BLOG, LEAGUE, fetch, titles
from tests.mailer.test_daemon import make_mail

UNSTORED = "451 4.3.0 The message could not be stored; please try again later"


def test_the_list_of_games_and_other_games_pages_are_served_while_a_games_lock_is_held(host):
    served = Host(host)
    served.update()
    httpd = make_host_server(("127.0.0.1", 0), served.config.settings.http, lambda: served.sites, served.index)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        for service in served.services.values():
            service.processor.build_site()  # each publishes its summary with its site
        stuck = served.services["league"].lock
        stuck.acquire()  # the league is busy with a very long fold, or wedged
        try:
            index = fetch(f"{base}/")
            blog = fetch(f"{base}/blog/")
            with pytest.raises(urllib.error.HTTPError) as busy:  # the league's own form page waits, then gives up
                fetch(f"{base}/league/subscribe/confirm/x/y")
        finally:
            stuck.release()
    finally:
        httpd.shutdown()
        httpd.server_close()
        stop_all(list(served.services.values()))
    blog_day = (datetime.now(timezone.utc) - datetime(2026, 1, 5, tzinfo=timezone.utc)).days + 1
    assert '<a href="league/">League Nomic</a></td><td>imperial</td><td>1</td><td>2</td>' in index  # TIE, THS
    assert f'<a href="blog/">Blog Nomic</a></td><td>blognomic</td><td>{blog_day}</td><td>1</td>' in index  # the Admin
    assert "Blog Nomic" in blog
    assert (busy.value.code, busy.value.read()) == (503, b"The game is busy; try again later.")


def test_a_game_that_has_published_nothing_yet_is_listed_by_name(host):
    served = Host(host)
    served.update()
    try:
        page = served.index()
    finally:
        stop_all(list(served.services.values()))
    assert '<a href="league/">League Nomic</a></td><td>imperial</td><td></td><td></td>' in page


class Lmtp:
    """An LMTP transaction spoken by hand, its replies after DATA read one at a time."""

    def __init__(self, port: int, rcpts: list[str], raw: bytes):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.lines = self.sock.makefile("rb")
        self.read()
        for command in ("LHLO wonder.land", f"MAIL FROM:<{ALICE}>", *[f"RCPT TO:<{r}>" for r in rcpts], "DATA"):
            self.sock.sendall(command.encode() + b"\r\n")
            while (reply := self.read())[3:4] == "-":
                pass
        assert reply.startswith("354")
        self.sock.sendall(raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") + b".\r\n")

    def read(self) -> str:
        return self.lines.readline().decode().rstrip()

    def close(self) -> None:
        self.sock.close()


def locked(game: Path) -> sqlite3.Connection:
    """The game's database held by a writer that does not let go (until rolled back)."""
    db = sqlite3.connect(game / "game.db", isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    return db


@pytest.mark.sqlite_only
def test_lmtp_answers_a_healthy_game_while_another_games_database_is_locked(host, serve_host, tmp_path):
    (host / "host.toml").write_text("[lmtp]\nslow_game_wait = 1\n\n" + (host / "host.toml").read_text())
    daemon = serve_host(host)
    port = daemon.ports["lmtp"]
    db = locked(tmp_path / "league")
    first = Lmtp(port, [BLOG, LEAGUE], make_mail(ALICE, "Proposal: Tea", to=f"{LEAGUE}, {BLOG}", message_id="tea@w"))
    assert first.read().startswith("250 2.0.0 Journaled as entry")  # the blog's, the league still waiting
    second = Lmtp(port, [LEAGUE, BLOG], make_mail(ALICE, "Proposal: Jam", to=f"{LEAGUE}, {BLOG}", message_id="jam@w"))
    assert second.read() == UNSTORED  # the league kept the blog's reply waiting: the MTA retries the league
    assert second.read().startswith("250 2.0.0 Journaled as entry")
    db.rollback()
    db.close()
    assert first.read().startswith("250 2.0.0 Journaled as entry")  # the league's, once it could write
    first.close()
    second.close()
    retry = Lmtp(port, [LEAGUE], make_mail(ALICE, "Proposal: Jam", to=f"{LEAGUE}, {BLOG}", message_id="jam@w"))
    assert retry.read().startswith("250 2.0.0")  # journaled once, whether before the retry or by it
    retry.close()
    assert daemon.stop() == 0
    assert sorted(titles(tmp_path / "league")) == ["Jam", "Tea"]
    assert sorted(titles(tmp_path / "blog")) == ["Jam", "Tea"]
