"""Issue 31: a personal daily mail, reminders before deadlines and absence, in each ruleset's test
game through the command line: each player the game waits for gets one mail at the daily moment
(what awaits them and by when, what changed for them), a reminder ``[list] remind_hours`` (24)
before a deadline, once, to whoever has not acted; ``Away until DATE`` stops both, ``Back`` starts
them again; the list's daily mail names whom the game waits for."""
from __future__ import annotations

import json

from tests.cli.blognomic_play import ADMIN, ALICE as B_ALICE, BOB as B_BOB, new_game, t
from tests.cli.ruleset_play import RulesetPlay
from tests.cli.test_bnomic_game import ALICE as B_ALICE_N, BOB as B_BOB_N, CAROL as B_CAROL_N, DAVE as B_DAVE_N
from tests.cli.test_bnomic_game import ERIN as B_ERIN_N, SEVEN, BNomicPlay
from tests.suber.support import ALICE, BOB, CAROL, PLAYERS
from tests.support import EMPEROR

SITE = "http://127.0.0.1:8000/"
BOB_I, CAROL_I = "bob@builder.org", "carol@wonder.land"


def mails(play, kind: str) -> list[tuple[list[str], str]]:
    """(recipients, subject) of each outgoing mail of ``kind``, oldest first."""
    return [(m["to"], m["subject"]) for m in play.outbox() if m["kind"] == kind]


def body(play, kind: str, to: str | None = None, nth: int = -1) -> str:
    """The body of the ``nth`` mail of ``kind`` to ``to`` alone (None: to anyone)."""
    found = [m["text"] for m in play.outbox() if m["kind"] == kind and to in (None, *m["to"]) and
             (to is None or m["to"] == [to])]
    return found[nth].split("\n\n", 1)[1]


def answer(play, to: str) -> str:
    """The last answer to ``to``: its lines of what was done."""
    text = body(play, "answer", to)
    return text.split("\n\n")[1]


def suber_game(tmp_path, new_database_url) -> RulesetPlay:
    play = RulesetPlay(tmp_path / "suber", "suber", new_database_url(),
                       {"suber": {"players": json.dumps(PLAYERS), "vote_days": "3"}})
    play.send(ALICE, "Proposal: Hello", "Enact rule: Players say hello.", at="2026-01-05T00:20:00Z")
    play.send(ALICE, "Call", "Call vote 301\nVote yes 301", at="2026-01-05T00:30:00Z")
    return play


def test_suber_a_personal_mail_each_day_and_a_reminder_a_day_before_the_vote_closes(tmp_path, new_database_url):
    play = suber_game(tmp_path, new_database_url)
    play.send(CAROL, "Holiday", "Away until 2026-01-06 because at sea", at="2026-01-05T00:40:00Z")
    assert answer(play, CAROL) == (
        '  "Away until 2026-01-06 because at sea": carol@suber.test is away until 2026-01-06 (the whole day, UTC): '
        "no reminders and no personal daily mail until then; send Back to end it sooner")
    assert [p["away_until"] for p in play.state()["players"]] == [None, None, "2026-01-06"]
    play.tick("2026-01-06T00:00:00Z")
    assert mails(play, "personal") == [([BOB], "[Suber's Nomic] 2026-01-06: what the game waits for from you")]
    assert body(play, "personal", BOB) == (
        "Bob Brown, this is what Suber's Nomic waits for from you on 2026-01-06.\n\n"
        "Not yet voted on:\n"
        "  a vote on proposal 301, closes 2026-01-08 00:30 UTC\n"
        '    send "Vote yes 301" or "Vote no 301"\n\n'
        'Going away? Send "Away until YYYY-MM-DD" to ths@suber.test: no reminders and no\n'
        'mail like this one until then; "Back" ends it sooner.\n\n'
        f"The game: {SITE}\n\n-- \nThe Humble Scribe, Suber's Nomic\n")
    daily = body(play, "daily")
    assert ("Waiting for:\n"
            "  Bob Brown <bob@suber.test>: a vote on proposal 301 ('Vote yes 301' or 'Vote no 301')\n"
            "  Carol Clark <carol@suber.test>: a vote on proposal 301 ('Vote yes 301' or 'Vote no 301')\n") in daily
    play.tick("2026-01-07T00:00:00Z")  # Carol's absence is over: her mail comes again
    assert mails(play, "personal")[1:] == [
        ([BOB], "[Suber's Nomic] 2026-01-07: what the game waits for from you"),
        ([CAROL], "[Suber's Nomic] 2026-01-07: what the game waits for from you")]
    assert play.state()["players"][2]["away_until"] is None
    play.send(BOB, "Away", "Away until 2026-01-10", at="2026-01-07T00:10:00Z")
    assert mails(play, "reminder") == []
    play.tick("2026-01-07T00:30:00Z")  # a day before the vote's three days are over: Carol only, Bob is away
    assert mails(play, "reminder") == [
        ([CAROL], "[Suber's Nomic] Reminder: a vote on proposal 301, closes 2026-01-08 00:30 UTC")]
    assert body(play, "reminder", CAROL) == (
        "Carol Clark, Suber's Nomic still waits for a vote on proposal 301: it closes 2026-01-08 00:30 UTC.\n"
        'Send "Vote yes 301" or "Vote no 301" to ths@suber.test.\n\n'
        'Going away? Send "Away until YYYY-MM-DD": no reminders until then; "Back" ends it sooner.\n\n'
        f"The game: {SITE}\n\n-- \nThe Humble Scribe, Suber's Nomic\n")
    play.tick("2026-01-07T12:00:00Z")  # once
    assert len(mails(play, "reminder")) == 1
    play.verify()


