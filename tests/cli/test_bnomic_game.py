"""Issue 29's game through the command line: a game made by ``nomic init --ruleset bnomic``, five
Players by mail with ``nomic ingest`` and the Clock run by ``nomic tick``: the Ministries taken, the
Clock started and stopped by itself at Ballotday, proposals with a conflict and a dependency, the
Ballot and the results mailed in the Assessor-report form, the exact ``nomic state --json`` after
every ingest and every tick, an answer to every message, and ``nomic replay --verify`` at the end."""
from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from engine.bnomic.mechanics import DECLARED
from engine.bnomic.ruletext import parse_rules
from storage.config import Config
from tests.cli.blognomic_play import _first_difference
from tests.cli.ruleset_play import RulesetPlay, message_id, said

ALICE, BOB, CAROL, DAVE, ERIN = (f"{n}@b.test" for n in ("alice", "bob", "carol", "dave", "erin"))
ZED = "zed@b.test"
PLAYERS = ["Alice <alice@b.test>", "Bob <bob@b.test>", "Carol <carol@b.test>", "Dave <dave@b.test>",
           "Erin <erin@b.test>"]
SEVEN = "Take Society\nTake Law\nTake Change\nTake Questions\nTake Foreign Relations\nTake Goods\nTake MoM"
MINISTRIES = [("Ministry of Society", "Registrar"), ("Ministry of Law", "Rulekeeper"), ("Ministry of Change", "Chairman"),
              ("Ministry of Questions", "Oracle"), ("Ministry of Foreign Relations", "Ambassador"),
              ("Ministry of Goods", "Artisan"), ("Ministry of Ministry", "MetaMin")]
NDAYS = {1: "Breakday", 3: "Mulberry", 9: "Ballotday"}


class BNomicPlay(RulesetPlay):
    def __init__(self, tmp_path, database_url: str) -> None:
        super().__init__(tmp_path / "bnomic", "bnomic", database_url, {"bnomic": {"players": json.dumps(PLAYERS)}})

    def list_mail(self, subject: str) -> str:
        """The body of the one mail to the list with this subject (without the list's tag)."""
        found = [m for m in self.outbox() if m["subject"] == f"[B Nomic] {subject}"]
        assert len(found) == 1, [m["subject"] for m in self.outbox()]
        return found[0]["text"].split("\n\n", 1)[1]


