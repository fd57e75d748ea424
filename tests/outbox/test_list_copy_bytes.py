"""A list copy is written byte for byte as the email package made it: the copy's policy keeps the game's
header classes (``ListSettings.policy``, refolding no source) and a plain text post's footer is set with
``plain_text.set_text``, where the package's way is ``headers.VERBATIM`` and ``set_content``."""
from __future__ import annotations

import base64
import dataclasses
import quopri
import re
from datetime import datetime, timezone
from email import policy
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from mailer import headers, listserv, plain_text
from mailer.listconfig import ListSettings
from mailer.message import Received

LS = ListSettings(name="Imperial Nomic", address="ths@imperial.test", list_address="players@imperial.test",
                  domain="imperial.test", token_key="k", site_url="https://nomic.test/", subject_tag="[Empire]",
                  bounce_prefix="game-bounces", bounce_limit=3, operator="op@imperial.test")
ENTRY = SimpleNamespace(seq=7, hash="0123456789abcdef" * 4)
AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
CHECKS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BOUNDARY = re.compile(rb"={15}\d+==")  # the random boundary of a footer's own part (the package's)
ENCODE = {"7bit": lambda b: b, "8bit": lambda b: b, "quoted-printable": quopri.encodestring,
          "base64": base64.encodebytes}


def post(subject: str, body: bytes, charset: str, cte: str, kind: str = "text/plain") -> bytes:
    head = (f"From: Alice <alice@wonder.land>\nTo: players@imperial.test\nSubject: {subject}\n"
            f"Message-ID: <post@wonder.land>\nMIME-Version: 1.0\n"
            f"Content-Type: {kind}; charset=\"{charset}\"\nContent-Transfer-Encoding: {cte}\n\n")
    return head.encode("utf-8", "surrogateescape") + body


def copies(raw: bytes) -> tuple[bytes | None, bytes | None]:
    """The copy as the game writes it, and as the email package wrote it (``VERBATIM``, ``set_content``)."""
    ours = listserv.copy_of(ENTRY, Received(raw), AT, LS)  # type: ignore[arg-type]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plain_text, "set_text", lambda mail, text: mail.set_content(text))
        package_ls = dataclasses.replace(LS, policy=policy.default, _made={})
        assert vars(package_ls.policy.clone(refold_source="none")) == vars(headers.VERBATIM)
        theirs = listserv.copy_of(ENTRY, Received(raw), AT, package_ls)  # type: ignore[arg-type]
    return tuple(None if m is None else BOUNDARY.sub(b"=boundary=", headers.as_bytes(m))  # type: ignore[return-value]
                 for m in (ours, theirs))


@CHECKS
@given(st.text(max_size=80), st.one_of(st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")),
                                       st.binary(max_size=300)),
       st.sampled_from(["utf-8", "us-ascii", "iso-8859-1", "no-such-charset"]), st.sampled_from(list(ENCODE)))
@example("Hello", b"Hi all\n", "utf-8", "7bit")
@example("Caf\u00e9", "Caf\u00e9 au lait\n".encode(), "utf-8", "8bit")
@example("Long", b"x" * 200 + b"\n", "us-ascii", "7bit")
@example("Latin", "na\u00efve\n".encode("latin-1"), "iso-8859-1", "quoted-printable")
def test_a_plain_text_posts_copy_is_the_packages_bytes(subject, body, charset, cte):
    ours, theirs = copies(post(subject, ENCODE[cte](body), charset, cte))
    assert ours == theirs


@pytest.mark.parametrize("kind", ["text/html", "multipart/alternative"])
def test_a_post_that_is_not_plain_text_is_the_packages_bytes(kind):
    body = b"<p>Hi all</p>\n" if kind == "text/html" else (
        b"--b\nContent-Type: text/plain\n\nHi all\n--b\nContent-Type: text/html\n\n<p>Hi all</p>\n--b--\n")
    raw = post("Hello", body, "utf-8", "7bit", kind + ('; boundary="b"' if kind.startswith("multipart") else ""))
    ours, theirs = copies(raw)
    assert ours == theirs and ours is not None and b"players@imperial.test" in ours
