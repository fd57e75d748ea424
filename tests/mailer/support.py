"""Helpers for the intake tests."""
from __future__ import annotations

import base64
from email import message_from_bytes, policy
from email.message import EmailMessage

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from sqlmodel import Session, select

from mailer.outbox import OutboxMessage
from nomic.game import Game


def configure(play, text: str, after: str = "") -> None:
    """Add ``text`` to the test game's game.toml: at the end, or after the line ``after``."""
    path = play.dir / "game.toml"
    toml = path.read_text()
    assert not after or after + "\n" in toml, f"no line {after!r} in game.toml"
    path.write_text(toml.replace(after + "\n", after + "\n" + text, 1) if after else toml + "\n" + text)


def outbox_mail(play, kind: str = "answer") -> list[EmailMessage]:
    """The queued mail of one kind, parsed, oldest first."""
    with Session(Game(play.dir).db) as s:
        rows = s.exec(select(OutboxMessage).where(OutboxMessage.kind == kind)
                      .order_by(OutboxMessage.id)).all()
        return [message_from_bytes(r.raw, policy=policy.default) for r in rows]  # type: ignore[misc]


def dkim_key(bits: int = 1024) -> tuple[bytes, bytes]:
    """A new RSA key: (private key in PEM, the DKIM TXT record that publishes its public half)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return private, b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)
