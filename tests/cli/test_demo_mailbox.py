"""Issue 15: what the game sends can be read: ``nomic outbox --show N`` and the demo's mailbox."""
from __future__ import annotations

import mailbox
import signal
import socket
import subprocess
import sys
import tomllib
from email import message_from_bytes, policy
from pathlib import Path

from typer.testing import CliRunner

from nomic.cli import app
from tests.support import Play

ALICE = "alice@wonder.land"
ANSWER_BODY = """\
The Humble Scribe read your message and did this:

  "Proposal: Free cake": recorded as Proposal 1, pending before the Emperor

Game day 1, temperature 303 K.

-- 
The Humble Scribe, Test Nomic
"""


def test_outbox_show_prints_the_headers_and_the_decoded_body(play):
    play.send(ALICE, "Proposal: Free cake", "Cake for all.", message_id="p1@wonder.land")
    assert play.cli("outbox").splitlines()[0] == "    1 queued  answer       alice@wonder.land: Re: Proposal: Free cake"
    text = play.cli("outbox", "--show", "1")
    head, _, body = text.partition("\n\n")
    assert head.splitlines()[:3] == ["From: The Humble Scribe <ths@imperial.test>", f"To: {ALICE}",
                                     "Subject: Re: Proposal: Free cake"]
    assert "In-Reply-To: <p1@wonder.land>" in head.splitlines()
    assert body.startswith(ANSWER_BODY)


def test_outbox_show_decodes_encoded_words_and_quoted_printable(play):
    play.send(ALICE, "Proposal: Crème brûlée for everyone", "Dessert.", name="Zoë")
    text = play.cli("outbox", "--show", "1")
    assert "Subject: Re: Proposal: Crème brûlée for everyone" in text.splitlines()
    assert '"Proposal: Crème brûlée for everyone": recorded as Proposal 1' in text
    assert "=?utf-8?" not in text and "=C3" not in text


def test_outbox_json_carries_each_mails_text(play):
    play.send(ALICE, "Proposal: Free cake", "Cake for all.")
    rows = play.outbox()
    assert [r["id"] for r in rows] == [1, 2, 3]
    assert rows[0]["text"] == play.cli("outbox", "--show", "1")
    assert all(r["text"].startswith("From: ") for r in rows)


def test_outbox_show_of_a_mail_that_does_not_exist_is_one_line_and_fails(play):
    result = CliRunner().invoke(app, ["outbox", "--show", "9", "--game", str(play.dir)])
    assert (result.exit_code, result.stdout, result.stderr) == (
        1, "", "nomic: no outgoing mail 9 (nomic outbox lists them)\n")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_demo_mailbox_keeps_every_mail_the_game_sends(play: Play, tmp_path):
    """The demo's relay: a real SMTP server on loopback (python -m mailer.sink) writing a Maildir."""
    port, maildir = free_port(), tmp_path / "mailbox"
    sink = subprocess.Popen([sys.executable, "-m", "mailer.sink", f"127.0.0.1:{port}", str(maildir)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert sink.stdout.readline() == f"demo mailbox: mail to 127.0.0.1:{port} is kept in {maildir}\n"
        with open(play.dir / "game.toml", "a") as toml:
            toml.write(f'\n[outbox]\nrelay = "127.0.0.1:{port}"\n')
        play.send(ALICE, "Proposal: Free cake", "Cake for all.")
        assert play.cli("send", "--at", "2026-01-05T01:00:05Z") == "sent 3 deliveries\n"
    finally:
        sink.send_signal(signal.SIGTERM)
        assert sink.wait(timeout=10) == 0
    kept = {(m["Delivered-To"], m["Subject"]): m for m in (message_from_bytes(raw, policy=policy.default)
                                                           for raw in map(bytes, mailbox.Maildir(maildir, factory=None)))}
    assert sorted(kept) == [(ALICE, "Re: Proposal: Free cake"), (ALICE, "[Test Nomic] Proposal 1: Free cake"),
                            ("tie@imperial.test", "[Test Nomic] Proposal 1: Free cake")]  # Alice is on the list
    answer = kept[ALICE, "Re: Proposal: Free cake"]
    assert answer.get_content().replace("\r\n", "\n").startswith(ANSWER_BODY)


def test_the_demo_sends_to_the_mailbox_the_demo_script_starts():
    deploy = Path(__file__).parents[2] / "deploy"
    relay = tomllib.loads((deploy / "demo-game.toml").read_text())["outbox"]["relay"]
    script = (deploy / "demo.sh").read_text()
    assert f"MAILBOX=${{NOMIC_DEMO_MAILBOX:-{relay}}} " in script
    assert 'python3 -m mailer.sink "$MAILBOX" "$GAME/mailbox" &' in script
