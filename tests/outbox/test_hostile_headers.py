"""Player text in the headers THS writes: a line break, a control character or an encoded word in a
subject or a name neither stops the game's mail nor smuggles a header into it (mailer/headers.py)."""
from __future__ import annotations

import base64
import email
import re
from collections import Counter
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from engine.events import Event
from engine.inputs import Message
from engine.imperial.state import Proclamation, Submission
from mailer import answers, bounces, digest, headers, listserv
from mailer.imperial import judgments
from mailer.mailing import Mailing
from mailer.message import Received

from mailer.outbox import OutboxMessage
from nomic.game import Game
from storage import Entry
from tests.support import LIST_ADDRESS, SCRIBE, at

ALICE, BOB, CAROL, DAVE = "alice@wonder.land", "bob@builder.org", "carol@c.org", "dave@d.org"
MACHINE = ["From", "To", "Subject", "Date", "Message-ID", "Auto-Submitted",
           "Content-Type", "Content-Transfer-Encoding", "MIME-Version"]
THREAD = ["In-Reply-To", "References"]
LIST = ["List-Id", "List-Post", "List-Help", "List-Subscribe", "List-Archive", "Precedence", "X-Loop"]
PERSONAL = ["List-Unsubscribe", "List-Unsubscribe-Post"]  # added by the sender, per recipient

# Subject headers as a hostile client writes them, each reading "Free<something>cake"
SUBJECTS = {
    "CR LF, quoted-printable": "=?utf-8?q?Free=0D=0Acake?=",
    "CR LF, base64": "=?utf-8?b?" + base64.b64encode(b"Free\r\ncake").decode() + "?=",
    "bare CR": "=?utf-8?q?Free=0Dcake?=",
    "bare LF": "=?utf-8?q?Free=0Acake?=",
    "a smuggled header": "=?utf-8?q?Free=0D=0ABcc:_all@example.org=0D=0A=0D=0Acake?=",
    "NUL, BEL, ESC": "=?utf-8?q?Free=00=07=1Bcake?=",
    "VT, FF, NEL": "=?utf-8?q?Free=0B=0C=C2=85cake?=",
    "U+2028": "=?utf-8?q?Free=E2=80=A8cake?=",
    "U+2029": "=?utf-8?q?Free=E2=80=A9cake?=",
}
READS = {name: "Free cake" for name in SUBJECTS} | {"a smuggled header": "Free Bcc: all@example.org cake"}


def raw_mail(sender: str, subject: str, body: str, *, to: str = SCRIBE, message_id: str,
             extra: str = "") -> bytes:
    """A mail with its headers exactly as given (the email package would refuse to write some)."""
    return (f"From: {sender}\nTo: {to}\nSubject: {subject}\nMessage-ID: <{message_id}>\n{extra}"
            f"Content-Type: text/plain; charset=utf-8\n\n{body}\n").encode()


def ingest(game, tmp_path, raw: bytes, when: str) -> str:
    path = tmp_path / f"{abs(hash(raw))}.eml"
    path.write_bytes(raw)
    return game.cli("ingest", "--at", when, str(path))


def names(mail: EmailMessage) -> Counter:
    return Counter(mail.keys())


@pytest.mark.parametrize("variant", SUBJECTS)
def test_a_line_break_in_a_subject_is_answered_and_copied_on_one_line(game, relay, tmp_path, variant):
    game.send(ALICE, "Join", "Subscribe", at=at(1, 1))
    ingest(game, tmp_path, raw_mail(ALICE, SUBJECTS[variant], "Subscribe", message_id="q@wonder.land"), at(1, 2))
    ingest(game, tmp_path, raw_mail(ALICE, SUBJECTS[variant], "Cake!", to=LIST_ADDRESS,
                                    message_id="post@wonder.land"), at(1, 3))
    game.cli("send")
    _, answer, copy = [a.mail for a in relay.to(ALICE)]
    assert answer["Subject"] == f"Re: {READS[variant]}"
    assert names(answer) == Counter(MACHINE + THREAD)
    assert copy["Subject"] == f"[Test Nomic] {READS[variant]}"
    assert names(copy) == Counter(["To", "Message-ID", "Date", "From", "Reply-To", "Subject", *LIST, *PERSONAL,
                                   "Content-Type", "Content-Transfer-Encoding", "MIME-Version"])
    assert [r["subject"] for r in game.outbox()] == [
        "Re: Join", f"Re: {READS[variant]}", f"[Test Nomic] {READS[variant]}"]


