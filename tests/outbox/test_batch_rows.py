"""A processor batch holds its entries' outbox rows and writes them in one statement when it ends
(nomic/game.py, ``outbox.holding``); a day's digest made in the middle of a batch still holds
the list traffic of the batch's earlier entries (``outbox.write_held``)."""
from __future__ import annotations

import email
import email.policy
from datetime import datetime

from sqlalchemy import event
from sqlmodel import Session, select

from mailer import listserv
from nomic.game import Game
from storage.tables import OutboxMessage
from tests.support import GAME_ADDRESS, LIST_ADDRESS, at, make_mail

ALICE, BOB, CAROL = "alice@wonder.land", "bob@builder.org", "carol@sea.test"


def journal(game: Game, messages: list[tuple[bytes, str]]) -> None:
    game.inbox.receive_many([game.inbox.prepare(raw, datetime.fromisoformat(when)) for raw, when in messages])


def test_a_batch_writes_the_outbox_rows_of_all_its_entries_in_one_statement(play):
    play.send(ALICE, "Subscribe")
    before = len(play.outbox())
    game = Game(play.dir)
    journal(game, [(make_mail(who, subject, "Text.", to=to, message_id=f"b{i}@test"), f"2026-01-05T02:0{i}:00+00:00")
                   for i, (who, subject, to) in enumerate([
                       (BOB, "Proposal: One", GAME_ADDRESS), (ALICE, "Hello", LIST_ADDRESS),
                       (CAROL, "Proposal: Two", GAME_ADDRESS), (BOB, "Subscribe", GAME_ADDRESS)])])
    inserts: list[int] = []

    def seen(conn, cursor, statement, parameters, context, executemany):
        if statement.startswith("INSERT INTO outbox "):
            inserts.append(len(parameters) if executemany else 1)

    event.listen(game.db, "before_cursor_execute", seen)
    assert len(game.process()) == 4
    kinds = [r["kind"] for r in play.outbox()][before:]
    assert inserts == [len(kinds)]
    assert kinds == ["answer", "emperor", "announcement", "list", "answer", "emperor", "announcement", "answer"]


def test_a_digest_made_in_a_batch_holds_the_posts_of_that_batch_before_it(make_play):
    play = make_play(day_mode="fixed")
    play.send(ALICE, "Subscribe", at=at(1, 1))
    play.send(BOB, "Digest on", at=at(1, 1))
    game = Game(play.dir)
    journal(game, [(make_mail(ALICE, f"Post {n}", "Text.", to=LIST_ADDRESS, message_id=f"post{n}@wonder.land"),
                    at(1, 2 + n).replace("Z", "+00:00")) for n in (1, 2)])
    assert game.tick(datetime.fromisoformat(at(2, 0).replace("Z", "+00:00"))) is not None
    assert len(game.process()) == 3  # one batch: the two posts and the day's end
    with Session(game.db) as s:
        [digest] = s.exec(select(OutboxMessage.raw).where(OutboxMessage.kind == "digest")).all()
    assert b"<post1@wonder.land>" in digest and b"<post2@wonder.land>" in digest


def test_a_batch_renders_the_list_footer_once_for_all_its_copies_and_each_copy_carries_it(play, monkeypatch):
    play.send(ALICE, "Subscribe")
    play.send(BOB, "Subscribe")
    before = len(play.outbox())
    game = Game(play.dir)
    journal(game, [(make_mail(who, f"Post {i}", "Text.", to=LIST_ADDRESS, message_id=f"f{i}@test"),
                    f"2026-01-05T02:0{i}:00+00:00") for i, who in enumerate([ALICE, BOB, ALICE])])
    rendered: list[str] = []
    render = game.list_settings.renderer.render
    monkeypatch.setattr(game.list_settings.renderer, "render", lambda t, **c: rendered.append(t) or render(t, **c))
    assert len(game.process()) == 3
    assert rendered.count(listserv.FOOTER) == 1
    footer = listserv.body(listserv.FOOTER, game.list_settings)
    copies = [r for r in play.outbox()[before:] if r["kind"] == "list"]
    assert len(copies) == 3
    with Session(game.db) as s:
        raws = s.exec(select(OutboxMessage.raw).where(OutboxMessage.kind == "list")).all()
    texts = [email.message_from_bytes(raw, policy=email.policy.default).get_content() for raw in raws[-3:]]
    assert all(t.rstrip("\n").endswith(footer.rstrip("\n")) for t in texts)
