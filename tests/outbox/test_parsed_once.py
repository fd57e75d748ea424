"""An entry's raw bytes are parsed once in its fold: the list copy and the bounce check read the
fold's own parse (mailer.message.Received), not the bytes again."""
from __future__ import annotations

import email
import email.policy
import re
from datetime import datetime, timezone
from email.feedparser import FeedParser
from email.message import EmailMessage
from functools import cached_property
from pathlib import Path

import pytest
from sqlmodel import Session

from mailer import bounces, headers, listserv
from mailer.message import Received
from nomic.game import Game
from storage import Entry
from storage.config import parse_time
from storage.tables import BounceScore
from tests.outbox.test_bounces import DSN
from tests.support import LIST_ADDRESS, at, make_mail

ALICE, BOB = "alice@wonder.land", "bob@builder.org"
NOW = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)


def test_a_list_post_and_a_bounce_are_each_parsed_once_in_their_fold(play, monkeypatch):
    play.send(ALICE, "Subscribe", at=at(1, 1))
    play.send(BOB, "Subscribe", at=at(1, 1))
    game = Game(play.dir)
    verp = bounces.verp(game.list_settings, ALICE)
    post = make_mail(BOB, "Cake", "I bring the cake.", to=LIST_ADDRESS, message_id="cake@builder.org")
    game.inbox.receive(post, parse_time(at(1, 2)), "test", BOB, [LIST_ADDRESS])
    dsn = DSN.format(verp=verp, rcpt=ALICE, n=1, action="failed").encode()
    game.inbox.receive(dsn, parse_time(at(1, 3)), "test", "<>", [verp])

    parsed: list[str] = []  # the Message-ID of each message the email package parses while the game folds
    close = FeedParser.close

    def counted(self: FeedParser) -> object:
        root = close(self)
        parsed.append(str(root.get("Message-ID", "")))
        return root

    monkeypatch.setattr(FeedParser, "close", counted)
    game.process()
    monkeypatch.undo()

    assert parsed.count("<cake@builder.org>") == 1
    assert parsed.count("<dsn1@wonder.land>") == 1
    [copy] = [r for r in play.outbox() if r["kind"] == "list"]  # both were read whole all the same
    assert (copy["message_id"], copy["to"], copy["subject"]) == (
        "<cake@builder.org>", [ALICE, BOB], "[Test Nomic] Cake")
    with Session(game.db) as s:
        score = s.get(BounceScore, ALICE)
    assert score is not None and (score.score, score.last_day) == (1, "2026-01-05")


class _ParsedAsBefore(Received):
    """The post parsed as list copies once were: on its own, with ``headers.VERBATIM`` (policy.default)."""

    @cached_property
    def message(self) -> EmailMessage:
        return email.message_from_bytes(self.raw, policy=headers.VERBATIM)  # type: ignore[return-value]


_CORPUS = Path(__file__).parent.parent / "corpus"
_ROOT = Path(__file__).parent.parent.parent
_HOSTILE = [  # headers a refolding writer would change: 8-bit bytes, encoded words, long folded lines
    b"From: Caf\xc3\xa9 Cr\xc3\xa8me <cafe@wonder.land>\r\nTo: players@imperial.test\r\nSubject: Caf\xe9 "
    + b"x" * 120 + b"\r\nX-Note: =?utf-8?q?a=0D=0Ab?= =?utf-8?q?c?=\r\nReferences: <a@b>\r\n\t<c@d>\r\n"
    b"Received: from a (a [10.0.0.1])\r\n by b; Mon, 5 Jan 2026 01:00:00 +0000\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nCaf\xc3\xa9\r\n",
    b"From: bob@builder.org\r\nTo: players@imperial.test\r\nSubject: html\r\nMIME-Version: 1.0\r\n"
    b"Content-Type: text/html; charset=latin-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n<p>caf\xe9</p>\r\n",
    b"From: bob@builder.org\r\nTo: players@imperial.test\r\nSubject: digest\r\nMIME-Version: 1.0\r\n"
    b'Content-Type: multipart/related; boundary="r"\r\n\r\npre\r\n--r\r\nContent-Type: message/rfc822\r\n\r\n'
    b"From: x@y\r\nSubject: inner\r\n\r\nhi\r\n--r\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64"
    b"\r\n\r\niVBORw0K\r\n--r--\r\nepilogue\r\n",
]


