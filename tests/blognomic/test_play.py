"""A BlogNomic game through the engine: exact state JSON, answers and tally lines."""
from __future__ import annotations

from engine import machine
from tests.blognomic.support import ADMIN, ALICE, BOB, CAROL, DAVE, FIVE, answers, at, new_game, of


def test_a_new_game_has_the_admins_as_pactmakers_and_the_rules_by_section():
    game = new_game()
    view = game.json()
    assert {k: view[k] for k in ("ruleset", "edition", "dynasty", "hiatus", "quorum", "players", "matters")} == {
        "ruleset": "blognomic", "edition": "149", "dynasty": 1, "hiatus": False, "quorum": 1,
        "players": [{"email": ADMIN, "name": "admin", "idle": False, "admin": True, "seraphim": False,
                     "away_until": None}],
        "matters": []}
    sections = {r["name"]: r["section"] for r in view["rules"]}
    assert sections["Votes"] == "core" and sections["Golem"] == "dynastic" and sections["Prioritisation"] == "appendix"
    assert view["rules"][5] == {"name": "Votes", "section": "core", "repealed": False,
                                "text": game.state.rules[5].text, "mechanics": []}
    assert [(r["name"], r["mechanics"]) for r in view["rules"] if r["mechanics"]] == [
        ("Tags", ["the [Core] and [Appendix] tags a change to those rules needs"])]
    assert view["parameters"] == {"max_pending_proposals": 2, "max_daily_proposals": 3, "enact_hours": 12,
                                  "fail_hours": 48, "stale_days": 7}
    assert view["rules"][5]["text"].startswith("Each Pactmaker may cast one Vote")


def test_seraphims_named_in_the_config_are_pactmakers_and_seraphims():
    game = new_game(seraphims=("sera@blog.test",))
    assert game.json()["players"][1] == {"email": "sera@blog.test", "name": "sera", "idle": False, "admin": False,
                                         "seraphim": True, "away_until": None}


def test_a_proposal_with_votes_is_enacted_at_twelve_hours_with_its_change_lines():
    game = new_game(FIVE)
    events = game.mail(ALICE, "Proposal: Free cake", 'Enact rule "Cake": Cake for all.\nEvery day.', hours=1)
    assert answers(events) == ["\n".join([
        'Proposal: Free cake: Proposal 1 "Free cake" is open for voting; Quorum is 3', "    If enacted:",
        "    --- (no rule)", '    +++ rule "Cake" (dynastic)', "    @@ -0,0 +1,2 @@", "    +Cake for all.",
        "    +Every day.", "    Mechanics: none changed", "    Parameters: none changed",
        "    To apply by hand: nothing"])]
    assert answers(game.mail(BOB, "Re: Proposal: Free cake", "FOR", hours=2, reply_to=1)) == [
        'FOR: FOR on Proposal 1 "Free cake"; now 2 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)']
    game.mail(CAROL, "votes", "FOR 1", hours=3)
    assert game.matter(1) == {
        "number": 1, "kind": "proposal", "author": ALICE, "title": "Free cake", "status": "pending",
        "opened_at": "2026-01-05T01:00:00Z", "resolved_at": None, "self_killed": False, "vetoed": False,
        "votes": {ALICE: "FOR", BOB: "FOR", CAROL: "FOR"}, "tally": {"for": 3, "against": 0, "deferential": 0}}
    assert machine.next_due(game.state, game.config) == at(13)
    resolved = of(game.tick(at(13)), "resolved")
    assert resolved == [{"number": 1, "kind": "proposal", "title": "Free cake", "author": ALICE,
                         "status": "enacted", "tally": "Enacted 3-0 (Quorum 3)", "by": "ths@blog.test",
                         "at": "2026-01-05T13:00:00Z"}]
    assert game.matter(1)["status"] == "enacted" and game.matter(1)["resolved_at"] == "2026-01-05T13:00:00Z"
    assert game.json()["rules"][-1] == {"name": "Cake", "section": "dynastic", "text": "Cake for all.\nEvery day.",
                                        "repealed": False, "mechanics": []}
    assert machine.next_due(game.state, game.config) is None


