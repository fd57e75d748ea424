"""Hostile mail that once stalled, wedged or steered a game (issue 13), through `nomic ingest`.

Each test sends what an attacker sent and asserts what a player would notice: the
answer, the state, the journal; and that `nomic replay --verify` still holds.
"""
from __future__ import annotations

import email
import json
from email import policy
from itertools import count

import pytest
from sqlmodel import Session, select

import engine
from mailer.outbox import OutboxMessage
from storage.tables import AnswerLog
import storage
from nomic.game import Game
from tests.support import EMPEROR, GAME_ADDRESS, LIST_ADDRESS, Play

ALICE, BOB, MALLORY = "alice@wonder.land", "bob@example.org", "mallory@evil.example"
OFFICERS = [("tie@imperial.test", "tie"), ("ths@imperial.test", "ths")]  # players from the start (rule 1)
_n = count(1)


def ingest(play: Play, raw: bytes, at: str = "2026-01-05T01:00:00Z") -> str:
    path = play.dir.parent / f"{play.dir.name}-raw{next(_n)}.eml"
    path.write_bytes(raw)
    return play.cli("ingest", "--at", at, str(path))


def answers(play: Play) -> list[str]:
    """The text of every answer queued, oldest first."""
    with Session(Game(play.dir).db) as s:
        rows = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "answer").order_by(OutboxMessage.id)).all()
    return [email.message_from_bytes(r.raw, policy=policy.default).get_content() for r in rows]


def events(play: Play, kind: str) -> list[dict]:
    with Session(Game(play.dir).db) as s:
        rows = s.exec(select(storage.EventRow).where(storage.EventRow.kind == kind)).all()
    return [json.loads(r.data) for r in rows]


def html_mail(sender: str, subject: str, html: str, message_id: str) -> bytes:
    return (f"From: {sender}\r\nTo: {GAME_ADDRESS}\r\nSubject: {subject}\r\nMessage-ID: <{message_id}>\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n").encode()


def test_deeply_nested_html_is_read_up_to_the_bound_and_answered_as_not_understood(play):
    play.propose(ALICE, "Cake")
    nested = "<ul><li>" * 12_000 + "Accept 1" + "</li></ul>" * 12_000  # 108 KB: 228 s and 1 GB once
    ingest(play, html_mail(EMPEROR, "judgment", nested, "nest@x"))
    assert play.state()["submissions"][0]["status"] == "pending"
    assert "its HTML is nested more than 32 deep; only its start was read" in answers(play)[-1]
    play.verify()


@pytest.mark.parametrize("line", [
    "Accept {n}", "Reject {n}", "Agree swap {n}", "Rewrite {n}:",
])
def test_a_number_of_5000_digits_is_not_understood_and_faults_nothing(play, line):
    play.propose(ALICE, "Cake")
    huge = "9" * 5000
    play.send(EMPEROR, "judgment", line.format(n=huge))
    assert events(play, "fault") == []
    answer = answers(play)[-1]
    assert "This line was not understood, so nothing was done with it:" in answer
    assert f"> {line.format(n=huge)[:40]}" in answer
    play.verify()


def test_over_long_numbers_in_requests_claims_and_references_fault_nothing(play):
    huge = "9" * 5000
    play.propose(ALICE, "Cake", f"Raise section {huge}\nVandalize bob section {huge}")
    play.send(BOB, "Point of Order: Scores", f"Score of {ALICE} should be {huge}")
    play.send(EMPEROR, "Re: Proposal: Cake", "Accept",
              headers={"In-Reply-To": f"<sub{huge}.announce.1.abc@imperial.test>",
                       "References": f"<sub{huge}.answer.1.abc@imperial.test>"})
    assert events(play, "fault") == []
    st = play.state()
    assert [s["status"] for s in st["submissions"]] == ["pending", "pending"]
    assert st["submissions"][1]["title"] == "Scores"
    play.verify()


def test_a_faulting_entry_is_folded_once_recorded_once_and_skipped_on_every_replay(play, monkeypatch):
    """13 faulting mails once took 51 s (each fault re-folded every earlier one); replay never ended."""
    tried: list[str] = []
    real_apply = engine.apply

    def apply(state, inp, config, *rest):
        if getattr(inp, "subject", "").startswith("boom"):
            tried.append(inp.message_id)
            state.temperature = -1  # a half-done change that the skip must undo
            raise RuntimeError("boom")
        return real_apply(state, inp, config, *rest)

    monkeypatch.setattr("nomic.game.engine.apply", apply)
    for i in range(13):
        play.send(ALICE, f"boom {i}", "Subscribe")
        play.propose(BOB, f"Fine {i}")
    assert sorted(tried) == sorted(set(tried)) and len(tried) == 13  # each tried exactly once
    st = play.state()
    assert st["temperature"] != -1 and len(st["submissions"]) == 13  # the half-done change undone
    game = Game(play.dir)
    with game.db.connect() as conn:
        skips = storage.skipped(conn)
    assert sorted(skips) == [3 * i + 1 for i in range(13)]  # boom, its skip entry, Bob's Proposal
    assert all(e == "RuntimeError('boom')" for e in skips.values())
    assert len(events(play, "fault")) == 13
    play.verify()
    assert len(tried) == 13  # the replays skipped them without trying them again


