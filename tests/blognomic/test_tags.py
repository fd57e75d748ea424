"""Rule "Tags" (edition 149): a change to a Core rule needs the [Core] tag in the matter's title,
refused in the answer on arrival and not applied on enactment (engine/blognomic/tags.py)."""
from __future__ import annotations

from engine.blognomic.mechanics import DECLARED
from tests.blognomic.support import ALICE, BOB, CAROL, FIVE, answers, new_game, of

CHANGE = 'Amend rule "Proposals": Proposals are made by mail.'
SUMMARY = ["    Mechanics: none changed", "    Parameters: none changed", "    To apply by hand: nothing"]
DIFF = ['    --- rule "Proposals" (core)', '    +++ rule "Proposals" (core)', "    @@ -1 +1 @@",
        "    -Any Pactmaker may submit a Proposal to change the Ruleset or Gamestate, by posting an entry in the "
        "“Proposal” category that describes those changes (unless the Pactmaker already has 2 Proposals pending, or "
        "has already made 3 Proposals that day).", "    +Proposals are made by mail."]


def opened(line: str, *preview: str) -> str:
    """An answer line opening a matter, with its preview of what enacting it would do."""
    return "\n".join([line, "    If enacted:", *preview, *SUMMARY])


def enact(title: str, edition: str = "149") -> tuple[list[str], list[dict[str, object]], str]:
    """ALICE's Call for Judgement ``title`` amending the core rule Proposals, made popular (enacted at
    once); its answer on arrival, its ``amended`` events and the rule's text afterwards."""
    game = new_game(FIVE, edition=edition)
    arrival = answers(game.mail(ALICE, f"Call for Judgement: {title}", CHANGE, hours=1))
    game.mail(BOB, "v", "FOR 1", hours=1.5)
    events = game.mail(CAROL, "v", "FOR 1", hours=2)
    rule = next(r for r in game.state.rules if r.title == "Proposals")
    return arrival, of(events, "amended"), rule.text


def test_an_untagged_change_to_a_core_rule_is_refused_on_arrival_and_not_applied() -> None:
    arrival, amended, text = enact("Simpler votes")
    assert arrival == [
        opened('Call for Judgement: Simpler votes: Call for Judgement 1 "Simpler votes" is open for voting; Quorum is 3'),
        'Amend rule "Proposals": refused: a change to the Core Rules needs the [Core] tag in the title (rule Tags); '
        "it will not be applied if the matter is Enacted"]
    assert amended == [{"number": 1, "changes": [{"action": "amend", "rule": "Proposals", "result": "skipped: a change "
                        "to the Core Rules needs the [Core] tag in the title (rule Tags)"}], "by_hand": False}]
    assert text != "Proposals are made by mail."


def test_a_core_tagged_change_is_enacted() -> None:
    arrival, amended, text = enact("[core] Simpler votes")
    assert arrival == [opened('Call for Judgement: [core] Simpler votes: Call for Judgement 1 "[core] Simpler votes" '
                              "is open for voting; Quorum is 3", *DIFF)]
    assert amended == [{"number": 1, "changes": [{"action": "amend", "rule": "Proposals", "result": "amended"}],
                        "by_hand": False}]
    assert text == "Proposals are made by mail."


def test_an_edition_without_the_rule_tags_needs_no_tag() -> None:
    arrival, amended, text = enact("Simpler votes", edition="109")
    assert len(arrival) == 1 and text == "Proposals are made by mail."


def test_every_mechanic_has_a_repeal_test() -> None:
    assert {m.rule for m in DECLARED.mechanics} == {"Tags"}  # test_repealing_rule_tags_...


def test_repealing_rule_tags_lets_an_untagged_matter_change_a_core_rule() -> None:
    game = new_game(FIVE)
    game.mail(ALICE, "Call for Judgement: No tags", 'Repeal rule "Tags"', hours=1)  # Tags is dynastic in 149
    game.mail(BOB, "v", "FOR 1", hours=1.5)
    game.mail(CAROL, "v", "FOR 1", hours=2)
    assert [r["mechanics"] for r in game.json()["rules"] if r["name"] == "Tags"] == [[]]
    arrival = answers(game.mail(ALICE, "Call for Judgement: Simpler", CHANGE, hours=3))
    assert arrival == [opened('Call for Judgement: Simpler: Call for Judgement 2 "Simpler" is open for voting; '
                              "Quorum is 3", *DIFF)]
    game.mail(BOB, "v", "FOR 2", hours=3.5)
    events = game.mail(CAROL, "v", "FOR 2", hours=4)
    assert of(events, "amended")[0]["changes"][0]["result"] == "amended"
