"""Admission (rule "Pactmakers": "Any human may apply to join ... An Admin shall add them to the
roster"): with admission = "admin", the default, a Join waits for an Admin's Admit."""
from __future__ import annotations

from tests.blognomic.support import ADMIN, ALICE, answers, new_game, of

PUPPETS = [f"puppet{i}@sock.test" for i in range(1, 7)]


def test_six_sock_puppets_stay_applicants_and_cannot_vote_or_call_for_judgement():
    game = new_game(admission="admin")
    for i, p in enumerate(PUPPETS):
        assert answers(game.mail(p, "Join", hours=1, name=f"Sock {i + 1}")) == [
            "Join: your application of 2026-01-05T01:00:00Z waits for an Admin to add you to the roster; "
            "you will be told when you are a Pactmaker"]
    game.mail(ADMIN, "Proposal: Cake", "Cake for all.", hours=2)
    assert answers(game.mail(PUPPETS[0], "Re: Cake", "FOR 1", hours=2.1)) == [
        "FOR 1: only a Pactmaker may vote (rule Votes); no Vote cast"]
    assert answers(game.mail(PUPPETS[1], "Call for Judgement: Rewrite the core", hours=2.2)) == [
        "Call for Judgement: Rewrite the core: only a Pactmaker may do that (send Join first) (rule Calls for Judgement); "
        "no Call for Judgement made"]
    view = game.json()
    assert [p["email"] for p in view["players"]] == [ADMIN]
    assert view["quorum"] == 1 and len(view["matters"]) == 1
    assert [(a["email"], a["name"], a["applied_at"]) for a in view["applicants"]] == [
        (p, f"Sock {i + 1}", "2026-01-05T01:00:00Z") for i, p in enumerate(PUPPETS)]
    assert view["matters"][0]["votes"] == {ADMIN: "FOR"}
    # a second Join changes nothing: the first application keeps its place
    assert answers(game.mail(PUPPETS[0], "Join", hours=3)) == [
        "Join: your application of 2026-01-05T01:00:00Z waits for an Admin to add you to the roster; "
        "you will be told when you are a Pactmaker"]
    assert len(game.state.applicants) == 6


def test_an_admit_makes_the_applicant_a_pactmaker_who_may_vote():
    game = new_game(admission="admin")
    assert of(game.mail(ALICE, "Join", hours=1, name="Alice"), "application") == [
        {"player": ALICE, "name": "Alice"}]
    assert answers(game.mail(ALICE, "Admit Alice", hours=1.5)) == [
        "Admit Alice: only the Admins may do that (rule Pactmakers)"]
    events = game.mail(ADMIN, "Roster", "Admit alice", hours=2)
    assert answers(events) == ["Admit alice: Alice (alice@blog.test) is a Pactmaker; Quorum is now 2"]
    assert of(events, "joined") == [{"player": ALICE, "name": "Alice", "admitted_by": ADMIN}]
    view = game.json()
    assert [p["email"] for p in view["players"]] == [ADMIN, ALICE] and view["applicants"] == []
    assert game.state.players[-1].joined_at == game.state.players[-1].last_seen
    assert answers(game.mail(ADMIN, "Roster", "Admit alice@blog.test", hours=3)) == [
        "Admit alice@blog.test: Alice is already a Pactmaker; nothing changed"]
    game.mail(ADMIN, "Proposal: Cake", hours=4)
    assert answers(game.mail(ALICE, "Re: Cake", "AGAINST 1", hours=5))[0].startswith("AGAINST 1: AGAINST on Proposal 1")


def test_a_refused_application_is_withdrawn_and_an_unknown_one_is_refused():
    game = new_game(admission="admin")
    game.mail(PUPPETS[0], "Join", hours=1)
    events = game.mail(ADMIN, "Roster", f"Refuse {PUPPETS[0]}\nAdmit Nobody", hours=2)
    assert answers(events) == [
        f"Refuse {PUPPETS[0]}: the application of {PUPPETS[0]} is refused; they are told, and may apply again",
        "Admit Nobody: Nobody has not applied to join (they send Join); nothing done"]
    assert of(events, "application_refused") == [{"player": PUPPETS[0], "name": "Puppet1", "by": ADMIN}]
    assert game.json()["applicants"] == [] and [p.email for p in game.state.players] == [ADMIN]


def test_admission_auto_makes_a_pactmaker_at_once():
    game = new_game(admission="auto")
    events = game.mail(ALICE, "Join", hours=1, name="Alice")
    assert answers(events) == ["Join: Alice (alice@blog.test) is a Pactmaker; Quorum is now 2"]
    assert of(events, "joined") == [{"player": ALICE, "name": "Alice", "admitted_by": None}]


def test_an_admin_who_left_rejoins_at_once():
    game = new_game(admission="admin")
    game.mail(ADMIN, "Leave", hours=1)
    assert answers(game.mail(ADMIN, "Join", days=15)) == [
        "Join: Admin (admin@blog.test) is a Pactmaker; Quorum is now 1"]