def test_a_title_with_control_characters_is_announced_chimed_and_digested_on_one_line(game, relay, tmp_path):
    game.send(ALICE, "Join", "Subscribe", at=at(1, 1))
    game.send(BOB, "Join", "Digest on", at=at(1, 1))
    game.send(CAROL, "Join", "Digest plain", at=at(1, 1))
    subject = "=?utf-8?q?Proposal=3A_Free=0D=E2=80=A8=07cake?="
    assert "recorded as Proposal 1" in ingest(game, tmp_path, raw_mail(
        DAVE, subject, "Cake for all.", message_id="cake@d.org"), at(1, 2))
    game.judge("Accept 1", at=at(1, 3))
    game.tick(at(2, 0))
    game.cli("send")
    [announced] = [a.mail for a in relay.to(ALICE) if a.mail["Message-ID"].startswith("<sub1.judged.")]
    assert announced["Subject"] == "[Test Nomic] Proposal 1 accepted: Free cake"
    assert names(announced) == Counter(MACHINE + ["References", *LIST, *PERSONAL])
    [chime] = [a.mail for a in relay.to(ALICE) if "Bell Tower" in a.mail["Subject"]]
    assert names(chime) == Counter(MACHINE + LIST + PERSONAL)
    [mime] = [a.mail for a in relay.to(BOB) if a.mail["Subject"] == "Test Nomic Digest, Vol 1, Issue 1"]
    toc = list(mime.iter_parts())[1].get_content()
    assert ". [Test Nomic] Proposal 1 accepted: Free cake (The Humble Scribe)\n" in toc
    [plain] = [a.mail for a in relay.to(CAROL) if a.mail["Subject"] == "Test Nomic Digest, Vol 1, Issue 1"]
    assert "\nSubject: [Test Nomic] Proposal 1 accepted: Free cake\n" in plain.get_content()


HOSTILE_POST = """\
From: =?utf-8?q?Evil=0D=0ABcc=3A_x=40y.org?= <evil@evil.org>
To: players@imperial.test
Cc: =?utf-8?q?Friend=0D=0AX-Injected=3A_cc?= <friend@evil.org>
Subject: =?utf-8?q?Hello=0D=0AX-Injected:_subject?=
Message-ID: <hostile@evil.org>
In-Reply-To: <=?utf-8?q?a=0D=0AX-Injected:_id?=@evil.org>
References: <a@evil.org> =?utf-8?q?x=0D=0AX-Injected:_references?= {long}
X-Long: =?utf-8?q?x=0D=0AX-Injected:_long?= {long}
Content-Type: text/plain; charset=utf-8

Hi all.
"""


def test_a_hostile_post_reaches_members_and_digests_with_no_header_smuggled_in(game, relay, tmp_path):
    """Refolding the author's long headers used to write out their decoded line breaks; and a From whose
    encoded name holds one made the copy raise."""
    game.send(ALICE, "Join", "Subscribe", at=at(1, 1))
    game.send(BOB, "Join", "Digest on", at=at(1, 1))
    game.send("evil@evil.org", "Join", "Subscribe", at=at(1, 1))
    ingest(game, tmp_path, HOSTILE_POST.format(long="x" * 90).encode(), at(1, 2))
    game.tick(at(2, 0))
    game.cli("send")
    [copy] = [a.mail for a in relay.to(ALICE) if a.mail["Message-ID"] == "<hostile@evil.org>"]
    assert names(copy) == Counter(["To", "Cc", "Message-ID", "In-Reply-To", "References", "X-Long", "Date", "From",
                                   "Reply-To", "Subject", *LIST, *PERSONAL,
                                   "Content-Type", "Content-Transfer-Encoding", "MIME-Version"])
    assert (copy["From"], copy["Reply-To"], copy["Subject"]) == (
        f'"Evil Bcc: x@y.org via Test Nomic" <{LIST_ADDRESS}>', "evil@evil.org", "[Test Nomic] Hello X-Injected: subject")
    [mime] = [a.mail for a in relay.to(BOB) if a.mail["Subject"] == "Test Nomic Digest, Vol 1, Issue 1"]
    [post] = [p.get_content() for p in list(mime.iter_parts())[2].iter_parts()]
    assert names(post) == Counter(["To", "Cc", "Subject", "Message-ID", "In-Reply-To", "References", "From",
                                   "Content-Type"])
    assert not re.search(rb"^(X-Injected|Bcc):", b"".join(a.data for a in relay.arrived), re.MULTILINE)


def test_a_refused_post_is_told_on_one_line(game, relay, tmp_path):
    ingest(game, tmp_path, raw_mail(CAROL, SUBJECTS["CR LF, base64"], "hi", to=LIST_ADDRESS,
                                    message_id="hi@c.org"), at(1, 1))
    game.cli("send")
    [notice] = [a.mail for a in relay.to(CAROL)]
    assert (notice["Subject"], notice["In-Reply-To"]) == ("Not posted: Free cake", "<hi@c.org>")
    assert names(notice) == Counter(MACHINE + THREAD)