def test_suber_away_and_back_answer_clearly(tmp_path, new_database_url):
    play = suber_game(tmp_path, new_database_url)
    play.send(CAROL, "Away", "Away until 2026-13-01\nAway until 2026-01-04\nBack", at="2026-01-05T00:40:00Z")
    assert answer(play, CAROL) == (
        "! \"Away until 2026-13-01\": '2026-13-01' is no date: write it as YYYY-MM-DD, like 2026-01-05; "
        "nothing changed\n"
        '! "Away until 2026-01-04": 2026-01-04 is already past (today is 2026-01-05, UTC); nothing changed\n'
        '! "Back": carol@suber.test is not away; nothing changed')
    play.send("zed@suber.test", "Away", "Away until 2026-02-01", at="2026-01-05T00:50:00Z")
    assert answer(play, "zed@suber.test") == (
        '! "Away until 2026-02-01": only players may do that: send \'Join\' before the first proposal to play; '
        'nothing done')
    play.send(CAROL, "Away", "Away until 2026-02-01", at="2026-01-05T01:00:00Z")
    play.send(CAROL, "Back", "Back", at="2026-01-05T02:00:00Z")
    assert answer(play, CAROL) == (
        '  "Back": carol@suber.test is back: reminders and the personal daily mail start again')
    play.tick("2026-01-06T00:00:00Z")
    assert [to for to, _ in mails(play, "personal")] == [[BOB], [CAROL]]
    play.verify()


def test_blognomic_personal_mail_reminder_and_the_idle_offer(tmp_path, new_database_url):
    play = new_game(tmp_path, new_database_url, daily_mail=True)
    play.send(B_ALICE, "Join", at=t(5, 0, 10))
    play.send(B_BOB, "Join", at=t(5, 0, 20))
    play.send(B_ALICE, "Proposal: Free cake", "Cake.", at=t(5, 1))
    play.send(B_BOB, "Away", "Away until 2026-01-06 because travelling", at=t(5, 2))
    assert answer(play, B_BOB) == (
        '  "Away until 2026-01-06 because travelling": bob@blog.test is away until 2026-01-06 (the whole day, '
        "UTC): no reminders and no personal daily mail until then; send Back to end it sooner; to be Idle under "
        "the rules as well (not counted for Quorum), send Idle")
    assert play.state()["players"][2]["idle"] is False  # offered, not done
    play.tick(t(6, 0))
    assert mails(play, "personal") == [([ADMIN], "[BlogNomic] 2026-01-06: what the game waits for from you")]
    assert body(play, "personal", ADMIN) == (
        "admin, this is what BlogNomic waits for from you on 2026-01-06.\n\n"
        "Not yet voted on:\n"
        '  a vote on Proposal 1 "Free cake", closes 2026-01-07 01:00 UTC\n'
        '    send "FOR 1" or "AGAINST 1"\n\n'
        'Going away? Send "Away until YYYY-MM-DD" to ths@blog.test: no reminders and no\n'
        'mail like this one until then; "Back" ends it sooner.\n\n'
        f"The game: {SITE}\n\n-- \nThe Humble Scribe, BlogNomic\n")
    assert ("Waiting for:\n"
            "  admin <admin@blog.test>: a vote on Proposal 1 \"Free cake\" ('FOR 1' or 'AGAINST 1'), "
            "closes 2026-01-07 01:00 UTC\n"
            "  bob <bob@blog.test>: a vote on Proposal 1 \"Free cake\" ('FOR 1' or 'AGAINST 1'), "
            "closes 2026-01-07 01:00 UTC (away until 2026-01-06)\n") in body(play, "daily")
    play.tick(t(6, 1))  # 24 hours before the 48: the Admin only
    assert mails(play, "reminder") == [
        ([ADMIN], '[BlogNomic] Reminder: a vote on Proposal 1 "Free cake", closes 2026-01-07 01:00 UTC')]
    play.send(ADMIN, "Vote", "AGAINST 1", at=t(6, 2))
    play.tick(t(7, 0))  # Bob is back by the end of his date; the Admin has voted
    assert mails(play, "personal")[1:] == [([B_BOB], "[BlogNomic] 2026-01-07: what the game waits for from you")]
    play.verify()


