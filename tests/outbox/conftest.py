"""A real aiosmtpd server on loopback standing in for the relay, and games that send through it."""
from __future__ import annotations

import asyncio
import email
import socket
import threading
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller

from tests.support import Play

SITE = "https://nomic.test/"


@dataclass
class Arrived:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes
    smtputf8: bool = False  # MAIL FROM carried SMTPUTF8 (RFC 6531)

    @property
    def mail(self) -> EmailMessage:
        """As the recipient's mailbox stores it (line ends made local)."""
        return email.message_from_bytes(self.data.replace(b"\r\n", b"\n"), policy=policy.default)  # type: ignore[return-value]


@dataclass
class Recorder:
    """The relay's handler: records every accepted message; can be slow, or refuse."""
    arrived: list[Arrived] = field(default_factory=list)
    rcpt_delay: float = 0.0  # seconds to wait before answering RCPT
    reply_delay: float = 0.0  # seconds between accepting DATA (recorded) and answering 250
    refuse: dict[str, str] = field(default_factory=dict)  # rcpt -> SMTP reply
    waiting: threading.Event = field(default_factory=threading.Event)  # set while a delay runs
    slowed: int = 0  # how many delays have begun

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return self.refuse[address]
        if self.rcpt_delay:
            self.slowed += 1
            self.waiting.set()
            await asyncio.sleep(self.rcpt_delay)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.arrived.append(Arrived(envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content,
                                    envelope.smtp_utf8))
        if self.reply_delay:
            self.waiting.set()
            await asyncio.sleep(self.reply_delay)
        return "250 Message accepted for delivery"

    def to(self, rcpt: str) -> list[Arrived]:
        return [a for a in self.arrived if rcpt in a.rcpt_tos]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(**smtp_parameters):
    recorder = Recorder()
    controller = Controller(recorder, hostname="127.0.0.1", port=_free_port(), **smtp_parameters)
    controller.start()
    recorder.address = f"127.0.0.1:{controller.port}"  # type: ignore[attr-defined]
    yield recorder
    controller.stop()


@pytest.fixture
def relay():
    """A relay whose EHLO offers SMTPUTF8 (RFC 6531), as aiosmtpd's Controller and Postfix do by default."""
    yield from _serve()


@pytest.fixture
def ascii_relay():
    """A relay that does not offer SMTPUTF8."""
    yield from _serve(enable_SMTPUTF8=False)


def configure(play: Play, relay_address: str, **outbox: str | int) -> Play:
    """Point the game at the relay and give it a site URL."""
    path = play.dir / "game.toml"
    text = path.read_text().replace("[game]\n", f'[game]\nsite_url = "{SITE}"\n', 1)
    extra = "".join(f"{k} = {v!r}\n".replace("'", '"') for k, v in outbox.items())
    path.write_text(text + f'\n[outbox]\nrelay = "{relay_address}"\nretry_base = 60\n{extra}')
    return play


@pytest.fixture
def game(make_play, relay) -> Play:
    """A test game with fixed 24-hour days whose outbox sends to the ``relay`` fixture."""
    return configure(make_play(day_mode="fixed"), relay.address)