class Expect:
    """The whole ``nomic state --json`` the game must show, changed step by step as the rules say."""

    def __init__(self, play: BNomicPlay) -> None:
        self.play = play
        sections, rules = parse_rules(Config.load(play.dir).rules_text())
        assert len(rules) == 53 and rules[-1].label == "6-10"  # the 53 rules as the text has them
        self.view: dict[str, Any] = {
            "ruleset": "bnomic", "clock": self.clock(nweek=1, nday=1, on=False, nday_changes=0),
            "active_players": 0, "quorum_exceeds": "0", "threat_flag": "Pink Ponies",
            "motnw": "This space intentionally left blank",
            "players": [self.newcomer(a, n) for a, n in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol"),
                                                            (DAVE, "Dave"), (ERIN, "Erin"))],
            "ministries": [{"name": n, "minister": m, "holder": None, "mini": False} for n, m in MINISTRIES],
            "last_metamin": None, "proposals": [], "actions": [], "consultations": [], "factions": [],
            "blueprints": [], "devices": [],
            "emergency": {"active": False, "coordinator": None, "forum": None, "pause": None, "round": None, "ballot": [],
                          "votes": {}, "refresh_proposals": [], "selected": None, "peps": [], "panic_buttons": {}},
            "parameters": {"expel_supporters": 3, "expel_recent_ndays": 12, "max_hit_points": 10, "fail_penalty": 3,
                           "exchange_rate": 5, "auction_penalty": 25, "usurp_objections": 2, "minister_pay": 50},
            "rules": [{"number": r.label, "name": r.title, "section": r.section, "text": r.text, "repealed": False,
                       "mechanics": [m.runs for m in DECLARED.of(r.label)] if r.label else []} for r in rules],
            "sections": [{"number": s.number, "name": s.name} for s in sections],
            "victory_conditions": [], "obligations": [], "scheduled": []}
        self._peps()

    @staticmethod
    def clock(nweek: int, nday: int, on: bool, nday_changes: int) -> dict[str, Any]:
        """The Clock with no ndelay change yet: one midnight for each nday change."""
        return {"nweek": nweek, "nday": nday, "nday_name": NDAYS[nday], "on": on, "ndelay": 0,
                "voting": nday >= 9, "nday_changes": nday_changes, "ndelay_changes": 0, "rdays": nday_changes}

    @staticmethod
    def newcomer(email: str, name: str) -> dict[str, Any]:
        """1-4: a new Player has m50, 0 points, 10 Hit Points, Vote Power 0 and is not Active."""
        return {"email": email, "name": name, "pending_name": None, "points": 0, "level": 1, "mackerel": "m50",
                "vote_power": "0", "active": False, "hit_points": 10, "dead": False, "win_count": 0, "properties": []}

    def _peps(self) -> None:
        """Rule 0 (Reading 8): with never four Panic Buttons On, the PEPs are the current Players."""
        emails = [p["email"] for p in self.view["players"]]
        self.view["emergency"].update(peps=emails, panic_buttons=dict.fromkeys(emails, "off"))

    def check(self) -> None:
        state = self.play.state()
        assert state.keys() == self.view.keys()
        for key, value in self.view.items():  # key by key, so that a failure shows the difference
            assert state[key] == value, f"{key}: {_first_difference(state[key], value)}"

    def player(self, email: str) -> dict[str, Any]:
        return next(p for p in self.view["players"] if p["email"] == email)

    def join(self, email: str, name: str) -> None:
        self.view["players"].append(self.newcomer(email, name))
        self._peps()

    def remove(self, email: str) -> None:
        self.view["players"].remove(self.player(email))
        self._peps()

    def score(self, email: str, points: int, level: int = 1) -> None:
        self.player(email).update(points=points, level=level)

    def hold(self, holder: str | None, *ministers: str) -> None:
        """``holder`` holds these Ministries (by Minister's title; none named: all seven)."""
        for m in self.view["ministries"]:
            if not ministers or m["minister"] in ministers:
                m["holder"] = holder

    def propose(self, key: int, number: int | None, author: str, title: str, body: str,
                conflicts: list[int] | None = None, dependencies: list[int] | None = None) -> None:
        self.view["proposals"].append({
            "key": key, "number": number, "author": author, "title": title, "body": body, "status": "pending",
            "success": "undecided", "passed": False, "ever_won": False, "conflicts": conflicts or [],
            "dependencies": dependencies or [], "votes": {}, "stamina": "0", "strength": "0"})

    def proposal(self, key: int) -> dict[str, Any]:
        return self.view["proposals"][key - 1]

    def vote(self, key: int, voter: str, word: str) -> None:
        """``voter``'s Final Vote on proposal ``key``; Stamina and Strength live, at the Vote Powers now."""
        p = self.proposal(key)
        p["votes"][voter] = word
        power = {v: sum((Fraction(self.player(x)["vote_power"]) for x, w in p["votes"].items() if w == v), Fraction(0))
                 for v in ("FOR", "AGAINST")}
        p.update(stamina=str(power["FOR"] + power["AGAINST"]), strength=str(power["FOR"] - power["AGAINST"]))

    def end(self, key: int, status: str, success: str, passed: bool, ever_won: bool) -> None:
        self.proposal(key).update(status=status, success=success, passed=passed, ever_won=ever_won)

    def action(self, number: int, kind: str, by: str) -> None:
        self.view["actions"].append({"number": number, "kind": kind, "by": by, "status": "pending",
                                     "supporters": [], "objectors": []})


def body_of(text: str) -> str:
    """A mail's body up to its signature."""
    return text.split("\n-- \n")[0]