def test_imperial_the_emperors_queue_and_a_swap_at_the_days_end(make_play):
    game = make_play()
    game.send("alice@wonder.land", "Proposal: Free cake", "Cake for all.", at="2026-01-05T01:00:00Z")
    game.send("bob@builder.org", "Proposal: More cake", "Seconds.", at="2026-01-05T02:00:00Z")
    game.send("bob@builder.org", "Holiday", "Away until 2026-01-20", at="2026-01-05T02:30:00Z")
    game.send(CAROL_I, "Proposal: Tea", "Tea.", at="2026-01-05T03:00:00Z")
    game.send(CAROL_I, "Swap", "Swap sections 1-4 with bob@builder.org sections 5-8", at="2026-01-05T03:10:00Z")
    game.send(EMPEROR, "Judgments", "Accept 1", at="2026-01-05T04:00:00Z")
    game.send(EMPEROR, "Day", "New day", at="2026-01-06T00:30:00Z")  # a day lasts 24 hours at least (rule 10)
    assert mails(game, "personal") == [([EMPEROR], "[Test Nomic] 2026-01-06: what the game waits for from you")]
    assert body(game, "personal", EMPEROR) == (
        "tie, this is what Test Nomic waits for from you on 2026-01-06.\n\n"
        "To do:\n"
        "  a judgment of Proposal 2: More cake\n"
        '    send "Accept 2" or "Reject 2" or "Ignore 2 because REASON"\n'
        "  a judgment of Proposal 3: Tea\n"
        '    send "Accept 3" or "Reject 3" or "Ignore 3 because REASON"\n\n'
        'Going away? Send "Away until YYYY-MM-DD" to ths@imperial.test: no reminders and no\n'
        'mail like this one until then; "Back" ends it sooner.\n\n'
        f"The game: {SITE}\n\n-- \nThe Humble Scribe, Test Nomic\n")
    chime = body(game, "chime")
    assert ("Waiting for:\n  bob <bob@builder.org>: your consent to swap offer 1 from carol@wonder.land "
            "('Agree swap 1') (away until 2026-01-20)\n") in chime  # Bob is away: no mail of his own
    game.send("bob@builder.org", "Back", "Back", at="2026-01-06T01:00:00Z")
    game.send(EMPEROR, "Judgments", "Reject 2\nReject 3", at="2026-01-06T04:00:00Z")
    game.send(EMPEROR, "Day", "New day", at="2026-01-07T00:30:00Z")
    assert mails(game, "personal")[1:] == [([BOB_I], "[Test Nomic] 2026-01-07: what the game waits for from you")]
    assert body(game, "personal", BOB_I) == (
        "bob, this is what Test Nomic waits for from you on 2026-01-07.\n\n"
        "To do:\n"
        "  your consent to swap offer 1 from carol@wonder.land\n"
        '    send "Agree swap 1"\n\n'
        "Since yesterday:\n"
        "  Your score went from 0 to -2 (-2).\n"
        "  Your Proposal 2 was rejected.\n\n"
        'Going away? Send "Away until YYYY-MM-DD" to ths@imperial.test: no reminders and no\n'
        'mail like this one until then; "Back" ends it sooner.\n\n'
        f"The game: {SITE}\n\n-- \nThe Humble Scribe, Test Nomic\n")
    game.verify()


