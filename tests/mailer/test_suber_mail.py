"""Suber's Nomic's mail, through the real command line: each proposal announced and threaded (a bare
``Call vote``, ``Yes`` or ``No`` in a reply finds it), the vote's opening, its completion with the
points and the turn, Judgments, and the daily mail (docs/contract.md "Suber's Nomic"; mailer/suber/)."""
from __future__ import annotations

from email.message import EmailMessage
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.cli.ruleset_play import RulesetPlay
from tests.mailer.support import outbox_mail

ALICE, BOB, CAROL = "alice@suber.test", "bob@suber.test", "carol@suber.test"
PLAYERS = [ALICE, BOB, CAROL]  # turn order: Adams, Brown, Clark
TAG = "[Suber's Nomic]"


@pytest.fixture
def game(tmp_path, new_database_url) -> RulesetPlay:
    """Alice, on turn, has made Proposal 301."""
    play = three_players(tmp_path, new_database_url())
    play.send(ALICE, "Proposal: Hello", "Enact rule: Everyone says hello.", at="2026-01-05T01:00:00Z",
              message_id="hello@suber.test")
    return play


def three_players(tmp_path, database_url: str, call_for_action: str = "false") -> RulesetPlay:
    """Three players from game.toml (listed out of turn order), all subscribed, the daily mail on."""
    players = '["Carol Clark <carol@suber.test>", "Alice Adams <alice@suber.test>", "Bob Brown <bob@suber.test>"]'
    play = RulesetPlay(tmp_path / "suber", "suber", database_url,
                       {"suber": {"players": players, "call_for_action": call_for_action, "daily_mail": "true"}})
    for i, who in enumerate(PLAYERS):
        play.send(who, "Subscribe", at=f"2026-01-05T00:0{i + 1}:00Z")
    return play


def _sent(play: RulesetPlay) -> list[tuple[str, list[str], str]]:
    return [(m["kind"], m["to"], m["subject"]) for m in play.outbox() if m["kind"] != "answer"]


def _reply(play: RulesetPlay, sender: str, to: EmailMessage, body: str, at: str) -> str:
    return play.reply(sender, to["Message-ID"].strip("<>"), body, at, subject=f"Re: {to['Subject']}")


def _vote_open(play: RulesetPlay) -> EmailMessage:
    _reply(play, ALICE, outbox_mail(play, "announcement")[0], "Call vote", "2026-01-05T02:00:00Z")
    return outbox_mail(play, "announcement")[-1]


def test_a_proposal_is_announced_to_the_list_threaded_under_its_own_mail(game):
    assert _sent(game) == [("announcement", PLAYERS, f"{TAG} Proposal 301: Hello")]
    mail = outbox_mail(game, "announcement")[0]
    assert mail["Message-ID"].startswith("<sub301.proposed.4.") and mail["Message-ID"].endswith("@suber.test>")
    assert (mail["References"], mail["To"]) == ("<hello@suber.test>", "players@suber.test")
    assert mail.get_content().splitlines()[:20] == [
        'Proposal 301: "Hello"',
        "by Alice Adams <alice@suber.test>, the player on turn.",
        "",
        "Enact rule: Everyone says hello.",
        "",
        "Its rule-changes, if adopted:",
        "  Enact rule: Everyone says hello.",
        "",
        "What adopting it would do:",
        "    --- (no rule)",
        "    +++ rule 301",
        "    @@ -0,0 +1 @@",
        "    +Everyone says hello.",
        "    Mechanics: none changed",
        "    Parameters: none changed",
        "    To apply by hand: nothing",
        "",
        'It is in debate until Alice Adams <alice@suber.test> replies to this mail with "Call vote" (rule 111).',
        "A unanimous vote adopts it.",
        ""]


def test_a_bare_call_vote_and_bare_votes_in_replies_find_their_proposal(game):
    opened = _vote_open(game)
    assert game.state()["proposals"][0]["status"] == "voting"
    assert _sent(game)[-1] == ("announcement", PLAYERS, f"{TAG} Proposal 301: the vote is open")
    assert opened["Message-ID"].startswith("<sub301.vote_called.") and opened["References"] == "<hello@suber.test>"
    links = {}
    for line in opened.get_content().splitlines():
        label, _, url = line.strip().partition(": ")
        if url.strip().startswith("mailto:"):
            query = parse_qs(urlsplit(url.strip()).query)
            links[label] = (query["subject"][0], query["body"][0])
    assert links == {"Yes": (f"Re: {TAG} Proposal 301: the vote is open", "Vote yes 301"),
                     "No": (f"Re: {TAG} Proposal 301: the vote is open", "Vote no 301")}
    _reply(game, BOB, opened, "No", "2026-01-05T03:00:00Z")
    _reply(game, CAROL, outbox_mail(game, "announcement")[0], "Yes", "2026-01-05T03:30:00Z")
    assert game.state()["proposals"][0]["votes"] == {BOB: "no", CAROL: "yes"}


def test_a_completed_vote_says_the_result_the_points_and_whose_turn_it_is(game):
    opened = _vote_open(game)
    for who in PLAYERS:
        _reply(game, who, opened, "Yes", "2026-01-05T03:00:00Z")
    assert _sent(game)[-1] == ("announcement", PLAYERS, f"{TAG} Proposal 301 adopted: Hello")
    mail = outbox_mail(game, "announcement")[-1]
    assert mail["Message-ID"].startswith("<sub301.completed.") and mail["References"] == "<hello@suber.test>"
    assert mail.get_content().splitlines()[:7] == [
        'Proposal 301, "Hello" by Alice Adams <alice@suber.test>: adopted, 3 yes and 0 no.',
        "",
        "Points:",
        "  alice@suber.test +10 (rule 202: proposal 301: (301 - 291) x 3/3), now 10",
        "",
        "The turn passes to Bob Brown (circuit 1).",
        ""]
    game.verify()


