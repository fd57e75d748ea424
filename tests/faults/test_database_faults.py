"""The database fails under a running ``nomic serve``: the MTA is told 4xx and keeps the mail; nothing is lost.

A locked SQLite database (another process holding the write lock), a
PostgreSQL server that stops, and a corrupt database file.
"""
from __future__ import annotations

import os
import smtplib
import sqlite3

import pytest

from tests.faults.daemon import Daemon, mail, nomic


def _lmtp(port: int, n: int) -> tuple[int, str]:
    """Deliver message n as Postfix would: (the reply code to DATA, its text)."""
    sender = f"p{n}@wonder.land"
    with smtplib.LMTP("127.0.0.1", port, timeout=120) as client:
        client.ehlo_or_helo_if_needed()
        client.mail(sender)
        client.rcpt("ths@imperial.test")
        code, text = client.data(mail(sender, f"Proposal: fault {n}", f"fault{n}@wonder.land"))
        return code, text.decode()


def _titles(game) -> list[str]:
    import json
    return [s["title"] for s in json.loads(nomic(game, "state", "--json").stdout)["submissions"]]


@pytest.mark.slow  # waits out the 30 s busy timeout
@pytest.mark.sqlite_only
def test_a_locked_sqlite_database_gets_451_and_the_retry_is_journaled_once(make_play, tmp_path):
    play = make_play(auth="none")
    daemon = Daemon(play.dir, tmp_path / "serve.log").start()
    assert _lmtp(daemon.port, 1)[0] == 250
    locker = sqlite3.connect(play.dir / "game.db", isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")  # another process holds the write lock (past nomic's 30 s busy timeout)
    try:
        code, text = _lmtp(daemon.port, 2)
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert code == 451 and text.startswith("4.3.0"), (code, text)
    assert _lmtp(daemon.port, 2)[0] == 250  # the MTA's retry
    assert _lmtp(daemon.port, 2)[1].startswith("2.0.0 Already received")
    assert daemon.stop() == 0
    assert _titles(play.dir) == ["fault 1", "fault 2"]
    assert "replayed state matches" in nomic(play.dir, "replay", "--verify").stdout


@pytest.mark.skipif(os.environ.get("NOMIC_TEST_DB") != "postgres", reason="the PostgreSQL run only")
def test_a_stopped_postgresql_gets_451_and_nothing_is_lost(make_play, tmp_path):
    from tests.pgserver import PgServer
    server = PgServer().start()  # its own server, to stop and start
    try:
        play = make_play(auth="none", database_url=server.create_database("faults"))
        daemon = Daemon(play.dir, tmp_path / "serve.log").start()
        assert _lmtp(daemon.port, 1)[0] == 250
        server.pause()
        code, text = _lmtp(daemon.port, 2)
        assert code == 451 and text.startswith("4.3.0"), (code, text)
        server.start()
        assert _lmtp(daemon.port, 2)[0] == 250  # the MTA's retry, once the server is back
        assert _lmtp(daemon.port, 3)[0] == 250
        assert daemon.stop() == 0
        assert _titles(play.dir) == ["fault 1", "fault 2", "fault 3"]
        assert "replayed state matches" in nomic(play.dir, "replay", "--verify").stdout
        server.pause()
        out = nomic(play.dir, "state", "--json", check=False)
        assert out.returncode == 1 and out.stderr.count("\n") == 1
        assert out.stderr.startswith("nomic: cannot open the database postgresql+psycopg://postgres@127.0.0.1:")
    finally:
        server.stop()


@pytest.mark.sqlite_only
@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_corrupt_database_file_is_one_clear_line(play, damage):
    play.propose("alice@wonder.land", "Free cake")
    db = play.dir / "game.db"
    for side in ("game.db-wal", "game.db-shm"):
        (play.dir / side).unlink(missing_ok=True)
    db.write_bytes(os.urandom(8192) if damage == "garbage" else db.read_bytes()[:100])
    for args in (("state", "--json"), ("replay", "--verify"), ("serve", "--lmtp", "127.0.0.1:0")):
        out = nomic(play.dir, *args, check=False)
        assert out.returncode == 1, args
        assert out.stderr.startswith(f"nomic: cannot open the database sqlite:///{db.resolve()}: ")
        assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