def test_b_nomic_the_ballot_in_the_voting_period(tmp_path, new_database_url):
    play = BNomicPlay(tmp_path, new_database_url())
    play.send(B_ALICE_N, "Ministries", SEVEN + "\nClock on", "2026-01-05T01:00:00Z")
    play.send(B_BOB_N, "Proposal: Tea", "Tea for all.", "2026-01-05T02:00:00Z")
    play.send(B_CAROL_N, "Away", "Away until 2026-01-20", "2026-01-05T03:00:00Z")
    play.tick("2026-01-12T00:00:00Z")
    assert mails(play, "personal") == []  # nothing to do before the Voting Period
    play.tick("2026-01-13T00:00:00Z")  # nday 9, Ballotday: the Clock stops, the proposal is Open
    assert [to for to, _ in mails(play, "personal")] == [[B_ALICE_N], [B_BOB_N], [B_DAVE_N], [B_ERIN_N]]
    assert body(play, "personal", B_ALICE_N) == (
        "Alice, this is what B Nomic waits for from you on 2026-01-13.\n\n"
        "Not yet voted on:\n"
        '  a Vote on proposal 1 "Tea"\n'
        '    send "FOR 1" or "AGAINST 1" or "ABSTAIN 1"\n\n'
        "To do:\n"
        "  the Ballot of this Voting Period\n"
        '    send "Publish ballot"\n\n'
        'Going away? Send "Away until YYYY-MM-DD" to ths@bnomic.test: no reminders and no\n'
        'mail like this one until then; "Back" ends it sooner.\n\n'
        f"The game: {SITE}\n\n-- \nThe Humble Scribe, B Nomic\n")
    assert ("Waiting for:\n"
            "  Alice <alice@b.test>: the Ballot of this Voting Period; a Vote on proposal 1 \"Tea\"\n"
            "  Bob <bob@b.test>: a Vote on proposal 1 \"Tea\" ('FOR 1' or 'AGAINST 1' or 'ABSTAIN 1')\n"
            "  Carol <carol@b.test>: a Vote on proposal 1 \"Tea\" ('FOR 1' or 'AGAINST 1' or 'ABSTAIN 1') "
            "(away until 2026-01-20)\n") in body(play, "daily")
    play.send(B_ALICE_N, "Ballot", "Publish ballot\nClock on", "2026-01-13T01:00:00Z")
    play.send(B_BOB_N, "Vote", "FOR 1", "2026-01-13T02:00:00Z")
    play.tick("2026-01-14T00:00:00Z")  # the Clock is On: the Voting Period ends with nday 12
    assert [to for to, _ in mails(play, "personal")][4:] == [[B_ALICE_N], [B_DAVE_N], [B_ERIN_N]]
    assert body(play, "personal", B_ALICE_N).split("\n\n")[1] == (
        'Not yet voted on:\n  a Vote on proposal 1 "Tea", closes 2026-01-17 00:00 UTC\n'
        '    send "FOR 1" or "AGAINST 1" or "ABSTAIN 1"')
    play.tick("2026-01-16T00:00:00Z")  # a day before: those who have not voted, Carol away
    assert mails(play, "reminder") == [
        ([who], '[B Nomic] Reminder: a Vote on proposal 1 "Tea", closes 2026-01-17 00:00 UTC')
        for who in (B_ALICE_N, B_DAVE_N, B_ERIN_N)]
    play.send(B_BOB_N, "Expel", "Expel Erin because she never votes", "2026-01-16T01:00:00Z")
    play.cli("build", "--out", str(tmp_path / "site"))
    page = next((tmp_path / "site").glob("proposals/*1.html")).read_text()
    assert ('Vote by mail: <a href="mailto:ths@bnomic.test?subject=Vote%20on%20proposal%201&amp;body=FOR%201">FOR 1</a>'
            ) in page
    actions = (tmp_path / "site" / "actions.html").read_text()
    assert ('<a href="mailto:ths@bnomic.test?subject=A1&amp;body=Support%20A1">Support A1</a>, '
            '<a href="mailto:ths@bnomic.test?subject=A1&amp;body=Object%20to%20A1">Object to A1</a>') in actions
    assert body(play, "reminder", B_DAVE_N) == (
        'Dave, B Nomic still waits for a Vote on proposal 1 "Tea": it closes 2026-01-17 00:00 UTC.\n'
        'Send "FOR 1" or "AGAINST 1" or "ABSTAIN 1" to ths@bnomic.test.\n\n'
        'Going away? Send "Away until YYYY-MM-DD": no reminders until then; "Back" ends it sooner.\n\n'
        f"The game: {SITE}\n\n-- \nThe Humble Scribe, B Nomic\n")
    play.verify()


