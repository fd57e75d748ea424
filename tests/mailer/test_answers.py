"""Answers and threads: what every authenticated sender gets back, and what a reply is about (issue 5)."""
from __future__ import annotations

from datetime import datetime, timezone

from engine.blognomic.declarations import COMMANDS as BLOGNOMIC
from mailer.grammar import Grammar
from nomic.game import Game
from tests.mailer.support import configure, outbox_mail
from tests.support import EMPEROR, make_mail

ALICE = "alice@wonder.land"
BOB = "bob@builder.test"


def test_answer_is_threaded_and_quotes_what_was_not_understood(play):
    play.send(ALICE, "hello", "Frobnicate the cake\nSubscribe\n\n> Accept 1 (quoted: not read)",
              message_id="q1@wonder.land", headers={"References": "<older@wonder.land>"})
    [answer] = outbox_mail(play)
    assert answer["In-Reply-To"] == "<q1@wonder.land>"
    assert answer["References"] == "<older@wonder.land> <q1@wonder.land>"
    assert answer["Auto-Submitted"] == "auto-replied"
    body = answer.get_content()
    assert "This line was not understood, so nothing was done with it:\n\n> Frobnicate the cake\n" in body
    assert '  "Subscribe": ' in body
    assert "Accept 1" not in body


def test_answer_to_mail_without_message_id_has_no_thread_headers(play):
    play.send(ALICE, "Proposal: Free cake", message_id=False)
    [answer] = outbox_mail(play)
    assert answer["In-Reply-To"] is None and answer["References"] is None
    assert answer["Message-ID"].startswith("<sub1.answer.1.")


def test_bare_judgment_in_a_thread_judges_that_submission(play):
    play.propose(ALICE, "Free cake")
    play.propose(BOB, "Free pie")
    [_, about_pie] = outbox_mail(play)
    assert about_pie["Message-ID"].startswith("<sub2.answer.")
    out = play.send(EMPEROR, "Re: Proposal: Free pie", "Reject\n\nOn Monday THS wrote:\n> Accept 1",
                    headers={"In-Reply-To": about_pie["Message-ID"]}, at="2026-01-05T02:00:00Z")
    assert "accept" not in out.lower()
    assert [s["status"] for s in play.state()["submissions"]] == ["pending", "rejected"]
    # a reply to the submission's own message works as well
    play.send(EMPEROR, "Re: Proposal: Free cake", "Accept", headers={"In-Reply-To": "<m1@test>"},
              at="2026-01-05T03:00:00Z")
    assert [s["status"] for s in play.state()["submissions"]] == ["accepted", "rejected"]
    play.verify()


def test_thread_ids_of_another_domain_and_bare_judgments_without_thread_do_nothing(play):
    play.propose(ALICE, "Free cake")
    out = play.send(EMPEROR, "Re: cake", "Accept", headers={"In-Reply-To": "<sub1.answer.1.ab@evil.test>"})
    assert "which submission?" in out
    out = play.send(EMPEROR, "judgment", "Accept")
    assert "which submission?" in out
    assert play.state()["submissions"][0]["status"] == "pending"


def test_a_reply_to_a_proposal_is_not_a_new_proposal(play):
    play.propose(ALICE, "Free cake")
    out = play.send(ALICE, "Re: Proposal: Free cake", "Thanks for recording it.")
    assert "recorded" not in out
    assert len(play.state()["submissions"]) == 1
    out = play.send(ALICE, "Fwd: Proposal: Free pie", "Pie for all.")
    assert "recorded as Proposal 2" in out  # a forward is still a submission


def test_answers_are_limited_per_sender_per_hour(make_play):
    play = make_play()
    configure(play, "[answers]\nper_sender_per_hour = 2\n")
    for minute in (0, 10, 20, 30):
        play.send(ALICE, "Subscribe", at=f"2026-01-05T01:{minute:02d}:00Z")
    play.send(BOB, "Subscribe", at="2026-01-05T01:40:00Z")  # others are not held up
    play.send(ALICE, "Subscribe", at="2026-01-05T02:10:01Z")  # an hour after the second answer
    answers = [(m["to"][0], m["created"]) for m in play.outbox() if m["kind"] == "answer"]
    assert answers == [(ALICE, "2026-01-05T01:00:00Z"), (ALICE, "2026-01-05T01:10:00Z"),
                       (BOB, "2026-01-05T01:40:00Z"), (ALICE, "2026-01-05T02:10:01Z")]


