"""Rule "Idle Pactmakers": an Admin idling a Pactmaker silent for seven days "must announce the
idling in a blog post": the game posts it to the list (which the Pactmaker hears, subscribed on
joining); a Pactmaker's own Idle is told in the answer alone."""
from __future__ import annotations

from tests.cli.blognomic_play import ADMIN, ALICE, BOB, new_game, t


def body(mail: dict) -> str:
    return mail["text"].split("\n\n", 1)[1].split("\n-- \n")[0]


def test_an_admin_idling_a_silent_pactmaker_announces_it_to_the_list_and_the_player(tmp_path, new_database_url):
    play = new_game(tmp_path, new_database_url)
    play.send(ADMIN, "Join", "", t(5, 1))
    play.send(ALICE, "Join", "", t(5, 2), name="Alice")
    play.send(BOB, "Join", "", t(5, 3), name="Bob")
    play.send(BOB, "Idle", "", t(6, 3))  # his own Idle: the answer alone
    assert [m for m in play.outbox() if m["subject"].endswith(" is Idle")] == []
    play.send(ADMIN, "Idle", "Idle Alice", t(12, 2))
    idled = [m for m in play.outbox() if m["subject"].endswith("Alice is Idle")]
    assert [(m["kind"], m["to"]) for m in idled] == [("announcement", [ALICE, BOB])]  # the list: Alice hears it
    assert body(idled[0]) == (
        'admin, an Admin, has rendered Alice (alice@blog.test) Idle: they have not posted an entry or comment '
        'since 2026-01-05T02:00:00Z, seven days or more (rule "Idle Pactmakers"). An Idle Pactmaker is not '
        "counted as a Pactmaker; Quorum is now 1.\n\n"
        'Alice may become a Pactmaker again by mailing "Unidle" to ths@blog.test.\n')
    play.verify()
