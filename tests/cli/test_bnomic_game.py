"""Issues 29 and 30's game through the command line: a game made by ``nomic init --ruleset bnomic``,
five Players by mail with ``nomic ingest`` and the Clock run by ``nomic tick``, four nweeks of it.
Part 1: the Ministries taken, the Clock started and stopped by itself at Ballotday, proposals with a
conflict and a dependency, the Ballot and the results mailed in the Assessor-report form. Part 2 goes
on from there: Ministries taken by a failed and a successful transaction, a repeated and a scheduled
action; a Consultation renumbered and ZOTTED, another answered, claimed Inconsistent and answered
again to Pondered with its Oracularity applied; the Message of the nweek, a Tidiness List, the
Threat Flag; a gift, an exchange, an auction won by the second bidder after the first's penalty; a
Faction's allegiance, vote and decay; then a whole Emergency to its Refresh Proposal, game time
stopped meanwhile. The exact ``nomic state --json`` after every ingest and every tick, an answer to
every message, and ``nomic replay --verify`` at the end of each part."""
from __future__ import annotations

import json
import re
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
OUTBOX_ROW = re.compile(r"^\s*(\d+) \S+\s+(\S+)\s+(.+?): (.*)$")  # nomic outbox: id, status, kind, to: subject
NDAYS = ("Breakday", "Winday", "Mulberry", "Tango", "Corvette", "Halfday", "Joel", "Rushnight", "Ballotday", "Teucer",
         "Zarpint", "Thirnight")  # 3-8


class BNomicPlay(RulesetPlay):
    def __init__(self, tmp_path, database_url: str) -> None:
        super().__init__(tmp_path / "bnomic", "bnomic", database_url, {"bnomic": {"players": json.dumps(PLAYERS)}})

    def listing(self) -> list[tuple[int, str, list[str], str]]:
        """``nomic outbox``'s rows: id, kind, recipients, subject. The game's mail is read from this and
        ``nomic outbox --show N``: ``outbox --json`` decodes every mail, a cost that grows with the game."""
        rows = [OUTBOX_ROW.match(line) for line in self.cli("outbox").splitlines()]
        return [(int(r[1]), r[2], r[3].split(", "), r[4]) for r in rows if r is not None]

    def list_mail(self, subject: str) -> str:
        """The body of the one mail to the list with this subject (without the list's tag)."""
        found = [n for n, _, _, s in self.listing() if s == f"[B Nomic] {subject}"]
        assert len(found) == 1, [s for _, _, _, s in self.listing()]
        return self.cli("outbox", "--show", str(found[0])).split("\n\n", 1)[1]

    def answer_to(self, sender: str) -> str:
        """The text of the latest answer to ``sender``."""
        found = [n for n, kind, to, _ in self.listing() if kind == "answer" and sender in to]
        return self.cli("outbox", "--show", str(found[-1]))


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
            "victory_conditions": [], "obligations": [], "scheduled": [], "relations": {},
            "subscribers": [ALICE, BOB, CAROL, DAVE, ERIN]}  # by address: every player, with no Subscribe (issue 31)
        self._peps()

    @staticmethod
    def clock(nweek: int, nday: int, on: bool, nday_changes: int, ndelay: int = 0) -> dict[str, Any]:
        """The Clock, one midnight for each change; ``ndelay`` is also every ndelay change so far (this
        game never turns the Clock On after an ndelay)."""
        return {"nweek": nweek, "nday": nday, "nday_name": NDAYS[nday - 1], "on": on, "ndelay": ndelay,
                "voting": nday >= 9, "nday_changes": nday_changes, "ndelay_changes": ndelay,
                "rdays": nday_changes + ndelay}

    @staticmethod
    def newcomer(email: str, name: str) -> dict[str, Any]:
        """1-4: a new Player has m50, 0 points, 10 Hit Points, Vote Power 0 and is not Active."""
        return {"email": email, "name": name, "pending_name": None, "points": 0, "level": 1, "mackerel": "m50",
                "vote_power": "0", "active": False, "hit_points": 10, "dead": False, "win_count": 0, "properties": [], "away_until": None}

    def _peps(self) -> None:
        """Rule 0 (Reading 8): with never four Panic Buttons On, the PEPs are the current Players."""
        emails = [p["email"] for p in self.view["players"]]
        self.view["emergency"].update(peps=emails, panic_buttons=dict.fromkeys(emails, "off"))

    def check(self) -> None:
        for p in self.view["proposals"]:
            if p["status"] != "historical":
                self._tally(p)
        state = self.play.state()
        state["subscribers"] = [s["email"] for s in state["subscribers"]]
        assert state.keys() == self.view.keys()
        for key, value in self.view.items():  # key by key, so that a failure shows the difference
            assert state[key] == value, f"{key}: {_first_difference(state[key], value)}"

    def player(self, email: str) -> dict[str, Any]:
        return next(p for p in self.view["players"] if p["email"] == email)

    def join(self, email: str, name: str) -> None:
        self.view["players"].append(self.newcomer(email, name))
        self.view["subscribers"].append(email)  # [list] subscribe_players; expelled, he stays on the list
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
        """``voter``'s (a Player's address, or ``faction:NAME``) Final Vote on proposal ``key``."""
        p = self.proposal(key)
        p["votes"].pop(voter, None)
        p["votes"][voter] = word

    def vote_power(self, voter: str) -> Fraction:
        faction = voter.removeprefix("faction:")
        if faction != voter:
            return Fraction(next(f for f in self.view["factions"] if f["name"] == faction)["vote_power"])
        return Fraction(self.player(voter)["vote_power"])

    def _tally(self, p: dict[str, Any]) -> None:
        """Stamina and Strength at the Vote Powers now (2-2): live until the proposal is Historical."""
        power = {v: sum((self.vote_power(x) for x, w in p["votes"].items() if w == v), Fraction(0))
                 for v in ("FOR", "AGAINST")}
        p.update(stamina=str(power["FOR"] + power["AGAINST"]), strength=str(power["FOR"] - power["AGAINST"]))

    def end(self, key: int, status: str, success: str, passed: bool, ever_won: bool) -> None:
        """Voting ends for proposal ``key``: Historical, its Stamina and Strength frozen at the Vote Powers now."""
        self._tally(self.proposal(key))
        self.proposal(key).update(status=status, success=success, passed=passed, ever_won=ever_won)

    def action(self, number: int, kind: str, by: str) -> None:
        self.view["actions"].append({"number": number, "kind": kind, "by": by, "status": "pending",
                                     "supporters": [], "objectors": []})