def test_a_late_message_resolves_what_was_due_at_the_time_it_became_due():
    game = new_game(FIVE)
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "v", "FOR 1\nAGAINST 1\nFOR 1", hours=2)
    game.mail(CAROL, "v", "FOR 1", hours=3)
    events = game.mail(DAVE, "v", "FOR 1", hours=20)
    assert of(events, "resolved")[0]["at"] == "2026-01-05T13:00:00Z"
    assert answers(events) == ["FOR 1: Proposal 1 is already enacted (Enacted 3-0 (Quorum 3)); no Vote cast"]


def test_a_vote_that_reaches_quorum_after_twelve_hours_resolves_at_once_and_is_answered():
    game = new_game(FIVE)
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "v", "FOR 1", hours=2)
    assert of(game.tick(at(13)), "resolved") == []
    assert answers(game.mail(CAROL, "v", "FOR 1", hours=14)) == [
        'FOR 1: FOR on Proposal 1 "A"; now 3 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)',
        'Proposal 1 "A": Enacted 3-0 (Quorum 3)']


def test_without_auto_resolve_the_admin_enacts_and_is_told_why_not():
    game = new_game(FIVE, auto=False)
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(ALICE, "Proposal: B", hours=1)
    game.mail(BOB, "v", "FOR 1\nFOR 2", hours=2)
    game.mail(CAROL, "v", "FOR 1\nFOR 2", hours=2)
    assert machine.next_due(game.state, game.config) is None
    assert answers(game.mail(ADMIN, "resolve", "Enact 1\nEnact 2\nFail 1\nEnact 9", hours=5)) == [
        "Enact 1: Proposal 1 may not be Enacted: it has been open for voting for less than 12 hours (rule Enacting and Failing); nothing done",
        "Enact 2: Proposal 2 may not be Enacted: it is not the oldest pending Proposal (Proposal 1 is) (rule Enacting and Failing); nothing done",
        "Fail 1: Proposal 1 may not be Failed: it is not Unpopular (5 not voting AGAINST, Quorum 3) (rule Enacting and Failing); nothing done",
        "Enact 9: there is no Votable Matter 9; nothing done"]
    assert answers(game.mail(BOB, "resolve", "Enact 1", hours=13)) == [
        "Enact 1: only the Admins may do that (rule Enacting and Failing)"]
    assert answers(game.mail(ADMIN, "resolve", "Enact 1\nEnact 2", hours=13)) == [
        'Enact 1: Proposal 1 "A": Enacted 3-0 (Quorum 3)', 'Enact 2: Proposal 2 "B": Enacted 3-0 (Quorum 3)']
    assert game.matter(1)["resolved_at"] == "2026-01-05T13:00:00Z"
    assert game.state.matters[0].resolved_by == ADMIN


def test_self_killed_and_vetoed_are_sticky_and_fail_at_once():
    game = new_game(FIVE, seraphims=(CAROL,))
    game.mail(ALICE, "Proposal: A", hours=1)
    events = game.mail(ALICE, "v", "AGAINST 1\nFOR 1", hours=2)
    assert answers(events) == [
        'AGAINST 1: AGAINST on Proposal 1 "A": Self-Killed, and it stays Self-Killed (rule "Special Proposal '
        'Voting"); now 0 FOR, 1 AGAINST, 0 DEFERENTIAL (Quorum 3)',
        'FOR 1: FOR on Proposal 1 "A" (it stays Self-Killed: your earlier AGAINST Self-Killed it, rule "Special '
        'Proposal Voting"); now 1 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)',
        'Proposal 1 "A" failed: Self-killed']
    game.mail(BOB, "Proposal: B", hours=3)
    assert answers(game.mail(DAVE, "v", "VETO 2", hours=4)) == [
        "VETO 2: only a Seraphim may VETO (rule Special Proposal Voting); no Vote cast"]
    assert answers(game.mail(CAROL, "v", "VETO 2", hours=4)) == [
        'VETO 2: VETO on Proposal 2 "B": Vetoed, and it stays Vetoed whatever the Votes (rule "Special Proposal '
        'Voting"); now 1 FOR, 0 AGAINST, 0 DEFERENTIAL (Quorum 3)',
        'Proposal 2 "B" failed: Vetoed']
    assert game.matter(2)["vetoed"] and game.state.matters[1].tally_line == "Vetoed"
    assert game.matter(1)["self_killed"] and game.matter(1)["votes"] == {ALICE: "FOR"}


