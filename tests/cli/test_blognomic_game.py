"""Issue 17 through the command line: a BlogNomic game made by ``nomic init --ruleset blognomic``,
played by mail with ``nomic ingest`` and the clock with ``nomic tick``, the exact ``nomic state
--json`` after every step, an answer to every message, and ``nomic replay --verify`` at the end."""
from __future__ import annotations

from tests.cli.blognomic_play import ADMIN, ALICE, BOB, CAROL, DAVE, NAMES, Expect, new_game, t
from tests.cli.ruleset_play import RulesetPlay, message_id, said

CAKE = "Every Pactmaker may eat cake."


def announced(play: RulesetPlay, number: int) -> tuple[str, str]:
    """The subject of the list's last mail about matter ``number``, and its tally line."""
    mail = play.announcements(number)[-1]
    return mail["subject"], next(ln for ln in mail["text"].splitlines() if ln.startswith(("Enacted", "Failed")))


def test_a_dynasty_by_mail_and_the_clock(tmp_path, new_database_url):
    play = new_game(tmp_path, new_database_url, admission="admin")
    want = Expect(play)
    want.check()

    # Four people apply (rule "Pactmakers": "An Admin shall add them to the roster"); the Admin
    # admits each, and each is told: with the Admin, five Pactmakers, Quorum 3.
    for i, (email, name) in enumerate(NAMES.items()):
        play.send(email, "Join", at=t(5, 0, 10 + i), name=name)
        said(play, email, f'  "Join": your application of {t(5, 0, 10 + i)} waits for an Admin to add you to '
                          "the roster; you will be told when you are a Pactmaker")
        want.view["applicants"].append({"email": email, "name": name, "applied_at": t(5, 0, 10 + i)})
    want.check()
    for i, (email, name) in enumerate(NAMES.items()):
        quorum = (i + 2) // 2 + 1
        play.send(ADMIN, "Roster", f"Admit {name}", at=t(5, 0, 20 + i))
        said(play, ADMIN, f'  "Admit {name}": {name} ({email}) is a Pactmaker; Quorum is now {quorum}')
        [letter] = [m for m in play.mail_to(email) if m["kind"] == "admission"]
        assert letter["subject"] == "[BlogNomic] You are a Pactmaker"
        assert f"admin@blog.test, an Admin, has added you to the roster: you are a Pactmaker of BlogNomic. " \
               f"Quorum is now {quorum}." in letter["text"]
        want.view["players"].append(want.pactmaker(email, name))
        want.view["applicants"].pop(0)
        want.view["quorum"] = quorum
    want.check()

    # Alice proposes a rule; Bob votes FOR with a line, Carol with a bare FOR in a reply to the
    # Proposal's announcement: Popular, but open for less than 12 hours.
    play.send(ALICE, "Proposal: Free cake", f'Cake is good.\nEnact rule "Cake": {CAKE}', at=t(5, 1), name="Alice")
    said(play, ALICE, '  "Proposal: Free cake": Proposal 1 "Free cake" is open for voting; Quorum is 3')
    want.open(1, "proposal", ALICE, "Free cake", t(5, 1))
    want.check()
    play.send(BOB, "Votes", "FOR 1", at=t(5, 2))
    said(play, BOB, '  "FOR 1": FOR on Proposal 1 "Free cake"; now 2 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)')
    want.vote(1, BOB, "FOR")
    want.check()
    opened = play.announcements(1)[0]
    assert opened["subject"] == "[BlogNomic] Proposal 1: Free cake"
    play.reply(CAROL, message_id(opened), "FOR", at=t(5, 3), subject="Re: [BlogNomic] Proposal 1: Free cake")
    said(play, CAROL, '  "FOR": FOR on Proposal 1 "Free cake"; now 3 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)')
    want.vote(1, CAROL, "FOR")
    want.check()

    # Two pending Proposals are Alice's limit: the third is refused and takes no number.
    play.send(ALICE, "Proposal: More cake", "Seconds.", at=t(5, 4), name="Alice")
    want.open(2, "proposal", ALICE, "More cake", t(5, 4))
    assert play.send(ALICE, "Proposal: Even more cake", "Thirds.", at=t(5, 4, 30)).endswith(
        "you already have 2 Proposals pending (1, 2) (rule Proposals); no Proposal made\n")
    said(play, ALICE, '! "Proposal: Even more cake": you already have 2 Proposals pending (1, 2) (rule Proposals); '
                      'no Proposal made')
    want.check()

    # The Admin may not enact Proposal 2 before Proposal 1, the oldest.
    play.send(ADMIN, "Enact", "Enact 2", at=t(5, 5))
    said(play, ADMIN, '! "Enact 2": Proposal 2 may not be Enacted: it is not the oldest pending Proposal '
                      '(Proposal 1 is) (rule Enacting and Failing); nothing done')
    want.check()

    # auto_resolve: the clock enacts Proposal 1 at the very second its 12 hours are up.
    assert play.tick(t(5, 12, 59, 59)) == "nothing due\n"
    assert "resolved" in play.tick(t(5, 13, 30))
    want.resolve(1, "enacted", t(5, 13))
    assert announced(play, 1) == ("[BlogNomic] Proposal 1 enacted: Free cake", "Enacted 3-0 (Quorum 3)")
    want.view["rules"].append({"name": "Cake", "section": "dynastic", "text": CAKE, "repealed": False, "mechanics": []})
    want.check()

    # Three AGAINST make Proposal 2 Unpopular: the third vote fails it at once.
    for voter in (BOB, CAROL, DAVE):
        play.send(voter, "Votes", "AGAINST 2", at=t(5, 14))
        want.vote(2, voter, "AGAINST")
    said(play, DAVE, '  "AGAINST 2": AGAINST on Proposal 2 "More cake"; now 1 FOR, 3 AGAINST, 0 DEFERENTIAL '
                     '(Quorum 3)', '  Proposal 2 "More cake": Failed 1-3 (Quorum 3)')
    want.resolve(2, "failed", t(5, 14))
    assert announced(play, 2) == ("[BlogNomic] Proposal 2 failed: More cake", "Failed 1-3 (Quorum 3)")
    want.check()

    # Bob declares victory: Hiatus; everyone FOR and no AGAINST: enacted at 12 hours; Dynasty 2.
    play.send(BOB, "Declaration of Victory: Cake master", "I ate the most.", at=t(5, 15), name="Bob")
    want.open(3, "dov", BOB, "Cake master", t(5, 15))
    want.view["hiatus"] = True
    want.check()
    for voter in (ALICE, CAROL, DAVE):
        play.send(voter, "Votes", "FOR 3", at=t(5, 16))
        want.vote(3, voter, "FOR")
    want.check()
    assert play.tick(t(6, 2, 59, 59)) == "nothing due\n"
    play.tick(t(6, 3))
    want.resolve(3, "enacted", t(6, 3))
    assert announced(play, 3) == ("[BlogNomic] Declaration of Victory 3 enacted: Cake master", "Enacted 4-0 (Quorum 3)")
    want.view["dynasty"] = 2
    next(p for p in want.view["players"] if p["email"] == BOB)["seraphim"] = True
    want.check()

    # The new Seraphim's Ascension Address keeps "Cake" and ends the Hiatus.
    play.send(BOB, "Ascension Address: Bakers", 'Keep rule "Cake"', at=t(6, 4))
    want.view["hiatus"] = False
    for rule in want.view["rules"]:
        rule["repealed"] = rule["section"] == "dynastic" and rule["name"] != "Cake"
        rule["mechanics"] = [] if rule["repealed"] else rule["mechanics"]  # Tags repealed: no tags checked
    want.check()

    said(play, BOB, '  "Ascension Address: Bakers": Dynasty 2 begins: Bakers; 16 dynastic rules repealed, '
                    '0 Proposals failed')
    assert len([m for m in play.outbox() if m["kind"] == "answer"]) == play.sent  # every message answered
    play.verify()