def test_two_nweeks_of_b_nomic_by_mail(tmp_path, new_database_url):
    play = BNomicPlay(tmp_path, new_database_url())
    want = Expect(play)
    want.check()
    play.send(ALICE, "Ministries", SEVEN + "\nClock on", "2026-01-05T01:00:00Z")
    said(play, ALICE, *[f'  "Take {m}": you hold the Ministry of {n} (the {t})' for m, n, t in (
        ("Society", "Society", "Registrar"), ("Law", "Law", "Rulekeeper"), ("Change", "Change", "Chairman"),
        ("Questions", "Questions", "Oracle"), ("Foreign Relations", "Foreign Relations", "Ambassador"),
        ("Goods", "Goods", "Artisan"), ("MoM", "Ministry", "MetaMin"))],
        '  "Clock on": the Clock is On: nweek 1, nday 1 (Breakday)')
    want.hold(ALICE)
    want.view.update(last_metamin=ALICE, clock=want.clock(nweek=1, nday=1, on=True, nday_changes=0))
    want.check()
    play.send(BOB, "Proposal: Tea", "Tea for all.\nBob gains 2 points", "2026-01-05T02:00:00Z")
    said(play, BOB, '  "Proposal: Tea": proposal 1, Pending; 1 change line (Bob gains 2 points)')
    want.propose(1, 1, BOB, "Tea", "Tea for all.\nBob gains 2 points")
    want.check()
    play.send(CAROL, "Proposal: Coffee", "Coffee instead.\nConflicts: 1", "2026-01-05T03:00:00Z")
    want.propose(2, 2, CAROL, "Coffee", "Coffee instead.\nConflicts: 1", conflicts=[1])
    want.check()
    play.send(DAVE, "Proposal: Milk", "Milk in it.\nDepends on: 2\nDave gains 1 point", "2026-01-05T04:00:00Z")
    want.propose(3, 3, DAVE, "Milk", "Milk in it.\nDepends on: 2\nDave gains 1 point", dependencies=[2])
    want.check()
    assert play.list_mail("Proposal 1: Tea").startswith(
        'Proposal 1: "Tea"\nby Bob <bob@b.test>; Pending.\n\nTea for all.\nBob gains 2 points\n')

    play.tick("2026-01-13T00:00:00Z")  # eight midnights: Ballotday, and the Clock stops
    want.view["clock"] = want.clock(nweek=1, nday=9, on=False, nday_changes=8)
    for key in (1, 2, 3):
        want.proposal(key)["status"] = "open"
    for player in want.view["players"]:
        player["vote_power"] = "1"  # 2-7: 1 from Ballotday for every Player who Gave no Allegiance
    want.check()
    assert body_of(play.list_mail("2026-01-13: nweek 1, Ballotday, the Clock is Off")) == (
        "B Nomic at 00:00 UTC on 2026-01-13.\n\nnweek 1, nday 9 (Ballotday), the Clock is Off, ndelay 0\n"
        "Ballotday: 3 proposals became Open\nIt is the Voting Period: proposal 1, proposal 2, proposal 3\n\nThe game: http://127.0.0.1:8000/\n")

    play.send(BOB, "Votes", "FOR 1\nABSTAIN 2", "2026-01-13T01:00:00Z")
    said(play, BOB, '  "FOR 1": FOR on proposal 1 is your Final Vote (Vote Power 1)',
         '  "ABSTAIN 2": ABSTAIN on proposal 2 is your Final Vote (Vote Power 1)')
    want.vote(1, BOB, "FOR")
    want.vote(2, BOB, "ABSTAIN")
    want.check()
    announcement = [m for m in play.outbox() if m["subject"] == "[B Nomic] Proposal 1: Tea"][0]
    play.reply(ALICE, message_id(announcement), "FOR", "2026-01-13T02:00:00Z", subject="Re: [B Nomic] Proposal 1: Tea")
    said(play, ALICE, '  "FOR": FOR on proposal 1 is your Final Vote (Vote Power 1)')
    want.vote(1, ALICE, "FOR")
    want.check()
    play.send(CAROL, "Votes", "AGAINST 1\nFOR 2", "2026-01-13T03:00:00Z")
    want.vote(1, CAROL, "AGAINST")
    want.vote(2, CAROL, "FOR")
    want.check()
    play.send(DAVE, "Votes", "FOR 2\nFOR 3", "2026-01-13T04:00:00Z")
    want.vote(2, DAVE, "FOR")
    want.vote(3, DAVE, "FOR")
    want.check()
    play.send(ERIN, "Votes", "Vote FOR 1\nFOR 3\nMAYBE 2", "2026-01-13T05:00:00Z")
    said(play, ERIN, '  "Vote FOR 1": FOR on proposal 1 is your Final Vote (Vote Power 1)',
         '  "FOR 3": FOR on proposal 3 is your Final Vote (Vote Power 1)')
    assert "> MAYBE 2" in play.answer_to(ERIN)
    want.vote(1, ERIN, "FOR")
    want.vote(3, ERIN, "FOR")
    want.check()
    assert [(p["stamina"], p["strength"]) for p in want.view["proposals"]] == [("4", "2"), ("2", "2"), ("2", "2")]

    play.send(ALICE, "Ballot", "Publish ballot\nClock on", "2026-01-13T06:00:00Z")
    said(play, ALICE, '  "Publish ballot": the Ballot of 3 Open proposals is mailed to the list',
         '  "Clock on": the Clock is On: nweek 1, nday 9 (Ballotday)')
    want.view["clock"]["on"] = True
    want.check()
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
    want.view["clock"] = want.clock(nweek=2, nday=1, on=False, nday_changes=12)
    want.end(1, "historical", "lost", passed=False, ever_won=True)
    want.end(2, "historical", "won", passed=True, ever_won=True)
    want.end(3, "historical", "won", passed=True, ever_won=True)
    # 2-6: 1 (Won, culled): voters +1, Bob +1 per FOR (3); 2 (Passed): Carol +2 per FOR (4); 3: Dave +2 x 2,
    # and +1 from its change line; Alice was paid m50 as a Minister, and every Ministry is Vacant
    for email, points, level in ((ALICE, 1, 1), (BOB, 1 + 3, 1), (CAROL, 2 + 4, 2), (DAVE, 2 + 4 + 1, 2), (ERIN, 2, 1)):
        want.score(email, points, level)
        want.player(email)["active"] = True  # 3-5: each voted in the nweek before
    want.player(ALICE)["mackerel"] = "m100"
    want.hold(None)
    want.view.update(active_players=5, quorum_exceeds="5/2")
    want.check()
    play.verify()
    nweek_two(play, want)

    play.cli("build", "--out", str(tmp_path / "site"))
    page = (tmp_path / "site" / "proposals" / "k1.html").read_text()
    assert "Stamina 4, Strength 2." in page and page.count("<td>FOR</td>") == 3 and "<td>AGAINST</td>" in page
    assert "Results of nweek 1" in (tmp_path / "site" / "proposals" / "index.html").read_text()
    rules = (tmp_path / "site" / "rules" / "index.html").read_text()  # each rule's mechanics and parameters (issue 28)
    assert ('<p class="mechanics">The game runs: Ministers paid and Ministries vacated at the end of each nweek.</p>'
            '<ul class="parameters"><li><code>minister_pay = 50</code> ("each Player who is a Minister gains m50")</li>'
            '</ul>') in rules


