"""Issue 17's "Done means": one BlogNomic game of five Pactmakers (the Admin, Alice, Bob, Carol and
Dave) through December 2026, played by mail with ``nomic ingest`` and by the clock with ``nomic
tick`` through every bullet of the issue: matters and votes, resolution and its windows, rule
changes, people and time (Leave, Idle, Hiatus, three Dynasties, the lockout, the Seasonal
Downtime), dice, and the daily mail; the exact ``nomic state --json`` after every step, the exact
answers, announcements and tally mails, and ``nomic replay --verify`` at the end.
docs/rulings-blognomic.md says how the rules are read where the text leaves it open."""
from __future__ import annotations

import re

import pytest

from engine import dice
from tests.cli.blognomic_play import ADMIN, ALICE, BOB, CAROL, DAVE, NAMES, Expect, new_game, t
from tests.cli.ruleset_play import RulesetPlay, message_id, said, said_lines

pytestmark = pytest.mark.slow  # a whole BlogNomic game by mail: the longest end-to-end test

START = "2026-12-01T00:00:00Z"
CAKE = "Every Pactmaker may eat cake."
SIGNATURE = ["-- ", "The Humble Scribe, BlogNomic"]


def dec(day: int, hour: int, minute: int = 0, second: int = 0) -> str:
    return t(day, hour, minute, second, month=12)


def body(mail: dict) -> list[str]:
    """The lines of a mail's body (as ``nomic outbox --json`` shows it, headers dropped)."""
    return mail["text"].split("\n\n", 1)[1].splitlines()


def resolution(play: RulesetPlay, number: int) -> tuple[str, list[str]]:
    """The list's mail saying what became of matter ``number``: its subject and body."""
    mail = play.announcements(number)[-1]
    assert "\nMessage-ID: <sub%d.resolved." % number in mail["text"], mail["text"]
    return mail["subject"], body(mail)


def tally_mail(what: str, title: str, author: str, status: str, *lines: str) -> list[str]:
    """The body of a resolution mail: the result, the tally line, what it changed."""
    return [f'{what}, "{title}" by {author}: {status}.', *lines, "", "http://127.0.0.1:8000/", "", *SIGNATURE]


def daily(play: RulesetPlay, date: str) -> tuple[str, list[str]]:
    """The list's daily mail of 00:00 UTC on ``date``: its subject and body (the journal's head hash
    as HEAD: tests/cli/test_public_record.py checks it)."""
    mail = next(m for m in play.outbox() if m["kind"] == "daily" and f"] {date}: " in m["subject"])
    return mail["subject"], [re.sub(r"^  [0-9a-f]{64}$", "  HEAD", line) for line in body(mail)]


def said_each(play: RulesetPlay, sender: str, *lines: str) -> None:
    """The last ``len(lines)`` answers to ``sender`` say one line each: these, in order."""
    answers = [m["text"] for m in play.mail_to(sender) if m["kind"] == "answer"][-len(lines):]
    assert [ln for text in answers for ln in said_lines(text)] == list(lines), answers


