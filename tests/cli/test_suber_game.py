"""Issue 18's "done" game through the command line: a game made by ``nomic init --ruleset suber``,
three players playing two full circuits and a third turn by mail with ``nomic ingest``, the exact
``nomic state --json`` after every message (turn, numbers, statuses, scores, rules), an answer to
every message, and ``nomic replay --verify`` at the end. The expected states are those of the
engine-level game (tests/suber/test_game.py)."""
from __future__ import annotations

import json
from datetime import timedelta
from itertools import count

import pytest

from storage.config import parse_time
from tests.cli.ruleset_play import RulesetPlay, message_id, said
from tests.suber.support import ALICE, BOB, CAROL, PLAYERS
from tests.suber.test_game import HELLO, HELLO_BYE, MAJORITY, RULE_210, Expect, done

pytestmark = pytest.mark.slow  # a whole Suber game by mail, end to end

START = parse_time("2026-01-05T00:00:00Z")


class SuberPlay(RulesetPlay):
    """Each message ten minutes after the last (well under [answers] per_sender_per_hour); ``json`` is ``nomic state --json`` (what Expect reads)."""

    def __init__(self, tmp_path, database_url: str) -> None:
        super().__init__(tmp_path / "suber", "suber", database_url, {"suber": {"players": json.dumps(PLAYERS)}})
        self.minutes = count(1)

    def mail(self, sender: str, subject: str, body: str = "", reply_to: int | None = None, **kw) -> str:
        """One message; ``reply_to``: a reply to proposal N's announcement on the list."""
        at = (START + timedelta(minutes=10 * next(self.minutes))).isoformat().replace("+00:00", "Z")
        if reply_to is not None:
            return self.reply(sender, message_id(self.announcements(reply_to)[0]), body, at, subject=subject)
        return self.send(sender, subject, body, at, **kw)

    def json(self) -> dict:
        return self.state()


def play_turn(play: SuberPlay, want: Expect, number: int, author: str, title: str, body: str,
              votes: dict[str, str]) -> None:
    """A proposal, then the call and the votes in replies to its announcement, checking the state after
    every message but the last vote (the completion: the caller's)."""
    play.mail(author, f"Proposal: {title}", body)
    assert play.announcements(number)[0]["subject"] == f"[Suber's Nomic] Proposal {number}: {title}"
    want.propose(number, author, title)
    want.check()
    play.mail(author, f"Re: Proposal: {title}", "Call vote", reply_to=number)
    want.proposal(number)["status"] = "voting"
    want.check()
    for i, (player, vote) in enumerate(votes.items()):
        play.mail(player, f"Re: Proposal: {title}", vote.capitalize(), reply_to=number)
        want.proposal(number)["votes"][player] = vote
        if i < len(votes) - 1:
            want.check()