def body_of(text: str) -> str:
    """A mail's body up to its signature."""
    return text.split("\n-- \n")[0]


def test_four_nweeks_of_b_nomic_by_mail(tmp_path, new_database_url):
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
    assert re.fullmatch(re.escape(
        "B Nomic at 00:00 UTC on 2026-01-13.\n\nnweek 1, nday 9 (Ballotday), the Clock is Off, ndelay 0\n"
        "Ballotday: 3 proposals became Open\nIt is the Voting Period: proposal 1, proposal 2, proposal 3\n\n"
        "Waiting for:\n" + "".join(
            f"  {name}: " + ("the Ballot of this Voting Period; " if name.startswith("Alice") else "")
            + 'a Vote on proposal 1 "Tea"; a Vote on proposal 2 "Coffee"; '
            + ("and 1 more" if name.startswith("Alice") else 'a Vote on proposal 3 "Milk"') + "\n"
            for name in ("Alice <alice@b.test>", "Bob <bob@b.test>", "Carol <carol@b.test>", "Dave <dave@b.test>",
                         "Erin <erin@b.test>"))
        + "\nJournal head after entry 5:\n  ") + "[0-9a-f]{64}" + re.escape("\n\nThe game: http://127.0.0.1:8000/\n"),
        body_of(play.list_mail("2026-01-13: nweek 1, Ballotday, the Clock is Off")))

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

    nweek_three(play, want)
    nweek_four(play, want)
    play.verify()
    play.cli("build", "--out", str(tmp_path / "site3"))
    page = (tmp_path / "site3" / "society.html").read_text()
    assert "<dt>Threat Flag</dt><dd>Jolly Roger</dd>" in page and "No State of Emergency is in force." in page
    assert "Selected: Refresh Proposal 1, Restore" in page
    assert "<li>Erin has 0 Hit Points and is Dead (2-11)</li>" in page
    assert '<li>Rule 1-1: &#34;name of this game&#34; -&gt; &#34;name of the game&#34;</li>' in page
    assert '<a href="society.html">' in (tmp_path / "site3" / "index.html").read_text()


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