# --- every composer, fed any text ---------------------------------------------------------------

PIECES = ["\r", "\n", "\r\n", "\x00", "\x07", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\u2028", "\u2029",
          "\ud800", "=?", "?=", "=?utf-8?q?a=0D=0ABcc:_x@y?=", "=?utf-8?b?YQ0KQmNjOiB4QHk=?=", " ", "\t",
          "Bcc: x@y", '"', "\\", "<", ">", "@", ",", ";", ":", "(", "é", "日本", "Re:", "x" * 100]
TEXT = st.one_of(
    st.lists(st.sampled_from(PIECES) | st.text(max_size=8), max_size=20).map("".join),
    st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=60),
    st.text(min_size=1000, max_size=3000),
)
ID = st.one_of(st.sampled_from(["ok@wonder.land", "=?utf-8?q?a=0D=0ABcc:_x@y?=@x", "a\x07b@x", "é@x",
                                "x" * 300 + "@y", "sha256:abc"]), TEXT)
NOW = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)


class _State:
    """What ``judgments.announce`` and its templates read of a ImperialState."""

    def __init__(self, sub: Submission, proc: Proclamation):
        self.sub, self.proclamations = sub, [proc]
        self.game_day, self.temperature = 1, 303

    def submission(self, number: int) -> Submission:
        return self.sub


def _entry(seq: int, raw: bytes = b"") -> Entry:
    return Entry(seq=seq, kind="mail", at="2026-01-05T01:00:00Z", key=f"k{seq}", raw=raw, meta="{}",
                 prev_hash="", hash=f"{seq:064x}")


def _encoded(value: str) -> str:
    return "=?utf-8?b?" + base64.b64encode(value.encode("utf-8", "surrogatepass")).decode() + "?="


def _queued(s: Session) -> list[tuple[str, str, EmailMessage]]:
    """Kind, subject column and parsed bytes of every mail queued, oldest first."""
    rows = s.exec(select(OutboxMessage).order_by(OutboxMessage.id)).all()
    return [(r.kind, r.subject, email.message_from_bytes(r.raw, policy=policy.default)) for r in rows]  # type: ignore[misc]


def _one_line(value: str, limit: int) -> bool:
    """No control character or line break; at most ``limit`` characters besides white space.

    (Read back, a "= ?" that went into an encoded word may read "=?": decoding drops the space
    between two encoded words. That is text, decoded once, as every reader does.)"""
    return not re.search("[\x00-\x1f\x7f-\x9f\u2028\u2029]", value) and len(_folded(value)) <= limit


def _folded(value: str) -> str:
    """Without its white space: Python's folding may put a space between an encoded word and a letter."""
    return "".join(value.split())