def test_answers_are_limited_per_sender_per_hour_within_one_batch(make_play):
    """The same limit when the processor folds every message in one batch (its Ledger counts the
    answers it queued itself, and those of the batch before, in the hour before each message)."""
    play = make_play()
    configure(play, "[answers]\nper_sender_per_hour = 2\n")
    play.send(ALICE, "Subscribe", at="2026-01-05T00:55:00Z")  # an earlier batch's answer
    game = Game(play.dir)
    times = [("01:00:00", ALICE), ("01:10:00", ALICE), ("01:20:00", BOB), ("01:56:00", ALICE), ("02:10:01", ALICE)]
    game.inbox.receive_many([game.inbox.prepare(make_mail(who, "Subscribe", message_id=f"b{i}@x"),
                                                datetime.fromisoformat(f"2026-01-05T{t}+00:00"))
                             for i, (t, who) in enumerate(times)])
    assert len(game.process()) == 5
    answers = [(m["to"][0], m["created"]) for m in play.outbox() if m["kind"] == "answer"]
    assert answers == [(ALICE, "2026-01-05T00:55:00Z"), (ALICE, "2026-01-05T01:00:00Z"),
                       (BOB, "2026-01-05T01:20:00Z"), (ALICE, "2026-01-05T01:56:00Z"),
                       (ALICE, "2026-01-05T02:10:01Z")]


def test_auto_replies_and_our_own_mail_get_no_answer(play):
    play.send(ALICE, "Out of office", "Subscribe", headers={"Auto-Submitted": "auto-replied"})
    play.send(ALICE, "bulk", "Subscribe", headers={"Precedence": "bulk"})
    play.send("ths@imperial.test", "loop", "Subscribe")
    assert play.outbox() == []


def test_two_processes_never_fold_the_same_entry(play):
    first, second = Game(play.dir), Game(play.dir)
    first.state()  # both have a state cached at entry 0
    second.state()
    raw = make_mail(ALICE, "Proposal: Free cake", message_id="twice@x")
    first.inbox.receive(raw, datetime(2026, 1, 5, 1, tzinfo=timezone.utc))
    assert [e.seq for e, _ in second.process()] == [1]
    assert first.process() == []  # already folded elsewhere: nothing done twice
    assert [s.number for s in first.state().submissions] == [1]
    assert [r["kind"] for r in play.outbox()].count("answer") == 1  # (and the submission's announcements)
    play.verify()


def test_thread_ids_that_would_break_a_header_are_left_out_of_the_answer(play):
    """Python's email package decodes an encoded word even inside a message id, and writes what it
    decodes to: these ids used to put a Bcc and an X-Injected header into the answer."""
    raw = (f"From: {ALICE}\nTo: ths@imperial.test\nSubject: hello\n"
           "Message-ID: <=?utf-8?q?a=0D=0ABcc:_x@y.test?=@wonder.land>\n"
           "References: <ok@wonder.land> <=?utf-8?q?b=0D=0AX-Injected:_1?=@evil.test>\n\nSubscribe\n")
    path = play.dir.parent / "ids.eml"
    path.write_text(raw)
    play.cli("ingest", "--at", "2026-01-05T01:00:00Z", str(path))
    [answer] = outbox_mail(play)
    assert sorted(answer.keys()) == sorted(["From", "To", "Subject", "Date", "Message-ID", "Auto-Submitted",
                                            "References", "Content-Type", "Content-Transfer-Encoding", "MIME-Version"])
    assert (answer["To"], answer["Subject"], answer["References"]) == (ALICE, "Re: hello", "<ok@wonder.land>")


def test_a_misspelt_subject_is_told_the_nearest_command_anyone_may_send(play):
    """Issue 28: "Propsal: Ponies" gets the nearest subject command, first thing in the answer;
    its body (the text of what was meant) is not read as commands; no Emperor's command is suggested."""
    play.send(ALICE, "Propsal: Ponies", "Ponies for all players.")
    play.send(ALICE, "Point of Oder: my score", "Score of alice@wonder.land should be 3", at="2026-01-05T02:00:00Z")
    play.send(ALICE, "Proclamtion: Mine", "Set win_score = 5", at="2026-01-05T03:00:00Z")
    propsal, oder, proclamtion = (m.get_content() for m in outbox_mail(play))
    assert propsal.startswith(
        'This line was not understood, so nothing was done with it:\n\n'
        '> Propsal: Ponies (the subject: did you mean "Proposal: TITLE"? nothing submitted)\n\n'
        'Write one command per line, e.g. "Report PLAYER" or "Subscribe"; quoted text and\n'
        'signatures are not read.\n'), propsal
    assert '> Point of Oder: my score (the subject: did you mean "Point of Order: TITLE"? nothing submitted)\n\n' \
        in oder
    assert "did you mean" not in proclamtion and "> Set win_score = 5\n" in proclamtion
    assert play.state()["submissions"] == []
    play.verify()


def test_a_misspelt_subject_without_a_colon_is_told_too_and_the_body_is_read():
    reading = Grammar(BLOGNOMIC).read("Proposel", "FOR 3")
    assert [c.line for c in reading.commands] == ["FOR 3"]
    assert reading.not_understood == ['Proposel (the subject: did you mean "Proposal: TITLE"? nothing submitted)']