def test_the_roster_and_the_players_page_show_an_absence(tmp_path, new_database_url):
    play = suber_game(tmp_path, new_database_url)
    play.send(CAROL, "Away", "Away until 2026-02-01 because <at sea>", at="2026-01-05T00:40:00Z")
    out = tmp_path / "site"
    play.cli("build", "--out", str(out))
    roster = (out / "players" / "index.html").read_text()
    assert "on turn</td>" in roster and "away until 2026-02-01 (&lt;at sea&gt;)</td>" in roster
    page = next(p for p in (out / "players").glob("carol*.html")).read_text()
    assert "<dt>Absence</dt><dd>away until 2026-02-01 (&lt;at sea&gt;)</dd>" in page
    play.send(CAROL, "Back", "Back", at="2026-01-05T01:00:00Z")
    play.cli("build", "--out", str(out))
    assert "away until" not in (out / "players" / "index.html").read_text()


def test_every_move_has_a_mailto_link_on_its_page(tmp_path, new_database_url, make_play):
    """Suber's vote, call of the vote and Judgment; Imperial's judgment; BlogNomic's resolution (its votes had
    links already); B Nomic's vote, support and objection: each link fills in the subject and the line."""
    play = RulesetPlay(tmp_path / "suber", "suber", new_database_url(), {"suber": {"players": json.dumps(PLAYERS)}})
    play.send(ALICE, "Proposal: Hello", "Enact rule: Players say hello.", at="2026-01-05T00:20:00Z")
    play.send(BOB, "Invoke judgment: Is hello a rule?", "It reads like one.", at="2026-01-05T00:30:00Z")
    out = tmp_path / "site"
    play.cli("build", "--out", str(out))
    assert ('Judge by mail: <a href="mailto:ths@suber.test?subject=Judgment%201&amp;body=Judgment%201%3A%20TEXT">'
            'Judgment 1: TEXT</a> (the Judge only).') in (out / "judgments.html").read_text()
    page = (out / "proposals" / "301.html").read_text()
    assert ('Vote by mail: <a href="mailto:ths@suber.test?subject=Vote%20on%20proposal%20301&amp;body=Vote%20yes%20301">'
            'Vote yes 301</a>, <a href="mailto:ths@suber.test?subject=Vote%20on%20proposal%20301&amp;body=Vote%20no'
            '%20301">Vote no 301</a> (one vote each, once).') in page
    assert ('Call the vote by mail: <a href="mailto:ths@suber.test?subject=Call%20vote%20on%20proposal%20301&amp;'
            'body=Call%20vote%20301">Call vote 301</a> (the proposer only).') in page
    game = make_play()
    game.send("alice@wonder.land", "Proposal: Free cake", "Cake for all.", at="2026-01-05T01:00:00Z")
    game.cli("build", "--out", str(tmp_path / "imperial"))
    page = (tmp_path / "imperial" / "submissions" / "1.html").read_text()
    assert ('Judge by mail: <a href="mailto:ths@imperial.test?subject=Judgment%20of%20submission%201&amp;'
            'body=Accept%201">Accept 1</a>') in page
    assert 'body=Ignore%201%20because%20REASON">Ignore 1 because REASON</a> (the Emperor only).' in page
    blog = new_game(tmp_path, new_database_url)
    blog.send(B_ALICE, "Join", at=t(5, 0, 10))
    blog.send(B_ALICE, "Proposal: Free cake", "Cake.", at=t(5, 1))
    blog.cli("build", "--out", str(tmp_path / "blogsite"))
    page = next((tmp_path / "blogsite").glob("matters/1*.html")).read_text()
    assert ('Resolve by mail: <a href="mailto:ths@blog.test?subject=Resolve%20Proposal%201&amp;body=Enact%201">'
            'Enact 1</a>, <a href="mailto:ths@blog.test?subject=Resolve%20Proposal%201&amp;body=Fail%201">Fail 1</a> '
            '(an Admin, once the rules allow it).') in page