_POSTS = [pytest.param(p.read_bytes(), id=p.name)
          for p in (*sorted(_CORPUS.glob("*.eml")), *sorted((_ROOT / "deploy" / "demo-mail").rglob("*.eml")))]
_POSTS += [pytest.param(raw, id=f"hostile{i}") for i, raw in enumerate(_HOSTILE)]


@pytest.mark.parametrize("raw", _POSTS)
def test_a_list_copy_made_from_the_folds_parse_is_the_copy_made_from_a_parse_of_its_own(play, raw):
    """Byte for byte. (Only where the two policies read a Content-Type differently do the trees differ,
    and the copy follows the game's reading: an encoded word in it, which RFC 2047 forbids, or a
    boundary folded inside its quotes.)"""
    ls = Game(play.dir).list_settings
    entry = Entry(seq=7, kind="mail", at="2026-01-05T01:00:00Z", key="k", raw=raw, meta="{}", prev_hash="",
                  hash="ab" * 32)

    def copy(received: Received) -> bytes | str:
        mail = listserv.copy_of(entry, received, NOW, ls)
        assert mail is not None
        return re.sub(rb"={15}\d+==", b"BOUNDARY", bytes(mail))  # the footer's part boundary is random

    fold = Received(raw)
    assert fold.mail.sender  # the fold reads it first; its copy is made from the same tree after
    assert copy(fold) == copy(_ParsedAsBefore(raw))
    assert copy(fold) == copy(Received(raw))  # the copy left the fold's parse as it was


def test_a_post_with_an_attachment_is_copied_with_it_and_the_footer_after_it(play):
    """A multipart/mixed post keeps its parts, in order, and gains the footer as one more part
    (it was once refused: "Cannot convert mixed to mixed", and its members got nothing)."""
    ls = Game(play.dir).list_settings
    post = EmailMessage()
    post["From"], post["To"], post["Subject"] = BOB, LIST_ADDRESS, "Map"
    post.set_content("The map of the island.\n")
    post.add_attachment(b"\x89PNG-map", maintype="image", subtype="png", filename="map.png")
    entry = Entry(seq=7, kind="mail", at="2026-01-05T01:00:00Z", key="k", raw=bytes(post), meta="{}",
                  prev_hash="", hash="ab" * 32)

    copy = listserv.copy_of(entry, Received(bytes(post)), NOW, ls)

    assert copy is not None
    mail = email.message_from_bytes(bytes(copy), policy=email.policy.default)  # as a member reads it
    assert mail.get_content_type() == "multipart/mixed"
    text, image, footer = mail.iter_parts()
    assert text.get_content() == "The map of the island.\n"
    assert (image.get_filename(), image.get_content()) == ("map.png", b"\x89PNG-map")
    assert footer.get_content().rstrip("\n") == listserv.body("mail/list_footer.txt", ls).rstrip("\n")
    assert mail["Subject"] == "[Test Nomic] Map"


def test_a_batch_ends_at_its_bytes_and_the_fold_goes_on_to_the_last_entry(play, monkeypatch):
    """The parses of a batch are kept until it commits, so a batch holds at most ``BATCH_BYTES`` of
    mail (here less than any one mail: a batch of one), and ``process`` still folds every entry."""
    game = Game(play.dir)
    posts = [make_mail(BOB, f"Post {n}", "Words.", to=LIST_ADDRESS, message_id=f"post{n}@builder.org")
             for n in range(3)]
    for n, post in enumerate(posts):
        game.inbox.receive(post, parse_time(at(1, 2 + n)), "test", BOB, [LIST_ADDRESS])
    monkeypatch.setattr("nomic.game.BATCH_BYTES", 1)
    reads = []
    read = Game._read_batch

    def counted(self: Game, upto: int | None, size: int) -> object:
        batch, cut = read(self, upto, size)
        reads.append(len(batch))
        return batch, cut

    monkeypatch.setattr(Game, "_read_batch", counted)
    done = game.process()
    assert ([entry.seq for entry, _ in done], reads) == ([1, 2, 3], [1, 1, 1])
