"""``nomic poll`` against a real dovecot on loopback (issue 5)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from imapclient import IMAPClient
from sqlmodel import Session, select

from nomic.game import Game
from storage import JournalEntry, get_meta
from tests.support import make_mail

ALICE = "alice@wonder.land"


def mailbox(play, dovecot, processed_folder: str = "") -> IMAPClient:
    """Point the test game at a fresh dovecot user; returns a client logged in as that user."""
    user, password = dovecot.new_user()
    with (play.dir / "game.toml").open("a") as f:
        f.write(f'\n[imap]\nhost = "127.0.0.1"\nport = {dovecot.port}\nssl = false\nstarttls = false\n'
                f'user = "{user}"\npassword = "{password}"\nprocessed_folder = "{processed_folder}"\n'
                f'timeout = 30\nidle_renew = 5\n')
    client = IMAPClient("127.0.0.1", port=dovecot.port, ssl=False, timeout=30)
    client.login(user, password)
    return client


def deliver(client: IMAPClient, raw: bytes) -> None:
    client.append("INBOX", raw.replace(b"\n", b"\r\n"))


def journal(play) -> list[JournalEntry]:
    with Session(Game(play.dir).db) as s:
        return list(s.exec(select(JournalEntry).order_by(JournalEntry.seq)).all())


def test_poll_once_journals_with_uid_marks_seen_then_plays(play, dovecot):
    client = mailbox(play, dovecot)
    deliver(client, make_mail(ALICE, "Proposal: Free cake", "Everyone gets cake.", message_id="imap1@x"))
    uidvalidity = client.select_folder("INBOX")[b"UIDVALIDITY"]
    assert b"\\Seen" not in client.get_flags([1])[1]
    assert play.cli("poll", "--once") == "1 new message(s) journaled\n"
    [entry] = journal(play)
    meta = json.loads(entry.meta)
    assert (meta["source"], meta["imap"]) == ("imap", {"mailbox": "INBOX", "uidvalidity": uidvalidity, "uid": 1})
    with Session(Game(play.dir).db) as s:
        assert get_meta(s, "imap:INBOX") == f"{uidvalidity}:1"
    assert b"\\Seen" in client.get_flags([1])[1]
    assert [(s["number"], s["title"]) for s in play.state()["submissions"]] == [(1, "Free cake")]
    assert [m["to"] for m in play.outbox() if m["kind"] == "answer"] == [[ALICE]]
    assert play.cli("poll", "--once") == "0 new message(s) journaled\n"  # \Seen: not fetched again
    play.verify()
    client.logout()


def test_poll_moves_to_processed_folder_and_a_journaled_message_is_not_doubled(play, dovecot):
    client = mailbox(play, dovecot, processed_folder="Processed")
    raw = make_mail(ALICE, "Proposal: Free cake", message_id="imap2@x")
    path = play.dir.parent / "already.eml"
    path.write_bytes(raw)
    play.cli("ingest", "--at", "2026-01-05T01:00:00Z", str(path))  # as if a crash came before the move
    deliver(client, raw)
    deliver(client, make_mail(ALICE, "Proposal: More cake", message_id="imap3@x"))
    assert play.cli("poll", "--once") == "1 new message(s) journaled\n"
    assert client.select_folder("INBOX")[b"EXISTS"] == 0
    assert client.select_folder("Processed")[b"EXISTS"] == 2
    assert [s["title"] for s in play.state()["submissions"]] == ["Free cake", "More cake"]
    client.logout()


def test_poll_without_a_mailbox_configured_says_so(play):
    out = play.cli("poll", "--once", ok=False)
    assert "set [imap] host and user in game.toml" in out


def test_poll_idles_and_reconnects_when_the_connection_dies(play, dovecot):
    client = mailbox(play, dovecot)
    proc = subprocess.Popen([sys.executable, "-m", "nomic", "poll", "--game", str(play.dir)],
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deliver(client, make_mail(ALICE, "Proposal: First", message_id="idle1@x"))
        wait_for(lambda: len(play.state()["submissions"]) == 1, proc)
        client.logout()
        assert dovecot.drop_connections() >= 1  # the poller's connection dies under it, in IDLE
        client = IMAPClient("127.0.0.1", port=dovecot.port, ssl=False, timeout=30)
        client.login(*_user(play))
        deliver(client, make_mail(ALICE, "Proposal: Second", message_id="idle2@x"))
        wait_for(lambda: len(play.state()["submissions"]) == 2, proc)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert "IMAP connection lost" in err
    assert [s["title"] for s in play.state()["submissions"]] == ["First", "Second"]
    client.logout()


def _user(play) -> tuple[str, str]:
    import tomllib
    imap = tomllib.loads((play.dir / "game.toml").read_text())["imap"]
    return imap["user"], imap["password"]


def wait_for(condition, proc: subprocess.Popen, limit: float = 60.0) -> None:
    """Until ``condition()`` holds (the poller works asynchronously); fails if the poller died."""
    deadline = time.monotonic() + limit
    while not condition():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else "poller died"
        assert time.monotonic() < deadline, "the poller did not journal the message"
        time.sleep(0.2)
