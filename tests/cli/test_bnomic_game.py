"""Issue 29's game through the command line: a game made by ``nomic init --ruleset bnomic``, five
Players by mail with ``nomic ingest`` and the Clock run by ``nomic tick``: the Ministries taken, the
Clock started and stopped by itself at Ballotday, proposals with a conflict and a dependency, the
Ballot and the results mailed in the Assessor-report form, exact ``nomic state --json`` keys at
each step, an answer to every message, and ``nomic replay --verify`` at the end."""
from __future__ import annotations

import json
import re

from tests.cli.ruleset_play import RulesetPlay, said

ALICE, BOB, CAROL, DAVE, ERIN = (f"{n}@b.test" for n in ("alice", "bob", "carol", "dave", "erin"))
PLAYERS = ["Alice <alice@b.test>", "Bob <bob@b.test>", "Carol <carol@b.test>", "Dave <dave@b.test>",
           "Erin <erin@b.test>"]
SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"


class BNomicPlay(RulesetPlay):
    def __init__(self, tmp_path, database_url: str) -> None:
        super().__init__(tmp_path / "bnomic", "bnomic", database_url, {"bnomic": {"players": json.dumps(PLAYERS)}})

    def list_mail(self, subject: str) -> str:
        """The body of the one mail to the list with this subject (without the list's tag)."""
        found = [m for m in self.outbox() if m["subject"] == f"[B Nomic] {subject}"]
        assert len(found) == 1, [m["subject"] for m in self.outbox()]
        return found[0]["text"].split("\n\n", 1)[1]


def body_of(text: str) -> str:
    """A mail's body up to its signature."""
    return text.split("\n-- \n")[0]