EVERYONE = [ALICE, BOB, CAROL, DAVE, ERIN]
TIDY = [("1-1", "name of this game", "name of the game"), ("2-11", "Hit Points", "Hit-Points"),
        ("3-16", "Message Of The nweek", "Message of the nweek")]


def consultation(number: int, supplicant: str) -> dict[str, Any]:
    """2-5: a new Consultation, Waiting, with no Priest yet."""
    return {"number": number, "supplicant": supplicant, "unbeliever": None, "status": "waiting", "priest": None,
            "former_priests": [], "answer": None, "claims": {}, "oracularity_followed": False}


def nweek_three(play: BNomicPlay, want: Expect) -> None:
    """Part 2, nweek 3: the Ministries taken by transactions, a repetition and a scheduled action; a
    Consultation answered, claimed Inconsistent and answered again to Pondered; the Message of the
    nweek, a Tidiness List, the Threat Flag; a gift, an exchange and an auction won by the second
    bidder after the first's penalty; a Faction's allegiance and vote."""
    play.send(ERIN, "Consultation: Is cake a lie?", "It is said so.", "2026-01-29T00:30:00Z")
    said(play, ERIN, '  "Consultation: Is cake a lie?": Consultation 1, Waiting')  # no Oracle: no Priest
    want.view["consultations"].append(consultation(1, ERIN))
    want.check()
    play.send(ALICE, "Offices", "BEGIN TRANSACTION\nTake Society\nTake Law\nAssert points of Alice is 1\n"
                                "END TRANSACTION", "2026-01-29T01:00:00Z")
    said(play, ALICE, '! "BEGIN TRANSACTION": line 3, \'Assert points of Alice is 1\', failed: Alice\'s points is 9; '
                      "the transaction failed (rule 1-16); nothing done")
    want.check()  # nothing taken
    play.send(ALICE, "Offices", "BEGIN TRANSACTION\nTake Society\nTake Law\nTake MoM\nAssert Alice holds Rulekeeper\n"
                                "END TRANSACTION", "2026-01-29T01:10:00Z")
    said(play, ALICE, '  "Take Society": you hold the Ministry of Society (the Registrar)',
         '  "Take Law": you hold the Ministry of Law (the Rulekeeper)',
         '  "Take MoM": you hold the Ministry of Ministry (the MetaMin)',
         '  "BEGIN TRANSACTION": all 4 lines done (1-16)')
    want.hold(ALICE, "Registrar", "Rulekeeper", "MetaMin")
    want.check()
    play.send(BOB, "Again", "Repeat 2 times: Take Change", "2026-01-29T01:20:00Z")
    said(play, BOB, '  "Repeat 2 times: Take Change (1 of 2)": you hold the Ministry of Change (the Chairman)',
         '! "Repeat 2 times: Take Change (2 of 2)": the Ministry of Change is held by bob@b.test: only a Vacant '
         "Ministry may be taken ('Usurp' it instead) (rule 6-2); nothing done")
    want.hold(BOB, "Chairman")
    want.check()
    play.send(CAROL, "Later", "At 2026-01-29T12:00:00Z: Take Goods", "2026-01-29T01:30:00Z")
    said(play, CAROL, '  "At 2026-01-29T12:00:00Z: Take Goods": S1: \'Take Goods\' runs at 2026-01-29T12:00:00Z, '
                      "judged then (1-10)")
    want.view["scheduled"] = [{"number": 1, "by": CAROL, "line": "At 2026-01-29T12:00:00Z: Take Goods"}]
    want.check()
    play.send(DAVE, "Oracle", "Take Questions\nRenumber consultation 1 to 5\nPriest 5: Alice", "2026-01-29T01:40:00Z")
    said(play, DAVE, '  "Take Questions": you hold the Ministry of Questions (the Oracle)',
         '  "Renumber consultation 1 to 5": Consultation 1 is now Consultation 5 (2-5)',
         '  "Priest 5: Alice": Alice is the Priest of Consultation 5')
    want.hold(DAVE, "Oracle")
    want.view["consultations"][0].update(number=5, priest=ALICE)
    want.check()
    play.send(ALICE, "Cake", "Request ZOT 5", "2026-01-29T01:42:00Z")
    said(play, ALICE, '  "Request ZOT 5": the Oracle is asked to ZOT Consultation 5 or to reassign it (2-5)')
    want.check()
    play.send(DAVE, "Cake", "ZOT 5", "2026-01-29T01:44:00Z")
    said(play, DAVE, '  "ZOT 5": Consultation 5 is ZOTTED: it has no further effect (2-5)')
    want.view["consultations"][0]["status"] = "zotted"
    want.check()
    play.send(ERIN, "Envoy", "Take Foreign Relations", "2026-01-29T01:50:00Z")
    want.hold(ERIN, "Ambassador")
    want.check()

    play.tick("2026-01-29T12:00:00Z")  # S1 runs, as if Carol sent it now, and is answered in her thread
    said(play, CAROL, '  "Take Goods": you hold the Ministry of Goods (the Artisan)')
    answer = play.answer_to(CAROL)
    assert "Subject: [B Nomic] S1 ran\n" in answer and "In-Reply-To: <" in answer
    want.hold(CAROL, "Artisan")
    want.view["scheduled"] = []
    want.check()

    play.send(ALICE, "Start", "Clock on\nHoist the Polka Dots flag\nSet the message of the nweek: Tea at four",
              "2026-01-29T13:00:00Z")
    said(play, ALICE, '  "Clock on": the Clock is On: nweek 3, nday 1 (Breakday)',
         '  "Hoist the Polka Dots flag": the Threat Flag is Polka Dots (3-17)',
         '  "Set the message of the nweek: Tea at four": A3: the Message of the nweek becomes \'Tea at four\' once a '
         "Player supports it, within 2 ndays (3-16)")
    want.view["clock"]["on"] = True
    want.view["threat_flag"] = "Polka Dots"
    want.action(3, "motnw", ALICE)
    want.check()
    play.send(BOB, "Yes", "Support A3", "2026-01-29T13:10:00Z")
    want.view["actions"][2].update(status="occurred", supporters=[BOB])  # its one supporter: it occurs
    want.view["motnw"] = "Tea at four"
    want.check()
    play.send(BOB, "Consultation: Is tea a drink?", "Surely.", "2026-01-29T13:20:00Z")
    said(play, BOB, '  "Consultation: Is tea a drink?": Consultation 6, Waiting')  # Players are eligible
    want.view["consultations"].append(consultation(6, BOB))
    tea = want.view["consultations"][1]
    want.check()
    play.send(DAVE, "Priest", "Priest 6: Carol", "2026-01-29T13:30:00Z")
    said(play, DAVE, '  "Priest 6: Carol": Carol is the Priest of Consultation 6')
    tea["priest"] = CAROL
    want.check()
    play.send(CAROL, "Oracle", "Answer 6: YES\nTea is a drink.\nOracularity:\nBob gains 2 points",
              "2026-01-29T13:40:00Z")
    said(play, CAROL, '  "Answer 6: YES": Consultation 6 is Answered YES with an Oracularity of 1 change line; claims '
                      "are open for three ndays or ndelays (2-5)")
    tea.update(status="answered", answer="YES")
    want.check()
    play.send_all("2026-01-29T14:00:00Z", (ALICE, "Claim", "Claim 6 inconsistent"),
                  (DAVE, "Claim", "Claim 6 inconsistent"), (ERIN, "Claim", "Claim 6 consistent"))
    said(play, ERIN, '  "Claim 6 consistent": your claim that Consultation 6\'s Answer is Consistent is recorded')
    tea["claims"] = {ALICE: "inconsistent", DAVE: "inconsistent", ERIN: "consistent"}
    want.check()
    play.send(CAROL, "Tidiness List", "\n".join(f'Rule {r}: "{a}" -> "{b}"' for r, a, b in TIDY),
              "2026-01-29T14:10:00Z")
    said(play, CAROL, '  "Tidiness List": A4: the Tidiness List (3 corrections) takes place unless a Player objects '
                      "within 5 ndays (3-9)")
    assert body_of(play.list_mail("A4: tidiness by Carol <carol@b.test>")) == (
        'A4: tidiness of the rules by Carol <carol@b.test>.\n  Rule 1-1: "name of this game" -> "name of the game"\n'
        '  Rule 2-11: "Hit Points" -> "Hit-Points"\n  Rule 3-16: "Message Of The nweek" -> "Message of the nweek"\n'
        'It fails at the first objection ("Object to A4"); else it occurs when its window closes.\n')
    want.action(4, "tidiness", CAROL)
    want.check()
    play.send(CAROL, "Blueprint: Crown", "Unique\nAttribute Shine: gold", "2026-01-29T14:20:00Z")
    said(play, CAROL, '  "Blueprint: Crown": A5: the blueprint Crown (unique, m50) exists unless 2 Players object '
                      "within 2 ndays (3-14)")
    assert body_of(play.list_mail("A5: blueprint by Carol <carol@b.test>")) == (
        "A5: blueprint of Crown by Carol <carol@b.test>.\n"
        'It fails at the second objection ("Object to A5"); else it occurs when its window closes.\n')
    want.action(5, "blueprint", CAROL)
    want.check()
    play.send(DAVE, "Faction: Guild", "Parties: Dave, Erin\nAgreement: https://guild.test/agreement",
              "2026-01-29T14:30:00Z")
    said(play, DAVE, '  "Faction: Guild": Guild is a Faction with Vote Power 0; you are its agent (5-2)')
    want.view["factions"] = [{"name": "Guild", "agent": DAVE, "parties": [DAVE, ERIN], "vote_power": "0",
                              "agreement": "https://guild.test/agreement"}]
    want.check()
    play.send(ERIN, "Loyal", "Give allegiance to Guild", "2026-01-29T14:40:00Z")
    said(play, ERIN, '  "Give allegiance to Guild": Guild\'s Vote Power is 1; yours will be 0 from Ballotday (2-7)')
    want.view["factions"][0]["vote_power"] = "1"
    want.check()
    play.send(BOB, "Gift", "Give m10.5 to Carol", "2026-01-29T14:50:00Z")
    said(play, BOB, '  "Give m10.5 to Carol": Carol has m110.5, you have m39.5')
    want.player(BOB)["mackerel"], want.player(CAROL)["mackerel"] = "m39.5", "m110.5"
    want.check()
    play.send(BOB, "Proposal: Tea", "Tea for all.\nBob gains 1 point", "2026-01-29T15:00:00Z")
    want.propose(7, 7, BOB, "Tea", "Tea for all.\nBob gains 1 point")
    want.check()
    play.send(CAROL, "Swap", "Exchange 1 point for mackerel", "2026-01-29T15:10:00Z")
    said(play, CAROL, '  "Exchange 1 point for mackerel": you have 6 points and m115.5')  # 3-11: m5 a point
    want.score(CAROL, 6, level=2)
    want.player(CAROL)["mackerel"] = "m115.5"
    want.check()

    play.tick("2026-02-01T00:00:00Z")  # the end of nday 3, two ndays after the blueprint's: it exists
    want.view["clock"] = want.clock(nweek=3, nday=4, on=True, nday_changes=27)
    want.view["actions"][4]["status"] = "occurred"
    want.view["blueprints"] = [{"name": "Crown", "unique": True, "price": "m50", "bids": [],
                                "attributes": {"Shine": "gold"}, "properties": []}]
    want.check()
    play.send_all("2026-02-01T01:00:00Z", (BOB, "Bid", "Bid m80 on Crown"), (CAROL, "Bid", "Bid m40 on Crown"))
    said(play, CAROL, '  "Bid m40 on Crown": your bid of m40 on Crown is recorded; the highest is m80 by bob@b.test')
    # a bid need not be covered; a unique blueprint's price is its highest bid
    want.view["blueprints"][0].update(price="m80", bids=[{"bidder": BOB, "amount": "m80"},
                                                         {"bidder": CAROL, "amount": "m40"}])
    want.check()

    play.tick("2026-02-02T00:00:00Z")  # the 4th midnight after the Answer: 2 Inconsistent to 1
    tea.update(status="waiting", priest=None, former_priests=[CAROL], answer=None, claims={})
    want.view["clock"] = want.clock(nweek=3, nday=5, on=True, nday_changes=28)
    want.check()  # Alice and Erin are eligible: the Oracle selects one
    assert "Consultation 6 awaits a Priest from the Oracle (dave@b.test)\n" in play.list_mail(
        "2026-02-02: nweek 3, Corvette")
    play.send(DAVE, "Priest", "Priest 6: Carol\nPriest 6: Erin", "2026-02-02T01:00:00Z")
    said(play, DAVE, '! "Priest 6: Carol": Carol is not eligible: an Active Player, not the Supplicant, the '
                     "Unbeliever, the Oracle nor a former Priest (rule 2-5); nothing done",
         '  "Priest 6: Erin": Erin is the Priest of Consultation 6')
    tea["priest"] = ERIN
    want.check()
    play.send(ERIN, "Oracle", "Answer 6: NO\nIt is a state of mind.\nOracularity:\nBob gains 2 points",
              "2026-02-02T02:00:00Z")
    tea.update(status="answered", answer="NO")
    want.check()

    play.tick("2026-02-04T00:00:00Z")  # the end of nday 6, five ndays after the Tidiness List's nday
    want.view["clock"] = want.clock(nweek=3, nday=7, on=True, nday_changes=30)
    want.view["actions"][3]["status"] = "occurred"
    for number, wrong, right in TIDY:
        rule = next(r for r in want.view["rules"] if r["number"] == number)
        assert wrong in rule["text"]
        rule["text"] = rule["text"].replace(wrong, right, 1)
    want.score(CAROL, 7, level=2)  # 3-9: 3 errors corrected, 1 point
    want.check()

    play.tick("2026-02-06T00:00:00Z")  # Ballotday: Erin gave his allegiance, so his Vote Power is 0
    want.view["clock"] = want.clock(nweek=3, nday=9, on=False, nday_changes=32)
    want.player(ERIN)["vote_power"] = "0"
    for key in (4, 5, 7):
        want.proposal(key)["status"] = "open"  # 4 and 5 with their votes of nweek 2
    want.check()  # no claim on the second Answer at its 4th midnight: it stays Answered
    play.send_all("2026-02-06T01:00:00Z", (ALICE, "V", "FOR 7"), (BOB, "V", "FOR 7"), (CAROL, "V", "AGAINST 7"),
                  (DAVE, "V", "Vote FOR 7 as Guild"), (ERIN, "V", "FOR 4"))
    said(play, DAVE, '  "Vote FOR 7 as Guild": FOR on proposal 7 is Guild\'s Final Vote (Vote Power 1)')
    for voter, key, word in ((ALICE, 7, "FOR"), (BOB, 7, "FOR"), (CAROL, 7, "AGAINST"), ("faction:Guild", 7, "FOR"),
                             (ERIN, 4, "FOR")):
        want.vote(key, voter, word)
    want.check()
    play.send(BOB, "Ballot", "Publish ballot\nClock on", "2026-02-06T02:00:00Z")
    want.view["clock"]["on"] = True
    want.check()

    play.tick("2026-02-07T00:00:00Z")  # the 5th midnight after the second Answer: Pondered, its Oracularity applies
    want.view["clock"] = want.clock(nweek=3, nday=10, on=True, nday_changes=33)
    tea.update(status="pondered", oracularity_followed=True)
    want.score(BOB, 5 + 2, level=2)
    want.check()
    play.tick("2026-02-08T00:00:00Z")  # Zarpint: Bob's m39.5 cannot pay his m80; a grace nday
    assert "Auction of Crown: grace (bob@b.test, m80)\n" in play.list_mail("2026-02-08: nweek 3, Zarpint")
    want.view["clock"] = want.clock(nweek=3, nday=11, on=True, nday_changes=34)
    want.check()
    play.tick("2026-02-09T00:00:00Z")  # nor at the end of Zarpint: the penalty
    assert "Auction of Crown: penalty (bob@b.test, m80)\n" in play.list_mail("2026-02-09: nweek 3, Thirnight")
    want.view["clock"] = want.clock(nweek=3, nday=12, on=True, nday_changes=35)
    want.player(BOB)["vote_power"] = "0"
    want.score(BOB, 0)  # 7 - 25, never below 0
    want.check()

    play.tick("2026-02-10T00:00:00Z")  # the end of Voting and of the nweek; Carol, the second bidder, buys
    assert body_of(play.list_mail("Results of the Voting of nweek 3")).endswith(
        'Proposal 7: "Tea" by Bob <bob@b.test>\n  FOR: Alice, Bob, Guild\n  AGAINST: Carol\n  ABSTAIN: -\n'
        "  Stamina 3, Strength 1: PASSED\n")
    assert "Auction of Crown: bought (carol@b.test, m40)\n" in play.list_mail(
        "2026-02-10: nweek 4, Breakday, the Clock is Off")
    want.view["clock"] = want.clock(nweek=4, nday=1, on=False, nday_changes=36)
    want.proposal(4)["status"] = want.proposal(5)["status"] = "pending"  # Erin's Vote Power 0: Stamina 0
    want.end(7, "historical", "won", passed=True, ever_won=True)  # Stamina 1 + 0 + 1 + 1, Strength 1
    # 2-6 on 7: Alice, Bob, Carol +1 for voting (the Guild is no Player); Bob +2 x 2 Players FOR and +1 from
    # its change line
    for email, points, level in ((ALICE, 10, 2), (BOB, 0 + 1 + 4 + 1, 2), (CAROL, 8, 2)):
        want.score(email, points, level)
    want.view["blueprints"] = []
    want.view["devices"] = [{"number": 1, "blueprint": "Crown", "owner": CAROL, "attributes": {"Shine": "gold"},
                             "properties": []}]
    # 6-5: every Minister paid m50 (Carol after paying m40 for the Crown); then every Ministry Vacant
    for email, mackerel in ((ALICE, "m200"), (BOB, "m89.5"), (CAROL, "m125.5"), (DAVE, "m100"), (ERIN, "m100")):
        want.player(email)["mackerel"] = mackerel
    want.hold(None)
    want.player(DAVE)["active"] = False  # 3-5: his only Vote of nweek 3 was the Guild's
    want.view.update(active_players=4, quorum_exceeds="2")
    want.view["factions"][0]["vote_power"] = "3/4"  # 5-3: x3/4 at the nweek's start
    want.check()  # Alice is still the last MetaMin (6-8)


