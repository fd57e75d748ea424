"""A catch-all mailbox for the demo: an SMTP server on loopback that keeps every message in a Maildir.

``./run demo`` points ``[outbox] relay`` here, so every answer, announcement and
list post the game sends can be read (``nomic outbox --show N``, or any mail
client that opens a Maildir: ``mutt -f demo/mailbox``). Nothing leaves the machine.

    python -m mailer.sink 127.0.0.1:8026 demo/mailbox
"""
from __future__ import annotations

import argparse
import mailbox
import signal
import threading
from pathlib import Path

from aiosmtpd.controller import Controller


class MaildirSink:
    """aiosmtpd handler: one Maildir message per envelope recipient, each marked with a Delivered-To line."""

    def __init__(self, maildir: Path):
        self.box = mailbox.Maildir(maildir, factory=None, create=True)

    async def handle_DATA(self, server, session, envelope) -> str:
        for rcpt in envelope.rcpt_tos:
            self.box.add(f"Delivered-To: {rcpt}\r\n".encode() + envelope.original_content)
        return "250 2.0.0 kept in the demo mailbox"


def start(maildir: Path, host: str, port: int) -> Controller:
    """The sink, listening once this returns; ``.stop()`` it."""
    controller = Controller(MaildirSink(maildir), hostname=host, port=port)
    controller.start()
    return controller


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m mailer.sink", description=__doc__.splitlines()[0])
    parser.add_argument("listen", help="HOST:PORT to listen on (loopback)")
    parser.add_argument("maildir", type=Path, help="the Maildir to keep mail in (created if missing)")
    args = parser.parse_args(argv)
    host, _, port = args.listen.rpartition(":")
    controller = start(args.maildir, host or "127.0.0.1", int(port))
    print(f"demo mailbox: mail to {args.listen} is kept in {args.maildir}", flush=True)
    done = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: done.set())
    done.wait()
    controller.stop()


if __name__ == "__main__":
    main()