def test_two_nweeks_of_b_nomic_by_mail(tmp_path, new_database_url):
    play = BNomicPlay(tmp_path, new_database_url())
    play.send(ALICE, "Ministries", SEVEN + "\nClock on", "2026-01-05T01:00:00Z")
    said(play, ALICE, *[f'  "Take {m}": you hold the Ministry of {n} (the {t})' for m, n, t in (
        ("Society", "Society", "Registrar"), ("Law", "Law", "Rulekeeper"), ("Change", "Change", "Chairman"),
        ("Questions", "Questions", "Oracle"), ("Foreign Relations", "Foreign Relations", "Ambassador"),
        ("Goods", "Goods", "Artisan"), ("MoM", "Ministry", "MetaMin"))],
        '  "Clock on": the Clock is On: nweek 1, nday 1 (Breakday)')
    play.send(BOB, "Proposal: Tea", "Tea for all.\nBob gains 2 points", "2026-01-05T02:00:00Z")
    said(play, BOB, '  "Proposal: Tea": proposal 1, Pending; 1 change line (Bob gains 2 points)')
    play.send(CAROL, "Proposal: Coffee", "Coffee instead.\nConflicts: 1", "2026-01-05T03:00:00Z")
    play.send(DAVE, "Proposal: Milk", "Milk in it.\nDepends on: 2\nDave gains 1 point", "2026-01-05T04:00:00Z")
    assert play.list_mail("Proposal 1: Tea").startswith(
        'Proposal 1: "Tea"\nby Bob <bob@b.test>; Pending.\n\nTea for all.\nBob gains 2 points\n')
    state = play.state()
    assert [(p["key"], p["number"], p["status"], p["conflicts"], p["dependencies"]) for p in state["proposals"]] == [
        (1, 1, "pending", [], []), (2, 2, "pending", [1], []), (3, 3, "pending", [], [2])]

    play.tick("2026-01-13T00:00:00Z")  # eight midnights: Ballotday, and the Clock stops
    state = play.state()
    assert state["clock"] == {"nweek": 1, "nday": 9, "nday_name": "Ballotday", "on": False, "ndelay": 0,
                              "voting": True, "nday_changes": 8, "ndelay_changes": 0, "rdays": 8}
    assert [p["status"] for p in state["proposals"]] == ["open"] * 3
    assert [p["vote_power"] for p in state["players"]] == ["1"] * 5
    assert body_of(play.list_mail("2026-01-13: nweek 1, Ballotday, the Clock is Off")) == (
        "B Nomic at 00:00 UTC on 2026-01-13.\n\nnweek 1, nday 9 (Ballotday), the Clock is Off, ndelay 0\n"
        "Ballotday: 3 proposals became Open\nIt is the Voting Period: proposal 1, proposal 2, proposal 3\n\n"
        "Waiting for:\n" + "".join(
            f"  {name}: " + ("the Ballot of this Voting Period; " if name.startswith("Alice") else "")
            + 'a Vote on proposal 1 "Tea"; a Vote on proposal 2 "Coffee"; '
            + ("and 1 more" if name.startswith("Alice") else 'a Vote on proposal 3 "Milk"') + "\n"
            for name in ("Alice <alice@b.test>", "Bob <bob@b.test>", "Carol <carol@b.test>", "Dave <dave@b.test>",
                         "Erin <erin@b.test>"))
        + "\nThe game: http://127.0.0.1:8000/\n")

    play.send(BOB, "Votes", "FOR 1\nABSTAIN 2", "2026-01-13T01:00:00Z")
    said(play, BOB, '  "FOR 1": FOR on proposal 1 is your Final Vote (Vote Power 1)',
         '  "ABSTAIN 2": ABSTAIN on proposal 2 is your Final Vote (Vote Power 1)')
    announcement = [m for m in play.outbox() if m["subject"] == "[B Nomic] Proposal 1: Tea"][0]
    msgid = re.search(r"^Message-ID: <(.+)>$", announcement["text"], re.M)[1]
    play.reply(ALICE, msgid, "FOR", "2026-01-13T02:00:00Z", subject="Re: [B Nomic] Proposal 1: Tea")
    said(play, ALICE, '  "FOR": FOR on proposal 1 is your Final Vote (Vote Power 1)')
    play.send(CAROL, "Votes", "AGAINST 1\nFOR 2", "2026-01-13T03:00:00Z")
    play.send(DAVE, "Votes", "FOR 2\nFOR 3", "2026-01-13T04:00:00Z")
    play.send(ERIN, "Votes", "Vote FOR 1\nFOR 3\nMAYBE 2", "2026-01-13T05:00:00Z")
    said(play, ERIN, '  "Vote FOR 1": FOR on proposal 1 is your Final Vote (Vote Power 1)',
         '  "FOR 3": FOR on proposal 3 is your Final Vote (Vote Power 1)')
    assert "> MAYBE 2" in play.answer_to(ERIN)

    play.send(ALICE, "Ballot", "Publish ballot\nClock on", "2026-01-13T06:00:00Z")
    said(play, ALICE, '  "Publish ballot": the Ballot of 3 Open proposals is mailed to the list',
         '  "Clock on": the Clock is On: nweek 1, nday 9 (Ballotday)')
    assert body_of(play.list_mail("Ballot of nweek 1")) == (
        'The Ballot: every Open proposal. Vote with "FOR N", "AGAINST N" or "ABSTAIN N";\n'
        "a proposal fails quorum unless its Stamina is above 0.\n\n"
        'Proposal 1: "Tea" by Bob <bob@b.test>\n  FOR: Bob, Alice, Erin\n  AGAINST: Carol\n  ABSTAIN: -\n'
        "  Stamina 4, Strength 2\n\nTea for all.\nBob gains 2 points\n\n"
        'Proposal 2: "Coffee" by Carol <carol@b.test>\n  FOR: Carol, Dave\n  AGAINST: -\n  ABSTAIN: Bob\n'
        "  Stamina 2, Strength 2\n\nCoffee instead.\nConflicts: 1\n\n"
        'Proposal 3: "Milk" by Dave <dave@b.test>\n  FOR: Dave, Erin\n  AGAINST: -\n  ABSTAIN: -\n'
        "  Stamina 2, Strength 2\n\nMilk in it.\nDepends on: 2\nDave gains 1 point\n")

    play.tick("2026-01-17T00:00:00Z")  # nday 10, 11, 12, then the end of Voting and of the nweek
    # Conflict Culling: 1 and 2 have Strength 2; the higher number goes first, so 2 culls 1 (Reading 22)
    assert body_of(play.list_mail("Results of the Voting of nweek 1")) == (
        'Proposal 1: "Tea" by Bob <bob@b.test>\n  FOR: Bob, Alice, Erin\n  AGAINST: Carol\n  ABSTAIN: -\n'
        "  Stamina 4, Strength 2: FAILED (culled: it conflicts with proposal 2, which is Won)\n\n"
        'Proposal 2: "Coffee" by Carol <carol@b.test>\n  FOR: Carol, Dave\n  AGAINST: -\n  ABSTAIN: Bob\n'
        "  Stamina 2, Strength 2: PASSED\n\n"
        'Proposal 3: "Milk" by Dave <dave@b.test>\n  FOR: Dave, Erin\n  AGAINST: -\n  ABSTAIN: -\n'
        "  Stamina 2, Strength 2: PASSED\n")
    state = play.state()
    assert state["clock"] == {"nweek": 2, "nday": 1, "nday_name": "Breakday", "on": False, "ndelay": 0,
                              "voting": False, "nday_changes": 12, "ndelay_changes": 0, "rdays": 12}
    assert [(p["status"], p["success"], p["passed"], p["ever_won"]) for p in state["proposals"]] == [
        ("historical", "lost", False, True), ("historical", "won", True, True), ("historical", "won", True, True)]
    # 2-6: 1 (Won, culled): voters +1, Bob +1 per FOR (3); 2 (Passed): Carol +2 per FOR (4); 3: Dave +2 x 2,
    # and +1 from its change line; Alice was paid m50 as a Minister, and every Ministry is Vacant
    assert [(p["email"], p["points"], p["mackerel"], p["active"]) for p in state["players"]] == [
        (ALICE, 1, "m100", True), (BOB, 1 + 3, "m50", True), (CAROL, 2 + 4, "m50", True),
        (DAVE, 2 + 4 + 1, "m50", True), (ERIN, 2, "m50", True)]
    assert [m["holder"] for m in state["ministries"]] == [None] * 7
    assert state["quorum_exceeds"] == "5/2"
    play.verify()
    nweek_two(play)

    play.cli("build", "--out", str(tmp_path / "site"))
    page = (tmp_path / "site" / "proposals" / "k1.html").read_text()
    assert "Stamina 4, Strength 2." in page and page.count("<td>FOR</td>") == 3 and "<td>AGAINST</td>" in page
    assert "Results of nweek 1" in (tmp_path / "site" / "proposals" / "index.html").read_text()


