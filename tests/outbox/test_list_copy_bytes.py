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


def post(subject: str, body: bytes, charset: str, cte: str, kind: str = "text/plain", params: str = "",
         date: str | None = None) -> bytes:
    """A post; ``params`` in place of its Content-Type's charset parameter, ``date`` its Date line."""
    params = params or f'; charset="{charset}"'
    head = (f"From: Alice <alice@wonder.land>\nTo: players@imperial.test\nSubject: {subject}\n"
            f"Message-ID: <post@wonder.land>\nMIME-Version: 1.0\n" + ("" if date is None else f"Date:{date}\n") +
            f"Content-Type: {kind}{params}\nContent-Transfer-Encoding: {cte}\n\n")
    return head.encode("utf-8", "surrogateescape") + body


def copies(raw: bytes) -> tuple[bytes | None, bytes | None]:
    """The copy as the game writes it, and as the email package wrote it (``VERBATIM``, ``set_content``)."""
    ours = listserv.copy_of(ENTRY, Received(raw), AT, LS)  # type: ignore[arg-type]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plain_text, "set_text", lambda mail, text: mail.set_content(text))
        mp.setattr(listserv, "_mime_value", lambda mail, name: mail.get(name))  # the policy's parse of each
        mp.setattr(listserv, "_dated", lambda mail: bool(headers.read(mail, "Date")))
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


TOKENS = st.text(st.sampled_from("aZ09-._!#$%&'*+^`{|}~"), min_size=1, max_size=8)
PARAM = st.tuples(st.sampled_from([";", "; ", ";  ", " ;", ";\t", ";\n "]),
                  st.one_of(st.sampled_from(["charset", "Charset", "CHARSET", "format", "delsp", "charset*"]), TOKENS),
                  st.sampled_from(["=", " = ", "="]),
                  st.one_of(st.sampled_from(["utf-8", "UTF-8", "us-ascii", "iso-8859-1", "flowed", "", "no-such"]), TOKENS)
                  .flatmap(lambda v: st.sampled_from([v, f'"{v}"', f'"{v} x"', f'"{v}\\"', f"{v} (note)"])))


@CHECKS
@given(st.sampled_from(["text/plain", "TEXT/Plain", "text/html", "text/plain ", "text /plain", "text/plain(c)"]),
       st.lists(PARAM, max_size=3).map(lambda ps: "".join(f"{a}{n}{e}{v}" for a, n, e, v in ps)),
       st.sampled_from(["7bit", "8bit", "Base64", "QUOTED-PRINTABLE", " 7bit", "7bit (plain)", "x-uuencode", "bin ary"]),
       st.one_of(st.none(), st.sampled_from([" Mon, 05 Jan 2026 01:00:00 +0000", " ", "", " yesterday", " \xff",
                                             " =?utf-8?q??=", " Mon, 05 Jan 2026 01:00:00 +0000 (UTC)"]), st.text(max_size=30)))
@example("text/plain", "; charset=utf-8; format=flowed", "7bit", None)
@example("text/plain", ';charset="utf-8"', "8bit", " Mon, 05 Jan 2026 01:00:00 +0000")
@example("text/plain", "; charset*=utf-8''%C3%A9", "7bit", " ")
def test_a_copy_reads_any_content_type_and_date_as_the_package_does(kind, params, cte, date):
    """The shapes of Content-Type and Date read from their lines (``listserv._mime_value``, ``_dated``)
    and every other shape, read as the policy parses it, give the package's bytes."""
    body = "Caf\u00e9 au lait\n".encode() if cte.strip().lower() == "8bit" else b"Hi all\n"
    raw = post("Hello", ENCODE.get(cte.strip().lower(), lambda b: b)(body), "utf-8", cte, kind, params or ";", date)
    ours, theirs = copies(raw)
    assert ours == theirs


@pytest.mark.parametrize("header", ["Date", "Message-ID"])
def test_a_post_with_a_blank_date_or_message_id_is_copied_with_the_copys_own(header):
    """It used to fault the entry's mail (the package takes one Date and one Message-ID alone): no copy."""
    raw = post("Hello", b"Hi all\n", "utf-8", "7bit").replace(b"Message-ID: <post@wonder.land>\n", b"")
    mail = listserv.copy_of(ENTRY, Received(raw.replace(b"MIME-Version", f"{header}: \nMIME-Version".encode())),
                            AT, LS)  # type: ignore[arg-type]
    assert mail is not None
    assert mail.get_all(header) == [{"Date": "Mon, 05 Jan 2026 01:00:00 +0000",
                                     "Message-ID": "<list.7.0123456789abcdef@imperial.test>"}[header]]