def test_without_auto_resolve_an_admin_enacts_when_the_rules_allow(tmp_path, new_database_url):
    play = new_game(tmp_path, new_database_url, auto_resolve=False)
    want = Expect(play)
    for email in (ALICE, BOB):
        play.send(email, "Join", at=t(5, 0, 10), name=NAMES[email])
        want.view["players"].append(want.pactmaker(email, NAMES[email]))
    want.view["quorum"] = 2
    play.send(ALICE, "Proposal: Free cake", "Cake is good.", at=t(5, 1))
    want.open(1, "proposal", ALICE, "Free cake", t(5, 1))
    play.send(BOB, "Votes", "FOR 1", at=t(5, 2))
    want.vote(1, BOB, "FOR")
    play.send(ADMIN, "Enact", "Enact 1", at=t(5, 12, 59, 59))
    said(play, ADMIN, '! "Enact 1": Proposal 1 may not be Enacted: it has been open for voting for less than '
                      '12 hours (rule Enacting and Failing); nothing done')
    assert play.tick(t(5, 20)) == "nothing due\n"  # the clock resolves nothing: the Admins do
    want.check()
    play.send(ADMIN, "Enact", "Enact 1", at=t(5, 20, 5))
    said(play, ADMIN, '  "Enact 1": Proposal 1 "Free cake": Enacted 2-0 (Quorum 2)')
    want.resolve(1, "enacted", t(5, 20, 5))
    want.check()
    assert len([m for m in play.outbox() if m["kind"] == "answer"]) == play.sent
    play.verify()