@pytest.fixture
def game_of_composers(make_play) -> Game:
    game = Game(make_play().dir)
    game.state()  # read now: the composers ask for it inside their own transaction
    return game


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@pytest.mark.slow  # 2,000 hypothesis examples
@given(subject=TEXT, name=TEXT, thread_id=ID, earlier=ID)
def test_any_text_in_any_composer_gives_exactly_the_headers_intended(game_of_composers, subject, name,
                                                                   thread_id, earlier):
    g = game_of_composers
    ls = g.list_settings
    with Session(g.db) as s:
        msg = Message(at=NOW, message_id=thread_id, sender=ALICE, name=name, authenticated=True,
                      subject=subject, references=[earlier])
        out = Mailing(ls, g.engine_config, g.state(), g.config.settings.answers.per_sender_per_hour)
        answers.answer(s, out, _entry(1), msg, [], ("submitted", "judged"))
        listserv.refuse(s, ls, _entry(2), Event(kind="list_post", data={
            "sender": ALICE, "subject": subject, "message_id": thread_id, "reason": "not a member"}), NOW)
        sub = Submission(number=1, kind="proposal", author=ALICE, title=subject, status="accepted",
                         message_id=thread_id)
        proc = Proclamation(number=1, title=subject, text="x", at=NOW, day=1, from_number=2)
        state = _State(sub, proc)
        for kind in ("judged", "proclamation"):
            judgments.announce(s, ls, state, _entry(3), Event(kind=kind, data={"number": 1}), [], NOW, [BOB])
        bounces._tell_operator(s, ls, _entry(4), msg, subject, 3)
        post = raw_mail(f"{_encoded(name)} <{ALICE}>", _encoded(subject), "hi", to=LIST_ADDRESS,
                        message_id="post@wonder.land", extra="References: <ok@wonder.land>\n")
        listserv.distribute(s, ls, _entry(10**6, post), Received(post), NOW, [BOB])
        digest.compose(s, ls, _entry(5), NOW, NOW, 1, [BOB], [CAROL])
        mails = _queued(s)
        s.rollback()
    reply = subject or "your message"
    reply = reply if reply.lower().startswith("re:") else f"Re: {reply}"
    parent = ["In-Reply-To", "References"] if headers.ids([thread_id]) else []  # a writable id is kept
    answer_thread = [] if thread_id.startswith("sha256:") else (  # not a Message-ID: the journal's key
        parent or (["References"] if headers.ids([earlier]) else []))
    titled = f": {subject}" if subject.strip() else " (no title)"  # never a subject ending in "accepted:"
    expected = [
        ("answer", MACHINE + answer_thread, headers.text(reply)),
        ("notice", MACHINE + parent, headers.text(f"Not posted: {subject or '(no subject)'}")),
        ("announcement", MACHINE + parent[1:] + LIST,
         headers.text(f"[Test Nomic] Proposal 1 accepted{titled}")),
        ("concerned", MACHINE + parent[1:],  # to Alice, its author, off the list
         headers.text(f"[Test Nomic] Proposal 1 accepted{titled}")),
        ("announcement", MACHINE + LIST, headers.text(f"[Test Nomic] Proclamation 1: {subject}")),
        ("operator", MACHINE, headers.text(f"List delivery to {subject} disabled after 3 bounces")),
    ]
    for (kind, column, mail), (want_kind, intended, line) in zip(mails, expected):
        assert (kind, names(mail), column) == (want_kind, Counter(intended), line)
        assert _one_line(mail["Subject"], headers.TEXT_MAX)
        if "=?" not in subject:  # else CPython's folding may leave an encoded word its own parser will not read
            assert _folded(mail["Subject"]) == _folded(line)
    copy, mime, plain = (mail for _, _, mail in mails[len(expected):])
    assert names(copy) == Counter(["To", "Message-ID", "Date", "References", "From", "Reply-To", "Subject",
                                   *LIST, "Content-Type", "Content-Transfer-Encoding", "MIME-Version"])
    assert _one_line(copy["Subject"], headers.TEXT_MAX) and copy["Reply-To"] == ALICE
    [author] = copy["From"].addresses
    assert author.addr_spec == LIST_ADDRESS and author.display_name.endswith(" via Test Nomic")
    if "=?" not in name and "?=" not in name:  # else CPython's folder may write an encoded word it cannot read back
        assert _one_line(author.display_name, headers.NAME_MAX + len(" via Test Nomic"))
    if name.isprintable() and "=?" not in name and name.strip():  # the name as written, less its folding
        written = f"{headers.name(name)} via Test Nomic"  # ... or, too long to keep quoted, less its QUOTED characters
        assert _folded(author.display_name) in {_folded(written),
                                                "".join(c for c in _folded(written) if c not in headers.QUOTED)}
    for d in (mime, plain):
        assert names(d) - Counter(["Content-Type", "Content-Transfer-Encoding", "MIME-Version"]) == Counter(
            ["From", "To", "Subject", "Date", "Message-ID", "Reply-To", "Auto-Submitted", *LIST])
    masthead, toc, posts, footer = mime.iter_parts()
    assert [set(p.get_content().keys()) <= set(digest.KEEP) for p in posts.iter_parts()] == [True] * 3
    lines = toc.get_content().split("\n")  # one line per topic
    assert (lines[:2], [bool(re.match(r"    \d\. ", t)) for t in lines[2:5]], lines[5:]) == (
        ["Today's Topics:", ""], [True] * 3, [""])


# Words and every character that makes a display name a quoted string, long enough to be folded.
NAME_PIECES = st.sampled_from(["Jo", "Smith", " ", " ", ".", ",", ";", ":", '"', "\\", "(", ")", "<", ">", "@",
                               "[", "]", "evil@evil.org", "<evil@evil.org>", "é"])


@pytest.mark.slow  # 150 hypothesis examples, each a composed mail
@settings(max_examples=2000, deadline=None)
@given(st.lists(NAME_PIECES, max_size=60).map("".join))
def test_a_long_name_with_specials_never_changes_the_from_address(name):
    """CPython 3.11 drops a display name's quotes when it folds it over two lines: "Doe, John" or
    "x <evil@evil.org>" then read as other addresses. ``headers.mailbox`` keeps such a name whole
    only when the From line fits unfolded."""
    mail = EmailMessage(policy=headers.VERBATIM)
    box = headers.mailbox(f"{headers.name(name)} via Test Nomic", LIST_ADDRESS)
    mail["From"] = box
    [author] = email.message_from_bytes(bytes(mail), policy=policy.default)["From"].addresses
    assert author.addr_spec == LIST_ADDRESS
    if len(f"From: {box}") <= headers.FOLD_AT:
        assert author.display_name.split() == box.display_name.split()
