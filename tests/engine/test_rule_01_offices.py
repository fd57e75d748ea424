"""Rule 1: TIE and THS from game.toml; THS's rewrites of a Proposal keep every revision."""
from __future__ import annotations

from tests.support import EMPEROR

from engine.imperial.profiles import profile_from_email
from tests.engine.imperial_play import ALICE, OFFICER_ROWS, contract_state, sub


def test_the_scribe_rewrites_a_proposal_and_every_revision_is_kept(make_play):
    play = make_play(scribe="scribe@imperial.test")
    play.propose(ALICE, "Cake", "cake 4 all")
    out = play.send("scribe@imperial.test", "clarify", "Rewrite 1:\nCake for all players.")
    assert "Proposal 1 rewritten (revision 1)" in out
    play.send("scribe@imperial.test", "again", "Rewrite 1:\nCake for every player.",
              at="2026-01-05T03:00:00Z")
    s = sub(play, 1)
    assert s["text"] == "Cake for every player."
    assert [(r["text"], r["by"]) for r in s["revisions"]] == [
        ("cake 4 all", ALICE), ("Cake for all players.", "scribe@imperial.test"),
        ("Cake for every player.", "scribe@imperial.test")]
    play.verify()


def test_only_the_scribe_rewrites_and_bad_rewrites_change_nothing(make_play):
    play = make_play(scribe="scribe@imperial.test")
    play.propose(ALICE, "Cake", "cake")
    assert ": only the Scribe may do that (rule 3)" in play.send(ALICE, "mine", "Rewrite 1:\nPie")
    assert "only the Scribe may do that (rule 3)" in play.send(EMPEROR, "mine", "Rewrite 1:\nPie")
    assert "there is no Proposal 9; nothing done" in play.send("scribe@imperial.test", "x", "Rewrite 9:\nPie")
    assert "is empty or unchanged" in play.send("scribe@imperial.test", "x", "Rewrite 1:\ncake")
    assert sub(play, 1)["revisions"] == []
    play.verify()


def test_one_person_may_hold_both_offices(make_play):
    both = "joel@imperial.test"
    play = make_play(emperor=both, scribe=both)
    play.propose(ALICE, "Cake", "cake")
    out = play.send(both, "both", "Accept 1\nRewrite 1:\nCake, clarified.")
    assert "Proposal 1 accepted" in out and "Proposal 1 rewritten (revision 1)" in out
    play.verify()


def test_tie_and_ths_are_players_from_nomic_init_once_if_one_address_holds_both(make_play):
    play = make_play()
    assert contract_state(play)["players"] == OFFICER_ROWS
    joel = "joel@imperial.test"
    both = make_play(emperor=joel, scribe=joel)
    assert [(p["email"], p["name"], p["score"], p["profile"]) for p in both.state()["players"]] == [
        (joel, "joel", 0, profile_from_email(joel))]
    both.propose(ALICE, "Cake")
    assert [p["email"] for p in both.state()["players"]] == [joel, ALICE]  # before anyone who joins
    both.verify()