def test_a_fault_composing_outgoing_mail_loses_that_mail_alone(play, monkeypatch):
    from mailer import outgoing
    real = outgoing.enqueue

    def enqueue(session, game, entry, received, inp, evs):
        if getattr(inp, "subject", "") == "Proposal: Poison":
            raise ValueError("Header values may not contain linefeed or carriage return characters")
        return real(session, game, entry, received, inp, evs)

    monkeypatch.setattr(outgoing, "enqueue", enqueue)
    play.propose(ALICE, "Poison")
    play.propose(BOB, "Fine")
    assert [s["title"] for s in play.state()["submissions"]] == ["Poison", "Fine"]
    assert [m["to"] for m in play.outbox() if m["kind"] == "answer"] == [[BOB]]
    assert [e["seq"] for e in events(play, "mail_fault")] == [1]
    play.verify()


def test_a_display_name_that_is_another_address_never_stands_for_it(play):
    play.send(MALLORY, "Proposal: Mine", name=f'"{BOB}"')
    play.propose(BOB, "Bob's own")
    st = play.state()
    assert [(p["email"], p["name"]) for p in st["players"]] == [*OFFICERS, (MALLORY, "mallory"), (BOB, "bob")]
    assert [s["author"] for s in st["submissions"]] == [MALLORY, BOB]
    play.judge("Accept 2")
    assert play.player(BOB)["score"] > 0 and play.player(MALLORY)["score"] == 0


def test_names_are_unique(play):
    play.send(ALICE, "Proposal: One", name="Alice")
    play.send("alice@other.example", "Proposal: Two", name="alice")
    play.send("al@third.example", "Proposal: Three", name="Alice")
    assert [p["name"] for p in play.state()["players"]] == ["tie", "ths", "Alice", "alice (2)", "Alice (3)"]


@pytest.mark.parametrize("headers", [
    {"Auto-Submitted": "auto-replied"}, {"Precedence": "bulk"}, {"X-Autoreply": "yes"},
])
def test_automatic_mail_from_the_emperor_changes_nothing(play, headers):
    play.propose(ALICE, "Cake")
    play.send(EMPEROR, "Re: Accept 1", "I am away until Monday.\n\nAccept 1", headers=headers)
    assert play.state()["submissions"][0]["status"] == "pending"
    assert [m["to"] for m in play.outbox() if m["kind"] == "answer"] == [[ALICE]]


QUOTED_HEADERS = {
    "pl": "Od: Alice <alice@wonder.land>\nWysłane: poniedziałek, 5 stycznia 2026 01:00\n"
          "Do: ths@imperial.test\nTemat: Proposal: Cake",
    "pt": "De: Alice <alice@wonder.land>\nEnviado: segunda-feira, 5 de janeiro de 2026 01:00\n"
          "Para: ths@imperial.test\nAssunto: Proposal: Cake",
    "da": "Fra: Alice <alice@wonder.land>\nSendt: 5. januar 2026 01:00\nTil: ths@imperial.test\n"
          "Emne: Proposal: Cake",
    "ru": "От: Alice <alice@wonder.land>\nОтправлено: 5 января 2026 г. 1:00\nКому: ths@imperial.test\n"
          "Тема: Proposal: Cake",
    "ja": "差出人: Alice <alice@wonder.land>\n送信日時: 2026年1月5日 1:00\n宛先: ths@imperial.test\n"
          "件名: Proposal: Cake",
    "fi": "Lähettäjä: Alice <alice@wonder.land>\nLähetetty: maanantai 5. tammikuuta 2026 1.00\n"
          "Vastaanottaja: ths@imperial.test\nAihe: Proposal: Cake",
}


@pytest.mark.parametrize("language", sorted(QUOTED_HEADERS))
def test_a_command_below_a_quoted_header_block_in_any_language_is_never_read(play, language):
    play.propose(ALICE, "Cake")
    play.propose(ALICE, "Pie")
    quoted = f"Reject 1\n\n________________________________\n{QUOTED_HEADERS[language]}\n\nAccept 2\n"
    play.send(EMPEROR, "Re: Proposal: Cake", quoted)
    assert [s["status"] for s in play.state()["submissions"]] == ["rejected", "pending"]