def test_five_pactmakers_through_every_bullet_of_issue_17(tmp_path, new_database_url):
    play = new_game(tmp_path, new_database_url, daily_mail=True, start=START)
    want = Expect(play)
    want.check()

    # -- Dec 1: four people join; with the Admin, five Pactmakers and Quorum 3 -----------------
    play.send_all(dec(1, 0, 10), *[(email, "Join", "") for email in NAMES], names=NAMES)
    for i, (email, name) in enumerate(NAMES.items()):
        quorum = (i + 2) // 2 + 1
        said(play, email, f'  "Join": {name} ({email}) is a Pactmaker; Quorum is now {quorum}')
        want.view["players"].append(want.pactmaker(email, name))
    want.view["quorum"] = 3
    want.check()

    # Proposal 1 with a change line for each section and prose for the Admin; announced at once.
    text = (f'Cake for all. The Admin shall bake a cake.\nEnact rule "Cake": {CAKE}\n'
            'Amend rule "Time": All times are UTC.\nRepeal rule "Golem"\nEnact rule "Tea" in core: Tea at four.')
    play.send(ALICE, "Proposal: Cake", text, at=dec(1, 1), name="Alice")
    # untagged, its changes to the appendix and core rules are refused (rule Tags) and will not apply
    said(play, ALICE, '  "Proposal: Cake": Proposal 1 "Cake" is open for voting; Quorum is 3',
         '! "Amend rule "Time"": refused: a change to the Appendix Rules needs the [Appendix] tag in the title (rule Tags); it will not be applied if the matter is Enacted',
         '! "Enact rule "Tea"": refused: a change to the Core Rules needs the [Core] tag in the title (rule Tags); it will not be applied if the matter is Enacted')
    want.open(1, "proposal", ALICE, "Cake", dec(1, 1))
    opened = play.announcements(1)[0]
    golem = want.rule("Golem")["text"].splitlines()
    vote_link = "mailto:ths@blog.test?subject=Re%3A%20%5BBlogNomic%5D%20Proposal%201%3A%20Cake&body="
    assert (opened["subject"], body(opened)) == ("[BlogNomic] Proposal 1: Cake", [
        'Proposal 1: "Cake"', "by Alice <alice@blog.test>, open for voting from 2026-12-01 01:00 UTC; Quorum 3.", "",
        *text.splitlines(), "", "Rule changes, if enacted:",
        '  Enact rule "Cake" (dynastic)', '  Amend rule "Time" (appendix)', '  Repeal rule "Golem" (dynastic)',
        '  Enact rule "Tea" (core)', "",
        # what enacting it would do: the untagged Time and Tea lines are left out (rule Tags)
        "What enacting it would do:", '    --- rule "Golem" (dynastic)', '    +++ rule "Golem" (dynastic) (repealed)',
        f"    @@ -1,{len(golem)} +0,0 @@", *(f"    -{line}" for line in golem), "    --- (no rule)",
        '    +++ rule "Cake" (dynastic)', "    @@ -0,0 +1 @@", f"    +{CAKE}", "    Mechanics: none changed",
        "    Parameters: none changed", "    To apply by hand: Cake for all. The Admin shall bake a cake.", "",
        "Its text says more than its change lines: what they cannot say is applied by an Admin, by hand.", "",
        "Vote with one line in a reply to this mail: FOR, AGAINST or DEFERENTIAL",
        '(or, in any mail to ths@blog.test, "FOR 1"). Your Vote is the last you cast.',
        f"  FOR:         {vote_link}FOR%201", f"  AGAINST:     {vote_link}AGAINST%201",
        f"  DEFERENTIAL: {vote_link}DEFERENTIAL%201", "", *SIGNATURE])
    play.send(ALICE, "Proposal: Pie", "Pie too.", at=dec(1, 1, 30))
    want.open(2, "proposal", ALICE, "Pie", dec(1, 1, 30))
    want.check()

    # Two pending are Alice's limit; votes by a line anywhere in a mail and by a bare reply.
    play.send_all(dec(1, 2), (ALICE, "Proposal: Tart", "Tarts."), (BOB, "My votes", "Cake, yes.\nFOR 1\nSee you."),
                  (CAROL, "Votes", "AGAINST 1"))
    play.reply(DAVE, message_id(opened), "FOR", at=dec(1, 2), subject="Re: [BlogNomic] Proposal 1: Cake")
    said(play, ALICE, '! "Proposal: Tart": you already have 2 Proposals pending (1, 2) (rule Proposals); '
                      'no Proposal made')
    said(play, BOB, '  "FOR 1": FOR on Proposal 1 "Cake"; now 2 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)')
    said(play, DAVE, '  "FOR": FOR on Proposal 1 "Cake"; now 3 FOR, 1 AGAINST, 0 DEFERENTIAL (Quorum 3)')
    for voter, icon in ((BOB, "FOR"), (CAROL, "AGAINST"), (DAVE, "FOR")):
        want.vote(1, voter, icon)
    want.check()

    # Alice votes AGAINST her own Proposal 2: Self-Killed, for good, even when she votes FOR again;
    # it is not the oldest, so it waits. Carol changes her mind on Proposal 1: her last Vote counts.
    play.send(ALICE, "Votes", "AGAINST 2", at=dec(1, 3))
    said(play, ALICE, '  "AGAINST 2": AGAINST on Proposal 2 "Pie": Self-Killed, and it stays Self-Killed '
                      '(rule "Special Proposal Voting"); now 0 FOR, 1 AGAINST, 0 DEFERENTIAL (Quorum 3)')
    want.vote(2, ALICE, "AGAINST")
    want.matter(2)["self_killed"] = True
    play.send_all(dec(1, 4), (ALICE, "Votes", "FOR 2"), (BOB, "Votes", "FOR 2"), (CAROL, "Votes", "FOR 1"))
    for number, voter in ((2, ALICE), (2, BOB), (1, CAROL)):
        want.vote(number, voter, "FOR")
    want.check()

    # auto_resolve: at the very second Proposal 1 has been open 12 hours it is enacted, its change
    # lines applied; then Proposal 2 is the oldest, and fails as Self-killed at the same moment.
    assert play.tick(dec(1, 12, 59, 59)) == "nothing due\n"
    assert play.tick(dec(1, 13)).startswith("clock step 2026-12-01T13:00:00")
    want.resolve(1, "enacted", dec(1, 13))
    want.resolve(2, "failed", dec(1, 13))
    assert resolution(play, 1) == ("[BlogNomic] Proposal 1 enacted: Cake", tally_mail(
        "Proposal 1", "Cake", "Alice <alice@blog.test>", "enacted", "Enacted 4-0 (Quorum 3)", "", "What it changed:",
        '  Enact rule "Cake": enacted in the dynastic rules',
        '  Amend rule "Time": skipped: a change to the Appendix Rules needs the [Appendix] tag in the title (rule Tags)',
        '  Repeal rule "Golem": repealed', '  Enact rule "Tea": skipped: a change to the Core Rules needs the [Core] tag in the title (rule Tags)',
        "The rest of its text is for an Admin to apply by hand."))
    assert resolution(play, 2) == ("[BlogNomic] Proposal 2 failed: Pie", tally_mail(
        "Proposal 2", "Pie", "Alice <alice@blog.test>", "failed", "Self-killed"))
    want.rule("Golem")["repealed"] = True
    want.view["rules"] += [{"name": "Cake", "section": "dynastic", "text": CAKE, "repealed": False, "mechanics": []}]
    want.check()

    # The Admin applies the prose by hand; Alice's third Proposal of the UTC day is her last.
    play.send_all(dec(1, 14), (ADMIN, "Done", "Applied 1: baked a cake for everyone"),
                  (ALICE, "Proposal: Tart", "Tarts."))
    said(play, ADMIN, '  "Applied 1: baked a cake for everyone": recorded: proposal 1\'s prose applied by hand '
                      '(1 such mail so far)')
    want.open(3, "proposal", ALICE, "Tart", dec(1, 14))
    play.send_all(dec(1, 15), (ALICE, "Proposal: Scone", "Scones."), (BOB, "Votes", "AGAINST 3"))
    said(play, ALICE, '! "Proposal: Scone": you have already made 3 Proposals today (2026-12-01, UTC) '
                      '(rule Proposals); no Proposal made')
    want.vote(3, BOB, "AGAINST")
    want.check()

    # -- Dec 2: the daily mail at 00:00 UTC says what is pending, what resolved, who is idle -----
    assert play.tick(dec(2, 0)).startswith("clock step 2026-12-02T00:00:00")
    assert daily(play, "2026-12-02") == ("[BlogNomic] 2026-12-02: 1 pending, 2 resolved in the last day", [
        "BlogNomic at 00:00 UTC on 2026-12-02: Dynasty 1; Quorum 3.", "",
        "Pending, oldest first:",
        '  Proposal 3 "Tart" by alice@blog.test: 1 FOR, 1 AGAINST, 0 DEFERENTIAL (Quorum 3)',
        "    not yet Enactable: it is not Popular (1 FOR, Quorum 3)", "",
        "Resolved in the last day:", '  Proposal 1 "Cake": Enacted 4-0 (Quorum 3)', '  Proposal 2 "Pie": Self-killed',
        "", "Nobody is Idle.", "", "Waiting for:", *(
            f"  {who}: a vote on Proposal 3 \"Tart\" ('FOR 3' or 'AGAINST 3'), closes 2026-12-03 14:00 UTC"
            for who in ("admin <admin@blog.test>", "Carol <carol@blog.test>", "Dave <dave@blog.test>")),
        "", "Journal head after entry 20:", "  HEAD", "",
        "The queue: http://127.0.0.1:8000/", "", *SIGNATURE])

    # Bob's Proposal 4 waits behind Proposal 3, the oldest; a CfJ is enacted the moment it is Popular.
    play.send(BOB, "Proposal: Scone", "Scones for all.", at=dec(2, 1))
    want.open(4, "proposal", BOB, "Scone", dec(2, 1))
    play.send_all(dec(2, 2), (CAROL, "Votes", "FOR 4"), (DAVE, "Votes", "FOR 4"), (ADMIN, "Votes", "FOR 4"),
                  (CAROL, "Call for Judgement: Tags", 'Amend rule "Tags": Votable Matters have no tags.'))
    said(play, CAROL, '  "Call for Judgement: Tags": Call for Judgement 5 "Tags" is open for voting; Quorum is 3')
    for voter in (CAROL, DAVE, ADMIN):
        want.vote(4, voter, "FOR")
    want.open(5, "cfj", CAROL, "Tags", dec(2, 2))
    assert play.announcements(5)[0]["subject"] == "[BlogNomic] Call for Judgement 5: Tags"
    play.send_all(dec(2, 3), (BOB, "Votes", "FOR 5"), (DAVE, "Votes", "FOR 5"))
    said(play, DAVE, '  "FOR 5": FOR on Call for Judgement 5 "Tags"; now 3 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)',
         '  Call for Judgement 5 "Tags": Enacted 3-0 (Quorum 3)')
    want.vote(5, BOB, "FOR")
    want.vote(5, DAVE, "FOR")
    want.resolve(5, "enacted", dec(2, 3))
    want.rule("Tags")["text"] = "Votable Matters have no tags."
    assert resolution(play, 5) == ("[BlogNomic] Call for Judgement 5 enacted: Tags", tally_mail(
        "Call for Judgement 5", "Tags", "Carol <carol@blog.test>", "enacted", "Enacted 3-0 (Quorum 3)", "",
        "What it changed:", '  Amend rule "Tags": amended'))
    want.check()

    # Dice: seeded, labelled, public draws that anyone can check once the seed is revealed.
    play.send(DAVE, "Dice", "Roll DICE6\nRoll DICE20\nRoll FRUIT\nRoll COLOUR", at=dec(2, 4))
    fruit = ("Lemon", "Orange", "Kiwi", "Grape", "Cherry", "Tangelo")  # appendix, "Random Generators"
    colour = ("White", "Red", "Green", "Silver", "Yellow", "Turquoise", "Magenta", "Orange", "Purple", "Black")
    drawn = [dice.draw("test-seed", f"roll {n}: {DAVE} {die}", 1, sides)
             for n, die, sides in ((1, "DICE6", 6), (2, "DICE20", 20), (3, "FRUIT", 6), (4, "COLOUR", 10))]
    said(play, DAVE, f'  "Roll DICE6": roll 1: DICE6 gives {drawn[0]}', f'  "Roll DICE20": roll 2: DICE20 gives {drawn[1]}',
         f'  "Roll FRUIT": roll 3: FRUIT gives {fruit[drawn[2] - 1]}',
         f'  "Roll COLOUR": roll 4: COLOUR gives {colour[drawn[3] - 1]}')
    want.check()

    # Carol's Proposal 6 will outlive a Hiatus; the Admin may not resolve out of order.
    play.send(CAROL, "Proposal: Biscuits", "Biscuits.", at=dec(2, 6))
    want.open(6, "proposal", CAROL, "Biscuits", dec(2, 6))
    play.send_all(dec(2, 7), (BOB, "Votes", "FOR 6"), (DAVE, "Votes", "AGAINST 6"))
    want.vote(6, BOB, "FOR")
    want.vote(6, DAVE, "AGAINST")
    play.send(ADMIN, "Resolve", "Enact 4\nFail 3", at=dec(2, 13, 30))
    said(play, ADMIN, '! "Enact 4": Proposal 4 may not be Enacted: it is not the oldest pending Proposal (Proposal 3 is) '
                      '(rule Enacting and Failing); nothing done',
         '! "Fail 3": Proposal 3 may not be Failed: it is not Unpopular (4 not voting AGAINST, Quorum 3) '
         '(rule Enacting and Failing); nothing done')
    want.check()

    # -- Dec 3: an Admin may idle only one silent for seven days; Proposal 3 times out at 48 hours,
    # and Proposal 4, Popular for a day already, is enacted the same second.
    play.send(ADMIN, "Idling", "Idle Bob", at=dec(3, 10))
    said(play, ADMIN, '! "Idle Bob": Bob asked for nothing and last wrote at 2026-12-02T07:00:00Z: an Admin may idle '
                      'them from 2026-12-09T07:00:00Z (rule Idle Pactmakers); nothing done')
    assert play.tick(dec(3, 13, 59, 58)).endswith(": reminder\n")  # a day before the later matters' 48 hours
    assert play.tick(dec(3, 13, 59, 59)) == "nothing due\n"
    play.tick(dec(3, 14))
    want.resolve(3, "failed", dec(3, 14))
    want.resolve(4, "enacted", dec(3, 14))
    assert resolution(play, 3) == ("[BlogNomic] Proposal 3 failed: Tart", tally_mail(
        "Proposal 3", "Tart", "Alice <alice@blog.test>", "failed", "Timed out 1-1"))
    assert resolution(play, 4) == ("[BlogNomic] Proposal 4 enacted: Scone", tally_mail(
        "Proposal 4", "Scone", "Bob <bob@blog.test>", "enacted", "Enacted 4-0 (Quorum 3)"))
    want.check()

    # Dave votes AGAINST Alice's Proposal 7, then goes Idle: an Idle Pactmaker has no Vote.
    play.send(ALICE, "Proposal: Muffin", "Muffins.", at=dec(3, 15))
    want.open(7, "proposal", ALICE, "Muffin", dec(3, 15))
    play.send_all(dec(3, 16), (DAVE, "Votes", "AGAINST 7"), (ADMIN, "Votes", "FOR 7"), (BOB, "Votes", "FOR 7"))
    for voter, icon in ((DAVE, "AGAINST"), (ADMIN, "FOR"), (BOB, "FOR")):
        want.vote(7, voter, icon)
    want.check()
    play.send(DAVE, "Away", "Idle", at=dec(3, 17))
    said(play, DAVE, '  "Idle": Dave is Idle; Quorum is now 3')
    want.player(DAVE)["idle"] = True
    want.board(6, {CAROL: "FOR", BOB: "FOR"}, (2, 0, 0))
    want.board(7, {ALICE: "FOR", ADMIN: "FOR", BOB: "FOR"}, (3, 0, 0))
    play.send(BOB, "Proposal: Flapjack", "Flapjacks.", at=dec(3, 18))
    want.open(8, "proposal", BOB, "Flapjack", dec(3, 18))
    want.check()

    # -- Dec 4: two Declarations of Victory; the first puts the game into Hiatus -----------------
    play.send(ALICE, "Declaration of Victory: Cake queen", "I made the cake rule.", at=dec(4, 1))
    said(play, ALICE, '  "Declaration of Victory: Cake queen": Declaration of Victory 9 "Cake queen" is open for voting; '
                      'Quorum is 3')
    want.open(9, "dov", ALICE, "Cake queen", dec(4, 1))
    want.view["hiatus"] = True
    play.send(BOB, "Proposal: Crumpet", "Crumpets.", at=dec(4, 1, 30))
    said(play, BOB, '! "Proposal: Crumpet": the game is in Hiatus (rule Victory and Ascension); no Proposal made')
    play.send(BOB, "Declaration of Victory: Scone king", "Scones were enacted.", at=dec(4, 2))
    want.open(10, "dov", BOB, "Scone king", dec(4, 2))
    play.send_all(dec(4, 3), (BOB, "Votes", "AGAINST 9"), (CAROL, "Votes", "FOR 10"), (ADMIN, "Votes", "FOR 10"),
                  (DAVE, "Back", "FOR 10\nUnidle"))
    said(play, DAVE, '! "Back": dave@blog.test is not away; nothing changed',  # the subject: a command of its own
         '! "FOR 10": an Idle Pactmaker has no Vote (send Unidle first) (rule Idle Pactmakers); no Vote cast',
         '! "Unidle": Dave went Idle at 2026-12-03T17:00:00Z, within the previous four days and this dynasty: '
         'they may be unidled from 2026-12-07T17:00:00Z (rule Idle Pactmakers); nothing done')
    want.vote(9, BOB, "AGAINST")
    want.vote(10, CAROL, "FOR")
    want.vote(10, ADMIN, "FOR")
    want.check()

    # Declaration 10 (no AGAINST) is enacted at 12 hours: Declaration 9 fails with it, Bob is the
    # Seraphim of Dynasty 2, and the Hiatus goes on until the Ascension Address.
    assert play.tick(dec(4, 13, 59, 59)) == "nothing due\n"
    play.tick(dec(4, 14))
    want.resolve(10, "enacted", dec(4, 14))
    want.resolve(9, "failed", dec(4, 14))
    assert resolution(play, 10) == ("[BlogNomic] Declaration of Victory 10 enacted: Scone king", tally_mail(
        "Declaration of Victory 10", "Scone king", "Bob <bob@blog.test>", "enacted", "Enacted 3-0 (Quorum 3)"))
    assert resolution(play, 9) == ("[BlogNomic] Declaration of Victory 9 failed: Cake queen", tally_mail(
        "Declaration of Victory 9", "Cake queen", "Alice <alice@blog.test>", "failed",
        "Failed: Declaration of Victory 10 was Enacted"))
    want.view["dynasty"] = 2
    want.player(BOB)["seraphim"] = True
    want.check()

    # No DoV until the Address; Bob won alone, so he may not step down but may pass the role on.
    play.send_all(dec(4, 15), (CAROL, "Declaration of Victory: Me", "Me."), (BOB, "Victory", "Step down\nPass victory to Carol"))
    said(play, CAROL, '! "Declaration of Victory: Me": no DoV may be made between an enacted DoV and its Ascension '
                      'Address (rule Victory and Ascension); no Declaration of Victory made')
    said(play, BOB, '! "Step down": only a Victor or co-Victor of a collective victory may step down '
         '(rule Victory and Ascension); nothing done',
         '  "Pass victory to Carol": Carol now heads Dynasty 2')
    want.player(BOB)["seraphim"] = False
    want.player(CAROL)["seraphim"] = True
    want.check()

    # Dave asked to come back within four days and went Idle in the last Dynasty: the Admin unidles
    # him, and his old AGAINST Votes count again.
    play.send(ADMIN, "Idling", "Unidle Dave", at=dec(5, 10))
    said(play, ADMIN, '  "Unidle Dave": Dave is no longer Idle; Quorum is now 3')
    want.player(DAVE)["idle"] = False
    want.board(6, {CAROL: "FOR", BOB: "FOR", DAVE: "AGAINST"}, (2, 1, 0))
    want.board(7, {ALICE: "FOR", ADMIN: "FOR", BOB: "FOR", DAVE: "AGAINST"}, (3, 1, 0))
    want.check()

    # -- Dec 9: Carol's Ascension Address keeps "Cake" and Proposals 6 and 7, renames Pactmakers
    # Bakers; Proposal 8 fails. The Hiatus ends: Proposal 6, pending over 7 days, may only be failed
    # (Popular though it is), and Proposal 7 is then the oldest and is enacted.
    address = 'Keep rule "Cake"\nKeep proposal 6\nKeep proposal 7\nRename Pactmaker to Baker'
    play.send(CAROL, "Ascension Address: Bakers", address, at=dec(9, 10))
    said(play, CAROL, '  "Ascension Address: Bakers": Dynasty 2 begins: Bakers; 15 dynastic rules repealed, '
                      '1 Proposal failed', '  Proposal 6 "Biscuits" failed: Timed out 2-1',
         '  Proposal 7 "Muffin": Enacted 3-1 (Quorum 3)')
    for number, status in ((8, "failed"), (6, "failed"), (7, "enacted")):
        want.resolve(number, status, dec(9, 10))
    assert resolution(play, 8)[1][1] == "Failed: not kept by the Ascension Address"
    want.view["hiatus"] = False
    for rule in want.view["rules"]:
        rule["repealed"] = rule["repealed"] or (rule["section"] == "dynastic" and rule["name"] != "Cake")
        rule["mechanics"] = [] if rule["repealed"] else rule["mechanics"]  # Tags repealed: no tags checked
        for old, new in (("Pactmaker", "Baker"), ("pactmaker", "baker")):
            rule["name"], rule["text"] = rule["name"].replace(old, new), rule["text"].replace(old, new)
    want.check()
    assert want.rule("Idle Bakers")["text"].startswith("Some Bakers are Idle")

    # Alice's Declaration 9 failed with an AGAINST Vote: no DoV from her for 120 hours.
    play.send(ALICE, "Declaration of Victory: Again", "Again.", at=dec(9, 10, 30))
    said(play, ALICE, '! "Declaration of Victory: Again": your last DoV failed with AGAINST Votes: you may make another '
                      'after 2026-12-09T14:00:00Z (rule Victory and Ascension); no Declaration of Victory made')

    # DEFERENTIAL follows the Seraphim; a Seraphim's VETO is sticky.
    play.send_all(dec(9, 11), (ALICE, "Proposal: Waffle", "Waffles."), (DAVE, "Proposal: Crepe", "Crepes."))
    want.open(11, "proposal", ALICE, "Waffle", dec(9, 11))
    want.open(12, "proposal", DAVE, "Crepe", dec(9, 11))
    play.send_all(dec(9, 12), (BOB, "Votes", "FOR 11\nDEFERENTIAL 11\nVETO 12"), (DAVE, "Votes", "DEFERENTIAL 11"),
                  (ADMIN, "Votes", "AGAINST 11"), (CAROL, "Votes", "VETO 12"))
    said(play, BOB, '  "FOR 11": FOR on Proposal 11 "Waffle"; now 2 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)',
         '  "DEFERENTIAL 11": DEFERENTIAL on Proposal 11 "Waffle" (your FOR stands: a DEFERENTIAL counts only once '
         'a quorum of the Seraphims shares a Vote); now 2 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)',
         '! "VETO 12": only a Seraphim may VETO (rule Special Proposal Voting); no Vote cast')
    said(play, CAROL, '  "VETO 12": VETO on Proposal 12 "Crepe": Vetoed, and it stays Vetoed whatever '
         'the Votes (rule "Special Proposal Voting"); now 1 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)')
    want.board(11, {ALICE: "FOR", BOB: "FOR", DAVE: "DEFERENTIAL", ADMIN: "AGAINST"}, (2, 1, 1))
    want.board(12, {DAVE: "FOR", CAROL: "VETO"}, (1, 0, 0))
    want.matter(12)["vetoed"] = True
    want.check()
    play.send(CAROL, "Votes", "FOR 11\nFOR 12", at=dec(9, 13))
    said(play, CAROL, '  "FOR 11": FOR on Proposal 11 "Waffle"; now 4 FOR, 1 AGAINST, 0 DEFERENTIAL (Quorum 3)',
         '  "FOR 12": FOR on Proposal 12 "Crepe"; now 2 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)')
    want.board(11, {ALICE: "FOR", BOB: "DEFERENTIAL", DAVE: "DEFERENTIAL", ADMIN: "AGAINST", CAROL: "FOR"}, (4, 1, 0))
    want.board(12, {DAVE: "FOR", CAROL: "FOR"}, (2, 0, 0))
    want.check()
    assert play.tick(dec(9, 22, 59, 59)) == "nothing due\n"
    play.tick(dec(9, 23))
    want.resolve(11, "enacted", dec(9, 23))
    want.resolve(12, "failed", dec(9, 23))
    assert resolution(play, 11) == ("[BlogNomic] Proposal 11 enacted: Waffle", tally_mail(
        "Proposal 11", "Waffle", "Alice <alice@blog.test>", "enacted",
        "Enacted 4-1 (Quorum 3), 2 DEF→FOR via the Seraphim"))
    assert resolution(play, 12) == ("[BlogNomic] Proposal 12 failed: Crepe", tally_mail(
        "Proposal 12", "Crepe", "Dave <dave@blog.test>", "failed", "Vetoed"))
    want.check()

    # -- Dec 10: Dave's Declaration gets three AGAINST: Unpopular, failed at 12 hours; the Hiatus
    # ends, and Dave may make no DoV for 120 hours. VETO is for Proposals only. Bob leaves.
    play.send(DAVE, "Declaration of Victory: Crepe master", "Crepes!", at=dec(10, 1))
    want.open(13, "dov", DAVE, "Crepe master", dec(10, 1))
    want.view["hiatus"] = True
    play.send_all(dec(10, 2), (ADMIN, "Votes", "AGAINST 13"), (BOB, "Votes", "AGAINST 13"),
                  (CAROL, "Votes", "AGAINST 13\nVETO 13"))
    said(play, CAROL, '  "AGAINST 13": AGAINST on Declaration of Victory 13 "Crepe master"; now 1 FOR, 3 AGAINST, '
                      '0 DEFERENTIAL (Quorum 3)', '! "VETO 13": VETO is for Proposals only (rule Special Proposal Voting); no Vote cast')
    for voter in (ADMIN, BOB, CAROL):
        want.vote(13, voter, "AGAINST")
    want.check()
    play.tick(dec(10, 13))
    want.resolve(13, "failed", dec(10, 13))
    want.view["hiatus"] = False
    assert resolution(play, 13)[1][1] == "Failed 1-3 (Quorum 3)"
    play.send(BOB, "Bye", "Leave", at=dec(10, 14))
    said(play, BOB, '  "Leave": Bob is no longer a Baker; you may join again from 2026-12-24T14:00:00Z; Quorum is now 3')
    want.view["players"].remove(want.player(BOB))
    want.check()

    # -- Dec 15: no rejoining within two weeks; Dave's DoV from the second after his 120 hours, with
    # Alice as co-Victor. Admin's AGAINST means 24 hours, unless a quorum of the Seraphim is FOR.
    play.send_all(dec(15, 13), (BOB, "Join", ""), (DAVE, "Declaration of Victory: Crepe master again", "Still crepes."))
    said(play, BOB, '! "Join": you ceased to be a Baker at 2026-12-10T14:00:00Z: you may join again from '
                    '2026-12-24T14:00:00Z (rule Bakers); nothing done')
    said(play, DAVE, '! "Declaration of Victory: Crepe master again": your last DoV failed with AGAINST Votes: you may '
                     'make another after 2026-12-15T13:00:00Z (rule Victory and Ascension); no Declaration of Victory '
                     'made')
    play.send(DAVE, "Declaration of Victory: Crepe master again", "Still crepes.\nCo-Victors: Alice",
              at=dec(15, 13, 0, 1))
    want.open(14, "dov", DAVE, "Crepe master again", dec(15, 13, 0, 1))
    want.view["hiatus"] = True
    play.send_all(dec(15, 14), (ALICE, "Votes", "FOR 14"), (ADMIN, "Votes", "AGAINST 14"))
    want.vote(14, ALICE, "FOR")
    want.vote(14, ADMIN, "AGAINST")
    assert play.tick(dec(16, 1, 0, 1)).startswith("clock step")  # 12 hours: only the daily mail
    want.check()
    play.send(CAROL, "Votes", "FOR 14", at=dec(16, 5))
    said(play, CAROL, '  "FOR 14": FOR on Declaration of Victory 14 "Crepe master again"; now 3 FOR, 1 AGAINST, '
                      '0 DEFERENTIAL (Quorum 3)', '  Declaration of Victory 14 "Crepe master again": '
                      'Enacted 3-1 (Quorum 3)')
    want.vote(14, CAROL, "FOR")
    want.resolve(14, "enacted", dec(16, 5))
    want.view["dynasty"] = 3
    want.player(CAROL)["seraphim"] = False
    want.player(DAVE)["seraphim"] = want.player(ALICE)["seraphim"] = True
    want.check()

    # A collective victory: no passing the role; when both step down, a Metadynasty.
    play.send_all(dec(16, 6), (ALICE, "Victory", "Step down"), (DAVE, "Victory", "Pass victory to Carol\nStep down"))
    said(play, ALICE, '  "Step down": you have stepped down; 1 still heads the Dynasty')
    said(play, DAVE, '! "Pass victory to Carol": only a Victor who achieved victory alone may pass the role '
         '(rule Victory and Ascension); nothing done',
         '  "Step down": you have stepped down; Dynasty 3 is a Metadynasty and every dynastic rule is repealed')
    want.player(DAVE)["seraphim"] = want.player(ALICE)["seraphim"] = False
    want.view["hiatus"] = False
    want.rule("Cake")["repealed"] = True
    want.check()

    # -- Dec 22-23: the Admin idles Alice once she has been silent seven days: Quorum 2.
    play.send(ADMIN, "Idling", "Idle Alice", at=dec(22, 10))
    said(play, ADMIN, '! "Idle Alice": Alice asked for nothing and last wrote at 2026-12-16T06:00:00Z: an Admin may '
                      'idle them from 2026-12-23T06:00:00Z (rule Idle Bakers); nothing done')
    play.send(ADMIN, "Idling", "Idle Alice", at=dec(23, 6))
    said(play, ADMIN, '  "Idle Alice": Alice is Idle; Quorum is now 2')
    want.player(ALICE)["idle"] = True
    want.view["quorum"] = 2
    play.send(CAROL, "Proposal: Yule log", "A log.", at=dec(23, 14))
    want.open(15, "proposal", CAROL, "Yule log", dec(23, 14))
    play.send(ADMIN, "Votes", "FOR 15", at=dec(23, 15))
    want.vote(15, ADMIN, "FOR")
    want.check()

    # -- Dec 24-26, the Seasonal Downtime: Proposal 15 waits though Popular; no Proposals or DoVs;
    # votes and CfJs go on. (What else it refuses: test_the_seasonal_downtime_refuses_joining_idling_and_dice.)
    assert play.tick(dec(24, 2)).startswith("clock step")
    assert daily(play, "2026-12-24") == ("[BlogNomic] 2026-12-24: 1 pending, 0 resolved in the last day", [
        "BlogNomic at 00:00 UTC on 2026-12-24: Dynasty 3; Quorum 2.", "",
        "Pending, oldest first:",
        '  Proposal 15 "Yule log" by carol@blog.test: 2 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 2)',
        "    not yet Enactable: it is the Seasonal Downtime (24 to 26 December): only Calls for Judgement are resolved",
        "", "Nothing was resolved in the last day.", "", "Idle: alice@blog.test",
        "Near the seven-day mark (an Admin may idle them from the time shown):",
        "  dave@blog.test: last wrote 2026-12-16T06:00:00Z, from 2026-12-23T06:00:00Z", "",
        "Waiting for:",
        "  Dave <dave@blog.test>: a vote on Proposal 15 \"Yule log\" ('FOR 15' or 'AGAINST 15'), closes 2026-12-25 14:00 UTC",
        "", "Journal head after entry 82:", "  HEAD", "", "The queue: http://127.0.0.1:8000/", "", *SIGNATURE])
    play.send_all(dec(24, 10), (DAVE, "Proposal: Mince pie", "Pies."), (DAVE, "Declaration of Victory: Yule", "Me."),
                  (DAVE, "Votes", "FOR 15"), (CAROL, "Call for Judgement: Holly", 'Enact rule "Holly": Deck the halls.'))
    said_each(play, DAVE, '! "Proposal: Mince pie": it is the Seasonal Downtime (24 to 26 December) (rule Seasonal Downtime); '
              'no Proposal made',
              '! "Declaration of Victory: Yule": it is the Seasonal Downtime (24 to 26 December) (rule Seasonal Downtime); '
              'no Declaration of Victory made',
              '  "FOR 15": FOR on Proposal 15 "Yule log"; now 3 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 2)')
    want.vote(15, DAVE, "FOR")
    want.open(16, "cfj", CAROL, "Holly", dec(24, 10))
    play.send(ADMIN, "Votes", "FOR 16", at=dec(24, 11))
    said(play, ADMIN, '  "FOR 16": FOR on Call for Judgement 16 "Holly"; now 2 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 2)',
         '  Call for Judgement 16 "Holly": Enacted 2-0 (Quorum 2)')
    want.vote(16, ADMIN, "FOR")
    want.resolve(16, "enacted", dec(24, 11))
    want.view["rules"].append({"name": "Holly", "section": "dynastic", "text": "Deck the halls.", "repealed": False,
                               "mechanics": []})
    want.check()
    play.tick(dec(26, 12))
    assert play.tick(dec(26, 23, 59, 59)) == "nothing due\n"
    play.tick(dec(27, 0))
    want.resolve(15, "enacted", dec(27, 0))
    assert resolution(play, 15)[1][1] == "Enacted 3-0 (Quorum 2)"
    want.check()

    # -- Dec 27: Bob rejoins, two weeks on; Alice, idled by the Admin, comes back at once.
    play.send_all(dec(27, 1), (BOB, "Join", ""), (ALICE, "Back", "Unidle"), names=NAMES)
    said(play, BOB, '  "Join": Bob (bob@blog.test) is a Baker; Quorum is now 3')
    said(play, ALICE, '! "Back": alice@blog.test is not away; nothing changed',
         '  "Unidle": Alice is no longer Idle; Quorum is now 3')
    want.view["players"].append(want.pactmaker(BOB, "Bob"))
    want.player(ALICE)["idle"] = False
    want.view["quorum"] = 3
    want.check()

    assert len([m for m in play.outbox() if m["kind"] == "answer"]) == play.sent  # every message answered
    play.verify()


