"""Debian's Postfix, configured from deploy/postfix/, in front of a real ``nomic serve``.

A private Postfix instance (its own config_directory, queue and loopback
ports; /etc/postfix is not touched) gets a Proposal over SMTP, hands it to
``nomic serve`` over LMTP, and relays the game's answer, which the outbox
sender submitted to it, to a loopback aiosmtpd sink standing in for the world.
"""
from __future__ import annotations

import os
import re
import shutil
import smtplib
import subprocess
import tempfile
import time
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tests.faults.daemon import Daemon, free_port, mail

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
POSTFIX = shutil.which("postfix") or "/usr/sbin/postfix"

pytestmark = [
    pytest.mark.slow,  # deployment: a real Postfix
    pytest.mark.skipif(not os.path.exists(POSTFIX), reason="needs Debian's postfix (deploy/apt-packages.txt)"),
    pytest.mark.skipif(os.geteuid() != 0, reason="a Postfix instance is started as root"),
]


class Sink:
    """The world: every message Postfix relays out arrives here."""

    def __init__(self) -> None:
        self.received: list[tuple[str, list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


def _master_cf(smtpd_port: int) -> str:
    """Debian's master.cf with smtpd on a loopback port and no chroot (the private queue has no chroot jail)."""
    out = []
    for line in Path("/etc/postfix/master.cf").read_text().splitlines():
        fields = line.split()
        if line[:1] not in ("", "#", " ", "\t") and len(fields) >= 8:
            if fields[0] == "smtp" and fields[1] == "inet":
                fields[0] = f"127.0.0.1:{smtpd_port}"
            fields[4] = "n"
            line = " ".join(fields)
        out.append(line)
    return "\n".join(out) + "\n"


def _main_cf(root: Path, lmtp_port: int, sink_port: int) -> str:
    """deploy/postfix/main.cf as an operator would install it, plus this private instance's places and ports."""
    deployed = (DEPLOY / "postfix" / "main.cf").read_text()
    deployed = deployed.replace("/etc/postfix/", f"{root}/conf/").replace("127.0.0.1:8024", f"127.0.0.1:{lmtp_port}")
    return deployed + f"""
# -- the test instance
compatibility_level = 3.6
queue_directory = {root}/queue
data_directory = {root}/data
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mx.imperial.test
mydestination =
alias_maps =
alias_database =
local_recipient_maps =
relayhost = [127.0.0.1]:{sink_port}
maillog_file = {root}/postfix.log
maillog_file_prefixes = {root}
smtp_host_lookup = native
smtp_tls_security_level = none
smtpd_tls_security_level = none
"""


@pytest.fixture
def postfix():
    """start(lmtp_port, sink_port) -> smtpd port; the instance is stopped afterwards. .root: its files."""
    root = Path(tempfile.mkdtemp(prefix="nomic-postfix-"))  # pytest's tmp_path is closed to the postfix user
    root.chmod(0o755)
    conf = root / "conf"
    conf.mkdir(parents=True)
    started = []

    def start(lmtp_port: int, sink_port: int) -> int:
        smtpd_port = free_port()
        for name in ("nomic-transport", "nomic-recipients"):
            text = (DEPLOY / "postfix" / name).read_text().replace("127.0.0.1:8024", f"127.0.0.1:{lmtp_port}")
            (conf / name).write_text(text)
        (conf / "main.cf").write_text(_main_cf(root, lmtp_port, sink_port))
        (conf / "master.cf").write_text(_master_cf(smtpd_port))
        for d in ("queue", "data"):
            (root / d).mkdir(exist_ok=True)
        shutil.chown(root / "data", "postfix")
        out = subprocess.run([POSTFIX, "-c", str(conf), "start"], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr + out.stdout
        started.append(True)
        return smtpd_port

    start.root = root  # type: ignore[attr-defined]

    yield start
    if started:
        subprocess.run([POSTFIX, "-c", str(conf), "stop"], capture_output=True, timeout=60)
    shutil.rmtree(root, ignore_errors=True)


def _wait_for(predicate, what: str, limit: float = 90) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.2)


def test_a_proposal_reaches_the_game_through_postfix_and_the_answer_leaves_through_it(make_play, postfix, tmp_path):
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        play = make_play(auth="none")
        daemon = Daemon(play.dir, tmp_path / "serve.log")
        smtpd_port = postfix(daemon.port, controller.port)
        with open(play.dir / "game.toml", "a") as toml:  # the outbox sender submits to Postfix, as deployed
            toml.write(f'\n[outbox]\nrelay = "127.0.0.1:{smtpd_port}"\n')
        daemon.start()

        with smtplib.SMTP("127.0.0.1", smtpd_port, timeout=30) as client:
            client.sendmail("alice@wonder.land", ["ths@imperial.test"],
                            mail("alice@wonder.land", "Proposal: Free cake", "postfix1@wonder.land", "Cake for all.\n"))
            with pytest.raises(smtplib.SMTPRecipientsRefused):  # only the game's own addresses are accepted
                client.sendmail("alice@wonder.land", ["nobody@imperial.test"],
                                mail("alice@wonder.land", "hello", "postfix2@wonder.land"))

        _wait_for(lambda: any(r[1] == ["alice@wonder.land"] for r in sink.received), "the answer at the sink")
        assert daemon.stop() == 0
    finally:
        controller.stop()

    state = play.state()
    assert [(s["number"], s["title"], s["author"]) for s in state["submissions"]] == \
        [(1, "Free cake", "alice@wonder.land")]
    (answer,) = [r for r in sink.received if r[1] == ["alice@wonder.land"]]
    assert answer[0] == "ths@imperial.test" or answer[0].startswith("game-bounces")
    msg = message_from_bytes(answer[2], policy=policy.default)
    assert msg["Subject"] == "Re: Proposal: Free cake"
    assert msg["In-Reply-To"] == "<postfix1@wonder.land>"
    assert "by mx.imperial.test (Postfix)" in msg["Received"]  # it went through Postfix
    log = (postfix.root / "postfix.log").read_text()
    assert re.search(r"to=<ths@imperial.test>, relay=127\.0\.0\.1\[127\.0\.0\.1\]:\d+.*status=sent", log)
    assert [o["status"] for o in play.outbox() if o["kind"] == "answer"] == ["sent"]
    play.verify()
