"""Issue 30's transactions and actions in time through the command line: a failed and a successful
transaction, a repeated action and one scheduled for an absolute time, answered when it runs, with
exact ``nomic state --json`` and ``nomic replay --verify``."""
from __future__ import annotations

from tests.cli.ruleset_play import said
from tests.cli.test_bnomic_game import ALICE, BOB, CAROL, BNomicPlay


def holders(state: dict) -> dict[str, str]:
    return {m["name"]: m["holder"] for m in state["ministries"] if m["holder"]}


def test_transactions_repeats_and_scheduled_actions_by_mail(tmp_path, new_database_url):
    play = BNomicPlay(tmp_path, new_database_url())
    play.send(ALICE, "Offices", "BEGIN TRANSACTION\nTake Society\nTake Law\nAssert points of Alice is 1\n"
                                "END TRANSACTION", "2026-01-05T01:00:00Z")
    said(play, ALICE, '! "BEGIN TRANSACTION": line 3, \'Assert points of Alice is 1\', failed: Alice\'s points is 0; '
                      "the transaction failed (1-16); nothing done")
    assert holders(play.state()) == {}
    play.send(ALICE, "Offices", "BEGIN TRANSACTION\nTake Society\nTake Law\nAssert Alice holds Rulekeeper\n"
                                "END TRANSACTION", "2026-01-05T02:00:00Z")
    said(play, ALICE, '  "Take Society": you hold the Ministry of Society (the Registrar)',
         '  "Take Law": you hold the Ministry of Law (the Rulekeeper)', '  "BEGIN TRANSACTION": all 3 lines done (1-16)')
    play.send(BOB, "Again", "Repeat 2 times: Take Change", "2026-01-05T03:00:00Z")
    said(play, BOB, '  "Repeat 2 times: Take Change (1 of 2)": you hold the Ministry of Change (the Chairman)',
         '! "Repeat 2 times: Take Change (2 of 2)": the Ministry of Change is held by bob@b.test: only a Vacant '
         "Ministry may be taken (6-2); 'Usurp' it instead; nothing done")
    play.send(CAROL, "Later", "At 2026-01-05T12:00:00Z: Take Goods", "2026-01-05T04:00:00Z")
    said(play, CAROL, '  "At 2026-01-05T12:00:00Z: Take Goods": S1: \'Take Goods\' runs at 2026-01-05T12:00:00Z, '
                      "judged then (1-10)")
    assert play.state()["scheduled"] == [{"number": 1, "by": CAROL, "line": "At 2026-01-05T12:00:00Z: Take Goods"}]
    play.tick("2026-01-05T12:00:00Z")
    state = play.state()
    assert state["scheduled"] == []
    assert holders(state) == {"Ministry of Society": ALICE, "Ministry of Law": ALICE, "Ministry of Change": BOB,
                              "Ministry of Goods": CAROL}
    said(play, CAROL, '  "Take Goods": you hold the Ministry of Goods (the Artisan)')
    answer = play.answer_to(CAROL)
    assert "Subject: [B Nomic] S1 ran\n" in answer and "In-Reply-To: <" in answer
    play.verify()