def nweek_two(play: BNomicPlay) -> None:
    """The Ministries taken again, a usurpation, a newcomer expelled, a quorum failure and a pass."""
    play.send(DAVE, "Proposal: Jam", "Jam.", "2026-01-17T00:30:00Z")  # nobody is Chairman: no number yet
    said(play, DAVE, '  "Proposal: Jam": a proposal, to be numbered by the Chairman, Pending; 0 change lines')
    assert play.list_mail("A new proposal: Jam").startswith('A new proposal (the Chairman numbers it): "Jam"')
    play.send(BOB, "Chair", "Take the Chairman", "2026-01-17T01:00:00Z")
    assert play.list_mail("Proposal 4: Jam").startswith('Proposal 4: "Jam"\nby Dave <dave@b.test>; Pending.')
    play.send(ALICE, "Ministries", SEVEN.replace("Take Change\n", "") + "\nClock on", "2026-01-17T01:10:00Z")
    said(play, ALICE, *[f'  "Take {m}": you hold the Ministry of {n} (the {t})' for m, n, t in (
        ("Society", "Society", "Registrar"), ("Law", "Law", "Rulekeeper"), ("Questions", "Questions", "Oracle"),
        ("Foreign Relations", "Foreign Relations", "Ambassador"), ("Goods", "Goods", "Artisan"),
        ("MoM", "Ministry", "MetaMin"))], '  "Clock on": the Clock is On: nweek 2, nday 1 (Breakday)')
    play.send(CAROL, "Mine", "Usurp the Chairman", "2026-01-17T01:20:00Z")
    said(play, CAROL, '  "Usurp the Chairman": A1: you take the Ministry of Change unless 2 Players object within '
                      '2 rdays (6-4)')
    play.send("zed@b.test", "Hello", "Join as Zed", "2026-01-17T01:30:00Z")
    play.send(ERIN, "Out", "Expel Zed because he spams the forum", "2026-01-17T01:40:00Z")
    for i, who in enumerate((ALICE, BOB, CAROL)):
        play.send(who, "Support", "Support A2", f"2026-01-17T02:{i}5:00Z")
    said(play, CAROL, '  "Support A2": your support of A2 is recorded (3 supporting, 0 objecting)')
    play.send(ERIN, "Proposal: Cake", "Cake on Breakday.", "2026-01-17T03:00:00Z")
    assert play.list_mail("Proposal 5: Cake").startswith('Proposal 5: "Cake"\nby Erin <erin@b.test>; Pending.')
    play.send(ALICE, "Proposal: Pie", "Pie on Joel.\nAlice gains 1 point", "2026-01-17T03:10:00Z")
    state = play.state()
    assert [p["name"] for p in state["players"]] == ["Alice", "Bob", "Carol", "Dave", "Erin"]
    assert [(a["number"], a["kind"], a["status"]) for a in state["actions"]] == [
        (1, "usurp", "pending"), (2, "expel", "occurred")]
    assert [(p["number"], p["status"]) for p in state["proposals"][3:]] == [(4, "pending"), (5, "pending"),
                                                                          (6, "pending")]

    play.tick("2026-01-19T00:00:00Z")  # the second midnight after the attempt: the usurpation occurs
    assert "A1 (usurp) occurred: carol@b.test holds the Ministry of Change (Reading 27)\n" in play.list_mail(
        "2026-01-19: nweek 2, Mulberry")
    assert [m["holder"] for m in play.state()["ministries"]] == [ALICE, ALICE, CAROL, ALICE, ALICE, ALICE, ALICE]
    play.tick("2026-01-25T00:00:00Z")  # Ballotday
    play.send(ERIN, "Votes", "FOR 5", "2026-01-25T01:00:00Z")
    for i, (who, vote) in enumerate(((ALICE, "FOR"), (BOB, "FOR"), (DAVE, "FOR"), (CAROL, "AGAINST"))):
        play.send(who, "Votes", f"{vote} 6", f"2026-01-25T02:{i}0:00Z")
    play.send(CAROL, "Ballot", "Publish ballot\nClock on", "2026-01-25T03:00:00Z")
    said(play, CAROL, '  "Publish ballot": the Ballot of 3 Open proposals is mailed to the list',
         '  "Clock on": the Clock is On: nweek 2, nday 9 (Ballotday)')
    play.tick("2026-01-29T00:00:00Z")
    assert body_of(play.list_mail("Results of the Voting of nweek 2")) == (
        'Proposal 4: "Jam" by Dave <dave@b.test>\n  FOR: -\n  AGAINST: -\n  ABSTAIN: -\n'
        "  Stamina 0, Strength 0: PENDING (failed quorum: Stamina 0 is not above 5/2)\n\n"
        'Proposal 5: "Cake" by Erin <erin@b.test>\n  FOR: Erin\n  AGAINST: -\n  ABSTAIN: -\n'
        "  Stamina 1, Strength 1: PENDING (failed quorum: Stamina 1 is not above 5/2)\n\n"
        'Proposal 6: "Pie" by Alice <alice@b.test>\n  FOR: Alice, Bob, Dave\n  AGAINST: Carol\n  ABSTAIN: -\n'
        "  Stamina 4, Strength 2: PASSED\n")
    assert "The Voting of nweek 2 ended: 1 Passed, 0 Failed, 2 back to Pending\n" in play.list_mail(
        "2026-01-29: nweek 3, Breakday, the Clock is Off")
    state = play.state()
    assert state["clock"] == {"nweek": 3, "nday": 1, "nday_name": "Breakday", "on": False, "ndelay": 0,
                              "voting": False, "nday_changes": 24, "ndelay_changes": 0, "rdays": 24}
    assert [(p["number"], p["status"], p["success"], p["passed"]) for p in state["proposals"][3:]] == [
        (4, "pending", "undecided", False), (5, "pending", "undecided", False), (6, "historical", "won", True)]
    # 2-6 on 6: each voter +1, Alice +2 x 3 FOR and +1 from its change line; the Ministers paid m50
    assert [(p["email"], p["points"], p["mackerel"], p["active"]) for p in state["players"]] == [
        (ALICE, 1 + 1 + 6 + 1, "m150", True), (BOB, 4 + 1, "m50", True), (CAROL, 6 + 1, "m100", True),
        (DAVE, 7 + 1, "m50", True), (ERIN, 2, "m50", True)]
    assert state["last_metamin"] == ALICE
    play.verify()

    play.cli("build", "--out", str(play.dir.parent / "site2"))
    players = (play.dir.parent / "site2" / "players" / "index.html").read_text()
    assert "<td>m150</td><td>1</td><td>yes</td>" in players  # Alice: mackerel, Vote Power, Active