def test_two_circuits_and_a_third_turn_by_mail(tmp_path, new_database_url):
    play = SuberPlay(tmp_path, new_database_url())
    want = Expect(play)  # type: ignore[arg-type]
    want.check()

    # Circuit 1, turn 1 (Alice): an enactment, unanimous: rule 301, (301 - 291) x 3/3 = 10 points.
    play_turn(play, want, 301, ALICE, "Hello", f"Enact rule: {HELLO}", {ALICE: "yes", BOB: "yes", CAROL: "yes"})
    done(want, 301, "adopted", 10)
    want.enact(301, HELLO)
    want.score(ALICE, 10)
    want.view["turn"] = BOB
    want.check()

    # Turn 2 (Bob): Carol may not propose out of turn; her No, cast during debate, defeats it under
    # unanimity: round(11 x 2/3) = 7 points, less 10 (rule 206).
    play.mail(CAROL, "Proposal: Mine first", f"Enact rule: {HELLO}")
    said(play, CAROL, f'! "Proposal: Mine first": refused, no number given: it is {BOB}\'s turn; only the '
                      "player on turn may propose (rule 201)")
    want.check()
    play.mail(BOB, "Proposal: Consulting", f"Amend rule 210: {RULE_210}")
    want.propose(302, BOB, "Consulting")
    play.mail(CAROL, "Vote", "Vote no 302")
    said(play, CAROL, '  "Vote no 302": no on proposal 302 recorded (1 of 3 players have voted)')
    want.proposal(302)["votes"][CAROL] = "no"
    want.check()
    play.mail(CAROL, "Re: Proposal: Consulting", "Yes", reply_to=302)
    said(play, CAROL, '! "Yes": you have voted no on proposal 302; each player has exactly one vote (rule 207)')
    play.mail(ALICE, "Re: Proposal: Consulting", "Yes", reply_to=302)
    want.proposal(302)["votes"][ALICE] = "yes"
    play.mail(BOB, "Re: Proposal: Consulting", "Call vote\nYes", reply_to=302)
    want.proposal(302)["votes"][BOB] = "yes"
    done(want, 302, "defeated", 7)
    want.score(BOB, -3)
    want.view["turn"] = CAROL
    want.check()

    # Turn 3 (Carol): amending rule 301 renumbers it 303 (rule 108); 12 points.
    play_turn(play, want, 303, CAROL, "Goodbye", f"Amend rule 301: {HELLO_BYE}",
              {CAROL: "yes", ALICE: "yes", BOB: "yes"})
    done(want, 303, "adopted", 12)
    want.renumber(301, 303, text=HELLO_BYE)
    want.score(CAROL, 12)
    want.view.update(turn=ALICE, circuit=2)
    want.check()

    # Circuit 2, turn 4 (Alice): an immutable rule amended without transmutation is refused, no
    # number; transmuting rule 116 (unanimously) makes it mutable rule 304; 13 points.
    play.mail(ALICE, "Proposal: Bad", "Amend rule 116: Anything goes.")
    said(play, ALICE, '! "Proposal: Bad": refused, no number given: rule 116 is immutable: only a '
                      "transmutation, stated explicitly, may change it first (rules 103 and 109)")
    want.check()
    play_turn(play, want, 304, ALICE, "Soften 116", "Transmute rule 116", {ALICE: "yes", BOB: "yes", CAROL: "yes"})
    done(want, 304, "adopted", 13)
    want.renumber(116, 304, mutable=True)
    want.score(ALICE, 23)
    want.view["turn"] = BOB
    want.check()

    # Turn 5 (Bob): a repeal keeps the rule's number; 14 points.
    play_turn(play, want, 305, BOB, "No more 210", "Repeal rule 210", {BOB: "yes", CAROL: "yes", ALICE: "yes"})
    done(want, 305, "adopted", 14)
    want.rule(210)["repealed"] = True
    want.score(BOB, 11)
    want.view["turn"] = CAROL
    want.check()

    # Turn 6 (Carol): defeated by one No: round(15 x 2/3) = 10, less 10. The second complete circuit
    # ends: rule 203 now asks only a simple majority.
    play_turn(play, want, 306, CAROL, "Again", f"Enact rule: {HELLO}", {CAROL: "yes", ALICE: "yes", BOB: "no"})
    said(play, BOB, '  "No": no on proposal 306 recorded (3 of 3 players have voted)',
         '  "proposal 306": defeated, 2 of 3 votes in favour')
    done(want, 306, "defeated", 10)
    want.view.update(turn=ALICE, circuit=3, unanimity=False)
    want.view["parameters"]["adoption"] = "majority"
    want.check()

    # Circuit 3, turn 7 (Alice): adopted by majority; Carol, against, gains 10 (rule 204);
    # round(16 x 2/3) = 11 to Alice; rule 203 becomes rule 307.
    play_turn(play, want, 307, ALICE, "Majority", f"Amend rule 203: {MAJORITY}",
              {ALICE: "yes", BOB: "yes", CAROL: "no"})
    done(want, 307, "adopted", 11)
    want.renumber(203, 307, text=MAJORITY, mechanics=[])  # amended, rule 203 no longer changes itself
    want.score(CAROL, 22)
    want.score(ALICE, 34)
    want.view["turn"] = BOB
    want.check()

    assert len([m for m in play.outbox() if m["kind"] == "answer"]) == play.sent  # every message answered
    play.verify()
