"""Mail loops and floods: machine mail is never answered, our own list mail never reposted,
and one sender mailing hundreds of times a minute is rate-limited without holding up anyone else."""
from __future__ import annotations

import smtplib
import threading
from datetime import datetime, timedelta, timezone

import pytest
from sqlmodel import Session, select

from mailer.outbox import OutboxMessage
from nomic.game import Game
from tests.faults.daemon import Daemon, mail
from tests.support import make_mail

START = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
ALICE = "alice@wonder.land"


def _feed(game: Game, raw: bytes, at: datetime, mail_from: str | None = None,
          rcpt_to: list[str] | None = None) -> list[OutboxMessage]:
    assert game.inbox.receive(raw, at, source="test", mail_from=mail_from, rcpt_to=rcpt_to).status == "new"
    ((entry, _events),) = game.process()
    with Session(game.db) as s:
        return list(s.exec(select(OutboxMessage).where(OutboxMessage.seq == entry.seq)).all())


MACHINE_MAIL = {
    "out-of-office": {"Auto-Submitted": "auto-replied"},
    "auto-generated": {"Auto-Submitted": "auto-generated"},
    "precedence bulk": {"Precedence": "bulk"},
    "precedence junk": {"Precedence": "junk"},
    "precedence list": {"Precedence": "list"},
    "x-autoreply": {"X-Autoreply": "yes"},
    "another list": {"List-Id": "Cake lovers <cake.example.org>"},
    "our own list": {"List-Id": "Test Nomic players <players.imperial.test>"},
}


@pytest.mark.parametrize("kind", sorted(MACHINE_MAIL))
def test_machine_mail_is_never_answered(make_play, kind):
    game = Game(make_play(auth="none").dir)
    raw = make_mail(ALICE, "Re: Proposal: Free cake", "I am away until Monday.\nAccept 1",
                    message_id=f"{kind.replace(' ', '-')}@wonder.land", headers=MACHINE_MAIL[kind])
    assert [m.kind for m in _feed(game, raw, START)] == []


def test_bounces_are_never_answered(make_play):
    game = Game(make_play(auth="none").dir)
    bounce = (b"From: MAILER-DAEMON@wonder.land\nTo: game-bounces+abc@imperial.test\nSubject: Undelivered Mail\n"
              b"Message-ID: <bounce1@wonder.land>\nMIME-Version: 1.0\n"
              b"Content-Type: multipart/report; report-type=delivery-status; boundary=b\n\n"
              b"--b\nContent-Type: text/plain\n\nProposal: not a command here\n"
              b"--b\nContent-Type: message/delivery-status\n\nStatus: 5.1.1\n--b--\n")
    assert _feed(game, bounce, START, mail_from="", rcpt_to=["game-bounces+abc@imperial.test"]) == []
    empty_return_path = make_mail(ALICE, "Proposal: via a null sender", message_id="null1@wonder.land")
    assert [m.kind for m in _feed(game, empty_return_path, START + timedelta(minutes=1), mail_from="",
                                  rcpt_to=["ths@imperial.test"])] == []


def test_our_own_mail_coming_back_is_not_answered_or_reposted(make_play):
    game = Game(make_play(auth="none").dir)
    _feed(game, make_mail(ALICE, "Subscribe", "Subscribe", message_id="sub@wonder.land"), START)
    ours = make_mail("ths@imperial.test", "Re: Proposal: Free cake", "The Humble Scribe read your message.",
                     message_id="answer.1.abc@imperial.test")
    assert _feed(game, ours, START + timedelta(minutes=1)) == []
    looped = make_mail(ALICE, "[Test Nomic] cake", "cake", to="players@imperial.test", message_id="loop@wonder.land",
                       headers={"X-Loop": "players@imperial.test"})
    assert _feed(game, looped, START + timedelta(minutes=2), rcpt_to=["players@imperial.test"]) == []
    post = make_mail(ALICE, "cake", "Who wants cake?", to="players@imperial.test", message_id="post@wonder.land")
    assert [m.kind for m in _feed(game, post, START + timedelta(minutes=3), rcpt_to=["players@imperial.test"])] \
        == ["list"]  # the control: a member's own post is distributed (and not answered)


FLOOD = 300
CALM = 5


def test_a_flood_from_one_sender_is_rate_limited_and_does_not_hold_up_others(make_play, tmp_path):
    """300 messages from one sender within a minute, over LMTP, while another sender writes 5."""
    play = make_play(auth="none")
    daemon = Daemon(play.dir, tmp_path / "serve.log").start()
    replies: dict[str, list[int]] = {"flood@spam.example": [], "calm@wonder.land": []}

    def send(sender: str, count: int) -> None:
        with smtplib.LMTP("127.0.0.1", daemon.port, timeout=60) as client:
            client.ehlo_or_helo_if_needed()
            for n in range(count):
                client.mail(sender)
                client.rcpt("ths@imperial.test")
                code, _ = client.data(mail(sender, f"Proposal: {sender.split('@')[0]} {n}", f"{sender}.{n}"))
                replies[sender].append(code)

    threads = [threading.Thread(target=send, args=("flood@spam.example", FLOOD)),
               threading.Thread(target=send, args=("calm@wonder.land", CALM))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert daemon.stop() == 0
    assert replies == {"flood@spam.example": [250] * FLOOD, "calm@wonder.land": [250] * CALM}
    game = Game(play.dir)
    while game.process(limit=1000):  # a stop folds for about 2 s at most; the next start folds the rest
        pass

    answers = [o for o in play.outbox() if o["kind"] == "answer"]
    assert sum(o["to"] == ["flood@spam.example"] for o in answers) == 10  # [answers] per_sender_per_hour
    assert sum(o["to"] == ["calm@wonder.land"] for o in answers) == CALM
    titles = [s["title"] for s in play.state()["submissions"]]
    assert len(titles) == FLOOD + CALM  # rate-limited answers, but nothing lost
    assert sorted(t for t in titles if t.startswith("calm")) == [f"calm {n}" for n in range(CALM)]
    assert sorted(p["email"] for p in play.state()["players"]) == [
        "calm@wonder.land", "flood@spam.example", "ths@imperial.test", "tie@imperial.test"]
    play.verify()
