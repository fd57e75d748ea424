"""Issue 31: players hear the game without a ``Subscribe``. Whoever becomes a player is on the list
([list] subscribe_players, true by default); an announcement reaches the people it concerns even
off the list (kind ``concerned``); every answer's footer says how to leave the list or digest it;
``nomic outbox`` says "(no recipients)" rather than leave the column empty."""
from __future__ import annotations

import json
import tomllib

import tomli_w

from tests.cli.blognomic_play import ADMIN, ALICE as B_ALICE, BOB as B_BOB, new_game, t
from tests.cli.ruleset_play import RulesetPlay
from tests.suber.support import ALICE as S_ALICE, BOB as S_BOB, CAROL as S_CAROL, PLAYERS
from tests.support import EMPEROR

ALICE, BOB = "alice@wonder.land", "bob@builder.org"


def sent(play, kind: str) -> list[tuple[list[str], str]]:
    """(recipients, subject) of each outgoing mail of ``kind``, oldest first."""
    return [(m["to"], m["subject"]) for m in play.outbox() if m["kind"] == kind]


def test_imperial_players_hear_every_announcement_that_concerns_them(make_play):
    game = make_play()
    game.send(ALICE, "Proposal: Free cake", "Cake for all.", at="2026-01-05T01:00:00Z")
    game.send(BOB, "Proposal: More cake", "Seconds.", at="2026-01-05T02:00:00Z")
    assert [s["email"] for s in game.state()["subscribers"]] == [ALICE, BOB]  # the Emperor has copies of their own
    game.send(BOB, "Quiet, please", "Unsubscribe", at="2026-01-05T03:00:00Z")
    game.send(EMPEROR, "Judgments", "Accept 1\nReject 2", at="2026-01-05T04:00:00Z")
    assert sent(game, "announcement") == [
        ([ALICE], "[Test Nomic] Proposal 1: Free cake"),
        ([ALICE, BOB], "[Test Nomic] Proposal 2: More cake"),
        ([ALICE], "[Test Nomic] Proposal 1 accepted: Free cake"),
        ([ALICE], "[Test Nomic] Proposal 2 rejected: More cake")]
    assert sent(game, "concerned") == [([BOB], "[Test Nomic] Proposal 2 rejected: More cake")]  # off the list, its author
    [concerned] = [m for m in game.outbox() if m["kind"] == "concerned"]
    assert "List-Unsubscribe" not in concerned["text"] and f"To: {BOB}\n" in concerned["text"]
    answers = [m["text"] for m in game.outbox() if m["kind"] == "answer"]
    assert ("\n-- \nThe Humble Scribe, Test Nomic\nYou hear the game on players@imperial.test: mail \"Unsubscribe\" to\n"
            "ths@imperial.test to stop, \"Digest on\" for one mail a day.\n") in answers[0]
    assert ("\n-- \nThe Humble Scribe, Test Nomic\nYou are not on players@imperial.test: mail \"Subscribe\" to "
            "ths@imperial.test to hear the game.\n") in answers[2]
    game.verify()


def test_a_game_that_does_not_subscribe_its_players_still_tells_the_author(make_play):
    game = make_play()
    settings = tomllib.loads((game.dir / "game.toml").read_text())
    settings.setdefault("list", {})["subscribe_players"] = False
    (game.dir / "game.toml").write_text(tomli_w.dumps(settings))
    game.send(ALICE, "Proposal: Free cake", "Cake for all.", at="2026-01-05T01:00:00Z")
    game.send(EMPEROR, "Judgments", "Accept 1", at="2026-01-05T02:00:00Z")
    assert game.state()["subscribers"] == []
    assert sent(game, "concerned") == [([ALICE], "[Test Nomic] Proposal 1: Free cake"),
                                       ([ALICE], "[Test Nomic] Proposal 1 accepted: Free cake")]
    assert game.cli("outbox").splitlines()[2] == (
        "    3 sent    announcement (no recipients): [Test Nomic] Proposal 1: Free cake")


def test_blognomic_pactmakers_hear_the_game_from_their_join(tmp_path, new_database_url):
    play = new_game(tmp_path, new_database_url)
    play.send(B_ALICE, "Join", at=t(5, 0, 10))
    play.send(B_BOB, "Join", "Digest on", at=t(5, 0, 20))  # says otherwise: the digest, not every post
    play.send(B_ALICE, "Proposal: Free cake", 'Enact rule "Cake": Cake.', at=t(5, 1))
    play.send(B_BOB, "Proposal: More cake", "Seconds.", at=t(5, 2))
    assert sent(play, "officer") == [([ADMIN], "[BlogNomic] Proposal 1: Free cake"),
                                     ([ADMIN], "[BlogNomic] Proposal 2: More cake")]
    assert sent(play, "announcement") == [([B_ALICE], "[BlogNomic] Proposal 1: Free cake"),
                                          ([B_ALICE], "[BlogNomic] Proposal 2: More cake")]
    assert sent(play, "concerned") == [([B_BOB], "[BlogNomic] Proposal 2: More cake")]  # the digest comes tomorrow
    play.verify()


def test_suber_players_hear_the_game_from_its_start(tmp_path, new_database_url):
    play = RulesetPlay(tmp_path / "suber", "suber", new_database_url(), {"suber": {"players": json.dumps(PLAYERS)}})
    play.send(S_BOB, "Off the list", "Unsubscribe", at="2026-01-05T00:10:00Z")
    play.send(S_ALICE, "Proposal: Hello", "Enact rule: Players say hello.", at="2026-01-05T00:20:00Z")
    play.send(S_ALICE, "Call", "Call vote 301", at="2026-01-05T00:30:00Z")
    assert sent(play, "announcement") == [([S_ALICE, S_CAROL], "[Suber's Nomic] Proposal 301: Hello"),
                                          ([S_ALICE, S_CAROL], "[Suber's Nomic] Proposal 301: the vote is open")]
    assert sent(play, "concerned") == [([S_BOB], "[Suber's Nomic] Proposal 301: the vote is open")]  # Bob must vote
    play.verify()
