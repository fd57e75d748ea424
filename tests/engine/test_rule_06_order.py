"""Rule 6: within a day, Proposals first, then rule-triggered scoring (Player of the Day,
then the Profile AND after all other scoring), then non-scoring changes (cooling)."""
from __future__ import annotations

from tests.engine.imperial_play import ALICE, die, with_variables
from tests.support import EMPEROR, SCRIBE


def test_the_end_of_a_day_runs_in_rule_6_order(make_play):
    play = with_variables(make_play(), start_temperature=304)
    play.propose(ALICE, "One")
    play.judge("Accept 1", at="2026-01-06T01:00:00Z")  # an announcement that ends day 1
    st = play.state()
    assert [(e["rule"], e["delta"], e["day"]) for e in st["ledger"]] == [
        (11, 3, 1),  # the Proposal judged in the announcement
        (18, 1, 1),  # Player of the Day (alice, the only eligible player)
        (12, 5, 1), (12, 5, 1), (12, 5, 1),  # the Profile AND at 304 K, after all other scoring:
    ]                                         # TIE, THS (players by rule 1) and alice match
    swing, cool = die("day:1:and", -10, 10), die("day:1:cooling", 0, 10)
    assert st["temperature"] == 304 + swing - cool == 307  # cooling last
    assert [(p["email"], p["score"]) for p in st["players"]] == [(EMPEROR, 5), (SCRIBE, 5), (ALICE, 9)]
    play.verify()