def nweek_four(play: BNomicPlay, want: Expect) -> None:
    """Part 2, nweek 4: a whole Emergency to its Refresh Proposal, game time stopped meanwhile, every
    step mailed to every PEP; an action scheduled in it dropped."""
    emergency = want.view["emergency"]
    play.send(ERIN, "Later", "At 2026-02-11T12:00:00Z: Give m1 to Alice", "2026-02-10T00:30:00Z")
    want.view["scheduled"] = [{"number": 2, "by": ERIN, "line": "At 2026-02-11T12:00:00Z: Give m1 to Alice"}]
    want.check()
    play.send(ALICE, "Panic", "Hit my Panic Button", "2026-02-10T00:40:00Z")
    said(play, ALICE, '  "Hit my Panic Button": your Panic Button is On: 1 of 5 Panic Buttons are On (Rule 0)')
    emergency["panic_buttons"][ALICE] = "on"
    want.check()
    play.send(BOB, "Panic", "Hit my Panic Button", "2026-02-10T00:50:00Z")
    emergency["panic_buttons"][BOB] = "on"
    want.view["threat_flag"] = "Black Watch Plaid"  # 3-17: two Panic Buttons On
    want.check()
    play.send_all("2026-02-10T01:00:00Z", *[(who, "Panic", "Hit my Panic Button") for who in (CAROL, DAVE)])
    said(play, DAVE, '  "Hit my Panic Button": your Panic Button is On: 4 of 5 Panic Buttons are On (Rule 0)')
    emergency["panic_buttons"].update({CAROL: "on", DAVE: "on"})
    emergency.update(active=True, coordinator=ALICE)  # the last MetaMin, a PEP and Active
    want.check()
    began = [m for m in play.outbox() if m["subject"] == "[B Nomic] Emergency 1: a State of Emergency"]
    # every PEP hears it, and the list: Zed, expelled in nweek 2, still subscribes
    assert sorted(a for m in began for a in m["to"]) == EVERYONE + [ZED]
    assert "The Emergency Coordinator is Alice, who last held the Ministry of Ministry." in began[0]["text"]

    play.send(ALICE, "Procedure", "Emergency forum: players@bnomic.test\nInitialize the Pause", "2026-02-10T02:00:00Z")
    said(play, ALICE, '  "Emergency forum: players@bnomic.test": the Emergency Forum is players@bnomic.test; every '
                      "PEP is told (Rule 0, step 3)", '  "Initialize the Pause": the Pause is 0 (Rule 0, step 4)')
    emergency.update(forum="players@bnomic.test", pause=0)
    want.check()
    play.send(BOB, "Refresh Proposal: Restore", "Set points of Bob to 10\nSet hit points of Erin to -1\n"
                                                "The Registrar thanks everyone.", "2026-02-10T03:00:00Z")
    said(play, BOB, '  "Refresh Proposal: Restore": Refresh Proposal 1, with 2 change lines')
    emergency["refresh_proposals"].append({"number": 1, "by": BOB, "title": "Restore"})
    want.check()
    play.send(DAVE, "Refresh Proposal: Nothing", "Dave gains 1 point", "2026-02-10T04:00:00Z")
    emergency["refresh_proposals"].append({"number": 2, "by": DAVE, "title": "Nothing"})
    want.check()

    play.tick("2026-02-15T00:00:00Z")  # five midnights: the Pause is 5, the first-round Ballot; no game time
    assert "Subject: [B Nomic] S2 did not occur\n" in play.answer_to(ERIN)  # its time fell in the Emergency
    want.view["scheduled"] = []
    emergency.update(pause=5, round=1, ballot=[1, 2])
    want.check()
    play.send_all("2026-02-15T01:00:00Z", (ALICE, "V", "Refresh vote 1"), (BOB, "V", "Refresh vote 1"),
                  (CAROL, "V", "Refresh vote 2"), (ERIN, "V", "Refresh vote 1"))
    said(play, ERIN, '  "Refresh vote 1": your vote for Refresh Proposal 1 in round 1 is recorded')
    emergency["votes"] = {ALICE: 1, BOB: 1, CAROL: 2, ERIN: 1}
    want.check()

    play.tick("2026-02-17T00:00:00Z")  # the Pause is 7: 3 votes to 1, Restore is selected and applied
    selected = [m for m in play.outbox() if m["subject"] == "[B Nomic] Emergency 1: a Refresh Proposal selected"]
    assert sorted(a for m in selected for a in m["to"]) == EVERYONE + [ZED]
    assert ("Refresh Proposal 1, 'Restore', is selected (the most votes in round 1); its changes occur: Bob has 10 "
            "points; Erin has 0 Hit Points and is Dead (2-11). Every Panic Button becomes Off (Rule 0, step 12)"
            ) in selected[0]["text"].replace("=\n", "")
    want.score(BOB, 10, level=2)
    want.player(ERIN).update(hit_points=0, dead=True)
    want.view["threat_flag"] = "Jolly Roger"  # 3-17: fewer than two buttons On
    emergency.update(active=False, coordinator=None, forum=None, pause=None, round=None, ballot=[], votes={},
                     refresh_proposals=[], panic_buttons=dict.fromkeys(EVERYONE, "off"))
    want.check()
    play.send(ALICE, "Done", "Applied refresh 1: the Registrar thanked everyone", "2026-02-17T01:00:00Z")
    said(play, ALICE, '  "Applied refresh 1: the Registrar thanked everyone": recorded: Refresh Proposal 1 '
                      "implemented: the Registrar thanked everyone")
    want.check()
    play.tick("2026-02-18T00:00:00Z")  # game time again: the Clock is Off, an ndelay
    want.view["clock"] = want.clock(nweek=4, nday=1, on=False, nday_changes=36, ndelay=1)
    want.check()