def test_a_strangers_message_id_cannot_shadow_the_emperors_genuine_mail(play):
    play.propose(ALICE, "Cake")
    play.send(MALLORY, "hello", "Subscribe", message_id="tie-next@imperial.test")
    play.send(EMPEROR, "judgment", "Accept 1", message_id="tie-next@imperial.test")
    assert play.state()["submissions"][0]["status"] == "accepted"
    again = play.send(EMPEROR, "judgment", "Accept 1", message_id="tie-next@imperial.test")
    assert "duplicate" in again


def test_raw_utf8_headers_are_read_as_utf8_and_addresses_stay_distinct(play):
    for sender, name, mid in (("josé@exemple.fr", "Zoë", "u1@x"), ("josè@exemple.fr", "Zoè", "u2@x")):
        raw = (f"From: {name} <{sender}>\r\nTo: {GAME_ADDRESS}\r\nSubject: Proposal: Café ☕\r\n"
               f"Message-ID: <{mid}>\r\nMIME-Version: 1.0\r\n"
               "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
               "Du café pour tous.\r\n").encode()
        ingest(play, raw)
    st = play.state()
    assert [(p["email"], p["name"]) for p in st["players"]] == [
        *OFFICERS, ("josé@exemple.fr", "Zoë"), ("josè@exemple.fr", "Zoè")]
    assert [s["title"] for s in st["submissions"]] == ["Café ☕", "Café ☕"]
    play.verify()


def test_an_offices_passphrase_never_reaches_the_list(make_play):
    play = make_play()
    toml = (play.dir / "game.toml").read_text().replace(
        "[offices]\n", '[offices]\nemperor_passphrase = "correct horse"\n', 1)
    (play.dir / "game.toml").write_text(toml)
    play.send(ALICE, "Subscribe", "Subscribe")
    play.propose(ALICE, "Cake")
    play.send(EMPEROR, "Re: Proposal: Cake", "Passphrase: correct horse\nAccept 1",
              to=f"{GAME_ADDRESS}, {LIST_ADDRESS}")
    assert play.state()["submissions"][0]["status"] == "accepted"
    posts = events(play, "list_post")
    assert [p["accepted"] for p in posts] == [False]
    assert "Passphrase line" in posts[0]["reason"]
    with Session(Game(play.dir).db) as s:
        raws = s.exec(select(OutboxMessage.raw)).all()
    assert not any(b"correct horse" in r for r in raws)


def test_a_mail_fault_in_a_batch_refolds_it_and_loses_that_mail_alone(play, monkeypatch):
    """A batch queues its mail without a savepoint an entry; a mail fault folds the batch again with
    them: the faulting entry's mail alone is lost, an engine fault earlier in the batch is still
    journaled once as a skip, and the rest of the batch's mail and answer log is stored once."""
    from datetime import datetime, timedelta, timezone

    from mailer import outgoing
    from tests.support import make_mail
    real_enqueue, real_apply = outgoing.enqueue, engine.apply

    def enqueue(session, game, entry, received, inp, evs):
        if getattr(inp, "subject", "") == "Proposal: Poison":
            raise ValueError("poisoned")
        return real_enqueue(session, game, entry, received, inp, evs)

    def apply(state, inp, config, *rest):
        if getattr(inp, "subject", "") == "Proposal: Boom":
            raise RuntimeError("boom")
        return real_apply(state, inp, config, *rest)

    monkeypatch.setattr(outgoing, "enqueue", enqueue)
    monkeypatch.setattr("nomic.game.engine.apply", apply)
    game = Game(play.dir)
    start = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
    subjects = [(ALICE, "Proposal: One"), (BOB, "Proposal: Boom"), (BOB, "Proposal: Poison"), (ALICE, "Proposal: Two")]
    game.inbox.receive_many([game.inbox.prepare(make_mail(who, subject, "Text.", message_id=f"m{i}@test"), start + timedelta(seconds=i))
                             for i, (who, subject) in enumerate(subjects)])
    game.process()
    assert [s["title"] for s in play.state()["submissions"]] == ["One", "Poison", "Two"]
    with game.db.connect() as conn:
        assert storage.skipped(conn) == {2: "RuntimeError('boom')"}
    assert [e["seq"] for e in events(play, "fault")] == [2]
    assert [e["seq"] for e in events(play, "mail_fault")] == [3]
    answers = [m for m in play.outbox() if m["kind"] == "answer"]
    assert [(m["seq"], m["to"]) for m in answers] == [(1, [ALICE]), (4, [ALICE])]
    with Session(game.db) as s:
        assert s.exec(select(storage.JournalEntry.kind)).all() == ["mail", "mail", "mail", "mail", "skip"]
        assert [(a.sender, a.at) for a in s.exec(select(AnswerLog)).all()] == [
            (ALICE, "2026-01-05T01:00:00Z"), (ALICE, "2026-01-05T01:00:03Z")]  # noted once each
    play.verify()
