"""The list's members within one processor batch: the processor makes the members' lists once for
the entries of a batch (mailer/outgoing.py, ``Members.stands``); every entry that changes who gets
list mail (Subscribe, Digest, Unsubscribe, delivery stopped by bounces and resumed) is seen by the
very next entry's mail, as it is when each entry is folded alone."""
from __future__ import annotations

from datetime import datetime

from mailer.bounces import verp
from nomic.game import Game
from tests.outbox.test_bounces import DSN
from tests.support import LIST_ADDRESS, make_mail

ALICE, BOB, CAROL = "alice@wonder.land", "bob@builder.org", "carol@sea.test"


def fold_in_one_batch(game: Game, messages: list[tuple[bytes, str]]) -> None:
    """Journal every message, then fold them all at once (one batch: fewer than 200)."""
    game.inbox.receive_many([game.inbox.prepare(raw, datetime.fromisoformat(when)) for raw, when in messages])
    assert len(game.process()) == len(messages)


def post(n: int, when: str) -> tuple[bytes, str]:
    return make_mail(BOB, f"Post {n}", "text", to=LIST_ADDRESS, message_id=f"post{n}@builder.org"), when


def command(who: str, subject: str, n: int, when: str) -> tuple[bytes, str]:
    return make_mail(who, subject, message_id=f"c{n}@x"), when


def copies(play) -> dict[str, list[str]]:
    """Each list post's Message-ID -> the recipients of its list copy."""
    return {r["message_id"]: r["to"] for r in play.outbox() if r["kind"] == "list"}


def test_subscribe_digest_and_unsubscribe_in_a_batch_reach_the_next_post(play):
    play.send(ALICE, "Subscribe")
    play.send(BOB, "Subscribe")
    fold_in_one_batch(Game(play.dir), [
        post(1, "2026-01-05T02:00:00+00:00"),
        command(CAROL, "Subscribe", 1, "2026-01-05T02:01:00+00:00"),
        post(2, "2026-01-05T02:02:00+00:00"),
        command(ALICE, "Digest on", 2, "2026-01-05T02:03:00+00:00"),
        post(3, "2026-01-05T02:04:00+00:00"),
        command(CAROL, "Unsubscribe", 3, "2026-01-05T02:05:00+00:00"),
        post(4, "2026-01-05T02:06:00+00:00"),
        post(5, "2026-01-05T02:07:00+00:00"),
    ])
    assert copies(play) == {"<post1@builder.org>": [ALICE, BOB], "<post2@builder.org>": [ALICE, BOB, CAROL],
                            "<post3@builder.org>": [BOB, CAROL], "<post4@builder.org>": [BOB],
                            "<post5@builder.org>": [BOB]}


def test_delivery_stopped_by_bounces_and_resumed_in_a_batch_reaches_the_next_post(play, tmp_path):
    play.send(ALICE, "Subscribe")
    play.send(BOB, "Subscribe")
    game = Game(play.dir)
    to = verp(game.list_settings, ALICE)
    reports = [(DSN.format(verp=to, rcpt=ALICE, n=day, action="failed").encode(), f"2026-01-0{4 + day}T03:00:00+00:00")
               for day in (1, 2, 3)]  # a failure report on each of three days: [list] bounce_limit
    fold_in_one_batch(game, [
        post(1, "2026-01-05T02:00:00+00:00"), *reports,
        post(2, "2026-01-07T04:00:00+00:00"),
        command(ALICE, "Subscribe", 1, "2026-01-07T05:00:00+00:00"),  # asking again turns delivery back on
        post(3, "2026-01-07T06:00:00+00:00"),
    ])
    assert [r["to"] for r in play.outbox() if r["kind"] == "operator"] == [["ths@imperial.test"]]
    assert copies(play) == {"<post1@builder.org>": [ALICE, BOB], "<post2@builder.org>": [BOB],
                            "<post3@builder.org>": [ALICE, BOB]}