def test_the_seasonal_downtime_refuses_joining_idling_and_dice(tmp_path, new_database_url):
    play = new_game(tmp_path, new_database_url, start=START)
    play.send(ALICE, "Join", at=dec(23, 10), name="Alice")
    want = Expect(play)
    want.view["players"].append(want.pactmaker(ALICE, "Alice"))
    want.view["quorum"] = 2
    play.send_all(dec(24, 10), (BOB, "Join", ""), (ALICE, "Away", "Idle"), (ADMIN, "Dice", "Roll DICE6"))
    why = ("it is the Seasonal Downtime (24 to 26 December): only Votes and Calls for Judgement go on "
           "until 27 December (rule Seasonal Downtime); nothing done")
    for sender, command in ((BOB, "Join"), (ALICE, "Idle"), (ADMIN, "Roll DICE6")):
        said(play, sender, f'! "{command}": {why}')
    want.check()
    play.verify()


def test_an_amended_rules_section_in_the_announcement(tmp_path, new_database_url):
    play = new_game(tmp_path, new_database_url, start=START)
    play.send(ALICE, "Join", at=dec(1, 0, 10), name="Alice")
    play.send(ALICE, "Proposal: Times", 'Amend rule "Time": All times are UTC.\nRepeal rule "Votes"', at=dec(1, 1))
    changes = body(play.announcements(1)[0])
    assert changes[changes.index("Rule changes, if enacted:") + 1:][:2] == [
        '  Amend rule "Time" (appendix)', '  Repeal rule "Votes" (core)']