def test_proposals_wait_out_a_hiatus_then_resolve_oldest_first_when_it_ends():
    game = new_game(FIVE)
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "Proposal: B", hours=2)
    game.mail(CAROL, "v", "FOR 2", hours=3)
    game.mail(DAVE, "v", "FOR 2", hours=3)
    assert of(game.events, "hiatus") == []
    game.mail(ADMIN, "Declaration of Victory: Me", hours=4)
    assert of(game.events, "hiatus") == [{"on": True, "why": "Declaration of Victory 3"}]
    assert machine.next_due(game.state, game.config) == at(52)
    game.tick(at(days=7))
    # the DoV timed out at 52h (one valid Vote: not Popular), the Hiatus ended, then A and B resolved
    assert [(r["number"], r["tally"], r["at"]) for r in of(game.events, "resolved")] == [
        (3, "Timed out 1-0", "2026-01-07T04:00:00Z"),
        (1, "Timed out 1-0", "2026-01-07T04:00:00Z"),
        (2, "Enacted 3-0 (Quorum 3)", "2026-01-07T04:00:00Z")]
    assert of(game.events, "hiatus")[1] == {"on": False, "why": "Declaration of Victory 3 failed"}


def test_a_proposal_pending_over_seven_days_drops_out_of_oldest_and_may_only_be_failed():
    game = new_game(FIVE, auto=False)
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "Proposal: B", hours=2)
    game.mail(CAROL, "v", "FOR 1\nFOR 2", hours=3)
    game.mail(DAVE, "v", "FOR 1\nFOR 2", hours=3)
    assert answers(game.mail(ADMIN, "r", "Enact 2", days=7, hours=1)) == [
        "Enact 2: Proposal 2 may not be Enacted: it is not the oldest pending Proposal (Proposal 1 is) (rule Enacting and Failing); nothing done"]
    assert answers(game.mail(ADMIN, "r", "Enact 1\nEnact 2\nFail 1", days=7, hours=2)) == [
        "Enact 1: Proposal 1 may not be Enacted: it has been pending for more than 7 days: it may only be failed (rule Enacting and Failing); "
        "nothing done",
        'Enact 2: Proposal 2 "B": Enacted 3-0 (Quorum 3)',
        'Fail 1: Proposal 1 "A": Timed out 3-0']
def test_refused_proposals_take_no_number():
    game = new_game(FIVE)
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(ALICE, "Proposal: B", hours=1)
    assert answers(game.mail(ALICE, "Proposal: C", hours=1)) == [
        "Proposal: C: you already have 2 Proposals pending (1, 2) (rule Proposals); no Proposal made"]
    assert answers(game.mail("stranger@else.test", "Proposal: D", hours=1)) == [
        "Proposal: D: only a Pactmaker may do that (send Join first) (rule Proposals); no Proposal made"]
    assert [m["number"] for m in game.json()["matters"]] == [1, 2]


def test_three_proposals_a_utc_day():
    game = new_game(FIVE)
    for n, title in enumerate("ABC"):
        game.mail(ALICE, f"Proposal: {title}", hours=1 + n)
        if n < 2:
            game.mail(ALICE, "v", f"AGAINST {n + 1}", hours=1 + n)  # self-killed: no longer pending
    assert answers(game.mail(ALICE, "v", "AGAINST 3", hours=4)) [0].startswith("AGAINST 3: AGAINST")
    assert answers(game.mail(ALICE, "Proposal: D", hours=5)) == [
        "Proposal: D: you have already made 3 Proposals today (2026-01-05, UTC) (rule Proposals); no Proposal made"]
    assert answers(game.mail(ALICE, "Proposal: D", hours=24)) == [
        'Proposal: D: Proposal 4 "D" is open for voting; Quorum is 3']


def test_a_popular_proposal_after_48_hours_below_quorum():
    game = new_game(FIVE)
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "v", "FOR 1", hours=2)
    game.mail(CAROL, "v", "AGAINST 1", hours=2)
    game.mail(DAVE, "v", "FOR 1", hours=20)  # 3 FOR: Quorum
    assert game.state.matters[0].tally_line == "Enacted 3-1 (Quorum 3)"
    game.mail(ALICE, "Proposal: B", hours=21)
    game.mail(BOB, "v", "FOR 2", hours=22)
    game.mail(CAROL, "v", "AGAINST 2", hours=22)
    assert machine.next_due(game.state, game.config) == at(69)
    game.tick(at(70))
    assert game.state.matters[1].tally_line == "Enacted 2-1 (Quorum 3)"
    assert game.matter(2)["resolved_at"] == "2026-01-07T21:00:00Z"


