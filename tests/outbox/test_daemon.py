"""Through ``nomic serve``: a post over SMTP reaches the members via the daemon's sender; one-click over HTTP."""
from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
import time
import urllib.request
from datetime import datetime, timezone

from tests.mailer.conftest import Daemon
from tests.outbox.conftest import SITE, _free_port, configure
from tests.support import LIST_ADDRESS, make_mail

ALICE, BOB = "alice@wonder.land", "bob@builder.org"


def test_a_post_to_the_daemon_reaches_every_member_through_the_relay(make_play, relay):
    game = configure(make_play(), relay.address)  # Emperor's days: the wall clock ends none
    game.send(ALICE, "Subscribe")
    game.send(BOB, "Subscribe")
    daemon = Daemon(game.dir)
    try:
        raw = make_mail(BOB, "Hello", "Hi all.", to=LIST_ADDRESS, message_id="hello@builder.org")
        with smtplib.SMTP("127.0.0.1", daemon.ports["smtp"], timeout=30) as client:
            assert client.sendmail(BOB, [LIST_ADDRESS], raw.replace(b"\n", b"\r\n")) == {}
        deadline = time.monotonic() + 60  # the sender loop passes every few seconds
        while len([a for a in relay.arrived if a.mail["Message-ID"] == "<hello@builder.org>"]) < 2:
            assert time.monotonic() < deadline, "the daemon's sender did not deliver:\n" + "".join(daemon.log)
            time.sleep(0.1)
    finally:
        assert daemon.stop() == 0
    copies = [a for a in relay.arrived if a.mail["Message-ID"] == "<hello@builder.org>"]
    assert sorted(r for a in copies for r in a.rcpt_tos) == [ALICE, BOB]
    assert {a.mail["Subject"] for a in copies} == {"[Test Nomic] Hello"}
    assert all(a.mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" for a in copies)


def test_one_click_unsubscribe_over_http_to_the_daemon(make_play, relay):
    game = configure(make_play(), relay.address)
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")  # the daemon reads links by the wall clock
    game.send(ALICE, "Subscribe", at=now)
    game.send(ALICE, "Hello", "Hi all.", to=LIST_ADDRESS, at=now)
    game.cli("send")
    [copy] = [a.mail for a in relay.to(ALICE) if a.mail["List-Unsubscribe-Post"]]
    path = copy["List-Unsubscribe"].split(">")[0].removeprefix(f"<{SITE}")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "nomic", "serve", "--game", str(game.dir), "--http", f"127.0.0.1:{port}"],
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        for line in proc.stderr:
            if line.rstrip().endswith("ready"):
                break
        request = urllib.request.Request(f"http://127.0.0.1:{port}/{path}", data=b"List-Unsubscribe=One-Click",
                                         method="POST", headers={"Content-Type": "application/x-www-form-urlencoded"})
        with urllib.request.urlopen(request, timeout=30) as response:
            assert (response.status, response.read().decode()) == (200, f"{ALICE} is unsubscribed from {LIST_ADDRESS}.")
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    assert game.state()["subscribers"] == []
    game.verify()