def test_a_defeated_proposal_costs_its_proposer_ten(game):
    opened = _vote_open(game)
    for who, vote in zip(PLAYERS, ("Yes", "No", "Yes")):
        _reply(game, who, opened, vote, "2026-01-05T03:00:00Z")
    mail = outbox_mail(game, "announcement")[-1]
    assert mail["Subject"] == f"{TAG} Proposal 301 defeated: Hello"
    assert mail.get_content().splitlines()[:5] == [
        'Proposal 301, "Hello" by Alice Adams <alice@suber.test>: defeated, 2 yes and 1 no.',
        "",
        "Points:",
        "  alice@suber.test -10 (rule 206: proposal 301 defeated), now -10",
        "  alice@suber.test +7 (rule 202: proposal 301: (301 - 291) x 2/3), now -3"]


def test_judgments_are_published_as_they_are_invoked_and_given(game):
    game.send(BOB, "Invoke judgment: Is hello a rule?", at="2026-01-05T05:00:00Z")
    game.send(BOB, "Judgment", "Judgment: Yes.", at="2026-01-05T05:30:00Z")  # not the Judge: nothing published
    game.send(CAROL, "Judgment", "Judgment: Yes, once adopted.", at="2026-01-05T06:00:00Z")
    assert _sent(game)[1:] == [("announcement", PLAYERS, f"{TAG} Judgment 1 invoked: Is hello a rule?"),
                               ("announcement", PLAYERS, f"{TAG} Judgment 1: Is hello a rule?")]
    invoked, given = outbox_mail(game, "announcement")[1:]
    assert invoked["Message-ID"].startswith("<judgment1.judgment_invoked.")
    assert invoked.get_content().splitlines()[:3] == [
        'Judgment 1: "Is hello a rule?"',
        f"Invoked by {BOB} while {ALICE} was on turn. The Judge is {CAROL} (rule 212),",
        'who answers with a line "Judgment: TEXT".']
    assert given.get_content().splitlines()[:4] == [
        'Judgment 1: "Is hello a rule?"',
        f"The Judge, {CAROL}, judges:",
        "",
        "Yes, once adopted."]


def test_the_daily_mail_says_whose_turn_it_is_and_how_long_it_has_lasted(game):
    opened = _vote_open(game)
    _reply(game, BOB, opened, "Yes", "2026-01-05T03:00:00Z")
    assert "daily" in game.tick("2026-01-06T00:00:00Z")
    subject = f"{TAG} 2026-01-06: Alice Adams on turn for 1 day 0 hours"
    assert [s for s in _sent(game) if s[0] != "personal"][-1] == ("daily", PLAYERS, subject)
    mail = outbox_mail(game, "daily")[0]
    assert mail["Date"] == "Tue, 06 Jan 2026 00:00:00 +0000" and mail["List-Id"] is not None
    assert mail.get_content().splitlines()[:11] == [
        "Suber's Nomic at 00:00 UTC on 2026-01-06.",
        "",
        "On turn: Alice Adams, since 2026-01-05T00:00:00Z (1 day 0 hours); circuit 1.",
        "Unanimity adopts a proposal (rule 203).",
        "",
        'Proposal 301, "Hello": voting.',
        f"Not yet voted: {ALICE}, {CAROL}",
        "",
        "Waiting for:",
        f"  Alice Adams <{ALICE}>: a vote on proposal 301 ('Vote yes 301' or 'Vote no 301')",
        f"  Carol Clark <{CAROL}>: a vote on proposal 301 ('Vote yes 301' or 'Vote no 301')"]
    assert game.tick("2026-01-06T23:59:59Z") == "nothing due\n"
    game.verify()


def test_a_turn_skipped_under_rule_305_is_announced_on_its_own(tmp_path, new_database_url):
    game = three_players(tmp_path, new_database_url(), call_for_action="true")
    game.send(BOB, "Call for action", at="2026-01-12T01:00:00Z")
    game.tick("2026-01-14T01:00:00Z")
    game.send(BOB, "Skip", "Skip yes", at="2026-01-14T02:00:00Z")
    game.send(CAROL, "Skip", "Skip yes", at="2026-01-14T03:00:00Z")
    assert game.state()["turn"] == BOB
    assert _sent(game)[-1] == ("announcement", PLAYERS, f"{TAG} Bob Brown is on turn")
    assert outbox_mail(game, "announcement")[-1].get_content().splitlines()[0] == (
        "The turn passes to Bob Brown (circuit 1).")
    assert [s for k, _, s in _sent(game) if k == "daily"][-1] == (
        f"{TAG} 2026-01-14: Alice Adams on turn for 9 days 0 hours")
    game.verify()


def test_the_answer_to_a_proposal_and_to_a_vote_is_threaded_as_about_that_proposal(game):
    """Its Message-ID names the proposal (``sub301.answer...``), as every mail about it does."""
    _vote_open(game)
    _reply(game, BOB, outbox_mail(game, "announcement")[0], "Yes", "2026-01-05T03:00:00Z")
    answers = [m for m in outbox_mail(game) if m["To"] in (ALICE, BOB)]
    ids = [a["Message-ID"].split(".")[0:2] for a in answers][-3:]
    assert ids == [["<sub301", "answer"]] * 3