def nweek_two(play: BNomicPlay, want: Expect) -> None:
    """The Ministries taken again, a usurpation, a newcomer expelled, a quorum failure and a pass."""
    play.send(DAVE, "Proposal: Jam", "Jam.", "2026-01-17T00:30:00Z")  # nobody is Chairman: no number yet
    said(play, DAVE, '  "Proposal: Jam": a proposal, to be numbered by the Chairman, Pending; 0 change lines')
    assert play.list_mail("A new proposal: Jam").startswith('A new proposal (the Chairman numbers it): "Jam"')
    want.propose(4, None, DAVE, "Jam", "Jam.")
    want.check()
    play.send(BOB, "Chair", "Take the Chairman", "2026-01-17T01:00:00Z")
    assert play.list_mail("Proposal 4: Jam").startswith('Proposal 4: "Jam"\nby Dave <dave@b.test>; Pending.')
    want.hold(BOB, "Chairman")
    want.proposal(4)["number"] = 4  # numbered the moment the Ministry of Change is held
    want.check()
    play.send(ALICE, "Ministries", SEVEN.replace("Take Change\n", "") + "\nClock on", "2026-01-17T01:10:00Z")
    said(play, ALICE, *[f'  "Take {m}": you hold the Ministry of {n} (the {t})' for m, n, t in (
        ("Society", "Society", "Registrar"), ("Law", "Law", "Rulekeeper"), ("Questions", "Questions", "Oracle"),
        ("Foreign Relations", "Foreign Relations", "Ambassador"), ("Goods", "Goods", "Artisan"),
        ("MoM", "Ministry", "MetaMin"))], '  "Clock on": the Clock is On: nweek 2, nday 1 (Breakday)')
    want.hold(ALICE, "Registrar", "Rulekeeper", "Oracle", "Ambassador", "Artisan", "MetaMin")
    want.view["clock"]["on"] = True
    want.check()
    play.send(CAROL, "Mine", "Usurp the Chairman", "2026-01-17T01:20:00Z")
    said(play, CAROL, '  "Usurp the Chairman": A1: you take the Ministry of Change unless 2 Players object within '
                      '2 rdays (6-4)')
    want.action(1, "usurp", CAROL)
    want.check()
    play.send(ZED, "Hello", "Join as Zed", "2026-01-17T01:30:00Z")
    want.join(ZED, "Zed")
    want.check()
    play.send(ERIN, "Out", "Expel Zed because he spams the forum", "2026-01-17T01:40:00Z")
    want.action(2, "expel", ERIN)
    want.check()
    for i, who in enumerate((ALICE, BOB, CAROL)):
        play.send(who, "Support", "Support A2", f"2026-01-17T02:{i}5:00Z")
        want.view["actions"][1]["supporters"].append(who)
        if i == 2:  # 1-4: the third supporter expels him
            want.view["actions"][1]["status"] = "occurred"
            want.remove(ZED)
        want.check()
    said(play, CAROL, '  "Support A2": your support of A2 is recorded (3 supporting, 0 objecting)')
    play.send(ERIN, "Proposal: Cake", "Cake on Breakday.", "2026-01-17T03:00:00Z")
    assert play.list_mail("Proposal 5: Cake").startswith('Proposal 5: "Cake"\nby Erin <erin@b.test>; Pending.')
    want.propose(5, 5, ERIN, "Cake", "Cake on Breakday.")
    want.check()
    play.send(ALICE, "Proposal: Pie", "Pie on Joel.\nAlice gains 1 point", "2026-01-17T03:10:00Z")
    want.propose(6, 6, ALICE, "Pie", "Pie on Joel.\nAlice gains 1 point")
    want.check()

    play.tick("2026-01-19T00:00:00Z")  # the second midnight after the attempt: the usurpation occurs
    assert "A1 (usurp) occurred: carol@b.test holds the Ministry of Change (Reading 27)\n" in play.list_mail(
        "2026-01-19: nweek 2, Mulberry")
    want.view["clock"] = want.clock(nweek=2, nday=3, on=True, nday_changes=14)
    want.view["actions"][0]["status"] = "occurred"
    want.hold(CAROL, "Chairman")
    want.check()
    play.tick("2026-01-25T00:00:00Z")  # Ballotday
    want.view["clock"] = want.clock(nweek=2, nday=9, on=False, nday_changes=20)
    for key in (4, 5, 6):
        want.proposal(key)["status"] = "open"
    want.check()
    play.send(ERIN, "Votes", "FOR 5", "2026-01-25T01:00:00Z")
    want.vote(5, ERIN, "FOR")
    want.check()
    for i, (who, vote) in enumerate(((ALICE, "FOR"), (BOB, "FOR"), (DAVE, "FOR"), (CAROL, "AGAINST"))):
        play.send(who, "Votes", f"{vote} 6", f"2026-01-25T02:{i}0:00Z")
        want.vote(6, who, vote)
        want.check()
    play.send(CAROL, "Ballot", "Publish ballot\nClock on", "2026-01-25T03:00:00Z")
    said(play, CAROL, '  "Publish ballot": the Ballot of 3 Open proposals is mailed to the list',
         '  "Clock on": the Clock is On: nweek 2, nday 9 (Ballotday)')
    want.view["clock"]["on"] = True
    want.check()
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
    want.view["clock"] = want.clock(nweek=3, nday=1, on=False, nday_changes=24)
    want.proposal(4)["status"] = want.proposal(5)["status"] = "pending"  # failed quorum; the votes stay
    want.end(6, "historical", "won", passed=True, ever_won=True)
    # 2-6 on 6: each voter +1, Alice +2 x 3 FOR and +1 from its change line; the Ministers paid m50;
    # Erin voted in nweek 2, so all five stay Active
    for email, points, level in ((ALICE, 1 + 1 + 6 + 1, 2), (BOB, 4 + 1, 1), (CAROL, 6 + 1, 2), (DAVE, 7 + 1, 2)):
        want.score(email, points, level)
    want.player(ALICE)["mackerel"] = "m150"
    want.player(CAROL)["mackerel"] = "m100"
    want.hold(None)
    want.check()  # Alice is still the last MetaMin (6-8)
    play.verify()

    play.cli("build", "--out", str(play.dir.parent / "site2"))
    players = (play.dir.parent / "site2" / "players" / "index.html").read_text()
    assert "<td>m150</td><td>1</td><td>yes</td>" in players  # Alice: mackerel, Vote Power, Active