def test_an_unpopular_proposal_fails_as_soon_as_quorum_cannot_be_reached():
    game = new_game(FIVE)
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "v", "AGAINST 1", hours=2)
    game.mail(CAROL, "v", "AGAINST 1", hours=2)
    assert game.state.matters[0].status == "pending"  # 3 not voting AGAINST, Quorum 3
    assert answers(game.mail(DAVE, "v", "AGAINST 1", hours=3))[-1] == 'Proposal 1 "A": Failed 1-3 (Quorum 3)'


def test_deferential_votes_follow_the_seraphim_and_the_tally_line_says_so():
    game = new_game(FIVE, seraphims=(ERIN := "erin@blog.test",))
    game.mail(ALICE, "Proposal: A", hours=1)
    game.mail(BOB, "v", "DEFERENTIAL 1", hours=2)
    game.mail(CAROL, "v", "DEFERENTIAL 1", hours=2)
    assert game.matter(1)["tally"] == {"for": 1, "against": 0, "deferential": 2}
    assert game.matter(1)["votes"] == {ALICE: "FOR", BOB: "DEFERENTIAL", CAROL: "DEFERENTIAL"}
    assert answers(game.mail(ERIN, "v", "FOR 1", hours=13))[-1] == (
        'Proposal 1 "A": Enacted 4-0 (Quorum 4), 2 DEF→FOR via the Seraphim')
    assert game.matter(1)["tally"] == {"for": 4, "against": 0, "deferential": 0}


def test_join_leave_and_rejoin_within_two_weeks():
    game = new_game()
    assert answers(game.mail(ALICE, "Join", name="Alice")) == [
        "Join: Alice (alice@blog.test) is a Pactmaker; Quorum is now 2"]
    assert answers(game.mail(ALICE, "Join")) == ["Join: alice@blog.test is already a Pactmaker; nothing changed"]
    assert answers(game.mail(ALICE, "Leave", days=1)) == [
        "Leave: Alice is no longer a Pactmaker; you may join again from 2026-01-20T00:00:00Z; Quorum is now 1"]
    assert answers(game.mail(ALICE, "Join", days=14)) == [
        "Join: you ceased to be a Pactmaker at 2026-01-06T00:00:00Z: you may join again from "
        "2026-01-20T00:00:00Z (rule Pactmakers); nothing done"]
    assert answers(game.mail(ALICE, "Join", days=15))[0].startswith("Join: Alice (alice@blog.test) is a Pactmaker")
    assert game.state.players[-1].joined_at == at(days=15)


def test_the_state_json_has_exactly_the_contracts_keys():
    game = new_game(FIVE, seraphims=("sera@blog.test",))
    game.mail(ALICE, "Proposal: A", hours=1)
    view = game.json()
    assert list(view) == ["ruleset", "edition", "dynasty", "hiatus", "quorum", "players", "applicants",
                          "subscribers", "matters", "parameters", "rules"]  # see docs/contract-additions.md
    game.mail("reader@x.test", "Subscribe", hours=2)
    assert game.json()["subscribers"][-1] == {  # issue 31: as Imperial's
        "email": "reader@x.test", "digest": False, "plain": False, "since": "2026-01-05T02:00:00Z"}
    assert list(view["players"][0]) == ["email", "name", "idle", "admin", "seraphim", "away_until"]
    assert list(view["matters"][0]) == ["number", "kind", "author", "title", "status", "opened_at", "resolved_at",
                                        "self_killed", "vetoed", "votes", "tally"]
    assert list(view["rules"][0]) == ["name", "section", "text", "repealed", "mechanics"]
    assert view["quorum"] == 4 and [p["seraphim"] for p in view["players"]] == [False, True, False, False, False,
                                                                                 False]


def test_a_matter_needs_a_subject():
    game = new_game(FIVE)
    assert answers(game.mail(ALICE, "Proposal:  ", hours=1)) == [
        'Proposal:: its subject is empty after the colon (appendix, "Subject"); no Proposal made']
