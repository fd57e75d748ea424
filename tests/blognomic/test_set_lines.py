"""Issue 28: an enacted matter's ``Set NAME = VALUE`` line changes a number of the rules (the
limits and windows of engine/blognomic/mechanics.py) from that moment; a Set line out of form, or
in a matter without the tag of its rule, is refused on arrival and not applied; a line meant as a
change line but not in form is refused with the forms expected, never read as prose."""
from __future__ import annotations

from types import SimpleNamespace

from rendering import Renderer
from tests.blognomic.support import ALICE, BOB, CAROL, FIVE, answers, at, new_game, of

FORMS = ("'Enact rule \"NAME\": TEXT', 'Amend rule \"NAME\": TEXT', 'Repeal rule \"NAME\"' or 'Set NAME = VALUE'")


def enacted_cfj(game, title: str, body: str, hours: float) -> list[str]:
    """ALICE's CfJ, made Popular by BOB and CAROL (Quorum 3): enacted at once. Its answer on arrival."""
    arrival = answers(game.mail(ALICE, f"Call for Judgement: {title}", body, hours=hours))
    game.mail(BOB, "v", f"FOR {len(game.state.matters)}", hours=hours + 0.1)
    game.mail(CAROL, "v", f"FOR {len(game.state.matters)}", hours=hours + 0.2)
    assert game.state.matters[-1].status == "enacted"
    return arrival


def test_an_enacted_set_line_raises_the_limit_of_pending_proposals() -> None:
    game = new_game(FIVE)
    game.mail(BOB, "Proposal: One", "One.", hours=1)
    game.mail(BOB, "Proposal: Two", "Two.", hours=1.1)
    assert answers(game.mail(BOB, "Proposal: Three", "Three.", hours=1.2)) == [
        "Proposal: Three: you already have 2 Proposals pending (1, 2) (rule Proposals); no Proposal made"]
    arrival = enacted_cfj(game, "[Core] Three at once", "Set max_pending_proposals = 3", hours=2)
    assert arrival[0].endswith("\n".join(["    If enacted:", "    Mechanics: none changed",
                                          "    Parameters: max_pending_proposals: 2 -> 3", "    To apply by hand: nothing"]))
    assert of(game.events, "amended")[-1]["changes"] == [
        {"action": "set", "rule": "max_pending_proposals", "result": "set: 2 -> 3"}]
    assert game.json()["parameters"]["max_pending_proposals"] == 3
    assert answers(game.mail(BOB, "Proposal: Three", "Three.", hours=3)) == [
        'Proposal: Three: Proposal 4 "Three" is open for voting; Quorum is 3']


def test_an_enacted_set_line_shortens_the_twelve_hours_a_popular_proposal_waits() -> None:
    resolved = []
    for hours in (None, 2):
        game = new_game(FIVE)
        if hours is not None:
            enacted_cfj(game, "[Core] Faster", f"Set enact_hours = {hours}", hours=1)
        number = len(game.state.matters) + 1
        game.mail(ALICE, "Proposal: Tea", "Tea.", hours=3)
        game.mail(BOB, "v", f"FOR {number}", hours=3.5)
        game.mail(CAROL, "v", f"FOR {number}", hours=3.6)  # Popular at 3:36, open since 3:00
        game.tick(at(hours=20))
        m = game.matter(number)
        resolved.append((m["status"], m["resolved_at"]))
    assert resolved == [("enacted", "2026-01-05T15:00:00Z"), ("enacted", "2026-01-05T05:00:00Z")]


def test_a_set_line_without_its_rules_tag_is_refused_and_not_applied() -> None:
    game = new_game(FIVE)
    arrival = enacted_cfj(game, "Three at once", "Set max_pending_proposals = 3", hours=1)
    assert arrival[1:] == ["Set max_pending_proposals = 3: refused: a change to the Core Rules needs the [Core] tag "
                           "in the title (rule Tags); it will not be applied if the matter is Enacted"]
    assert of(game.events, "amended")[-1]["changes"][0]["result"] == (
        "skipped: a change to the Core Rules needs the [Core] tag in the title (rule Tags)")
    assert game.json()["parameters"]["max_pending_proposals"] == 2


def test_a_set_line_out_of_form_is_refused_with_the_form_expected() -> None:
    game = new_game(FIVE)
    arrival = answers(game.mail(ALICE, "Call for Judgement: [Core] Zero", "Set enact_hours = -1\nSet tea = 2",
                                hours=1))
    assert arrival[1:] == [
        "Set enact_hours = -1: refused: enact_hours = -1 is out of bounds (rule Resolution of Proposals: It has "
        "been open for voting for at least 12 hours); expected 'Set enact_hours = N' (N a whole number at least 0 "
        "and at most 720); it will not be applied if the matter is Enacted",
        "Set tea = 2: refused: there is no parameter 'tea' (known: max_pending_proposals, max_daily_proposals, "
        "enact_hours, fail_hours, stale_days); expected 'Set NAME = VALUE'; it will not be applied if the matter "
        "is Enacted"]


def test_a_malformed_change_line_is_refused_with_the_forms_not_read_as_prose() -> None:
    game = new_game(FIVE)
    arrival = answers(game.mail(ALICE, "Proposal: Bananas", "More fruit.\nAmend rule banana", hours=1))
    assert arrival == [
        'Proposal: Bananas: Proposal 1 "Bananas" is open for voting; Quorum is 3',
        f"Amend rule banana: refused: not a change line; expected {FORMS} (rule Resolution of Proposals); nothing of it will be applied"]
    assert game.state.matters[0].by_hand is True  # "More fruit." is prose an Admin applies


def test_the_result_mail_names_a_set_line_as_such() -> None:
    game = new_game(FIVE)
    enacted_cfj(game, "[Core] Three at once", "Set max_pending_proposals = 3", hours=2)
    m = game.state.matters[-1]
    mail = Renderer("blognomic").render(
        "mail/resolved.txt", m=m, what="Call for Judgement", author="Alice", event={"tally": m.tally_line},
        by_admin=False, amended=of(game.events, "amended")[-1], ls=SimpleNamespace(name="Blog", site_url=""))
    assert mail.split("\n\n")[1] == "What it changed:\n  Set max_pending_proposals: set: 2 -> 3"
