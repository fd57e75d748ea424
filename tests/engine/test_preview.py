"""Issue 28: the answer to an Imperial Proposal with change lines, its announcement and its page
preview what accepting it would do: each changed rule's diff, the mechanics switched, the
variables changed from -> to; a preview changes nothing."""
from __future__ import annotations

from tests.site.checks import parse
from tests.support import Play

ALICE = "alice@wonder.land"
BODY = "No more bells.\n\nRepeal rule 19\nSet accept_points = 4\nAmend rule 8 (Winning the Game)\nThe first to 60 wins."
PREVIEW = [
    "    --- rule 8 (Winning the Game)",
    "    +++ rule 8 (Winning the Game)",
    "    @@ -1 +1 @@",
    "    -The game ends when one player achieves the title of The Exalted Winner (TEW).",
    "    +The first to 60 wins.",
    "    --- rule 19 (For Whom The Bell Tolls)",
    "    +++ rule 19 (For Whom The Bell Tolls) (repealed)",
    "    @@ -1,5 +0,0 @@",
    "    -There exists a Bell Tower with a beautiful set of chimes. At end end",
    "    -of every game day, the chimes ring out to inform the world (and the",
    "    -players) of the end of one day and the beginning of a new day. Players",
    "    -subscribing to the public mailing list hear the chimes via a brief text",
    "    -message sent by THS.",
    "    Mechanics: switches off the chime of the Bell Tower (rule 19 (For Whom The Bell Tolls))",
    "    Parameters: accept_points: 3 -> 4",
    "    To apply by hand: nothing"]


def test_a_proposals_answer_announcement_and_page_preview_what_acceptance_would_do(tmp_path, new_database_url):
    play = Play(tmp_path / "game", database_url=new_database_url())
    out = play.propose(ALICE, "Quiet", BODY)
    assert out.split(": journal entry 1: ", 1)[1] == "\n".join([
        "recorded as Proposal 1, pending before the Emperor; if accepted it will repeal rule 19 (For Whom The "
        "Bell Tolls); set accept_points = 4 (now 3); amend rule 8 (Winning the Game): 1 line of text (rule 7: "
        "from this Proposal on)", "    If accepted:", *PREVIEW]) + "\n"
    announced = next(m["text"] for m in play.outbox() if m["subject"] == "[Test Nomic] Proposal 1: Quiet")
    assert announced.split("Rule changes, if accepted", 1)[1].split("\n\nThe Emperor judges")[0] == "\n".join([
        " (rule 7: from submission 1 on):", "  repeal rule 19 (For Whom The Bell Tolls)",
        "  set accept_points = 4 (now 3)", "  amend rule 8 (Winning the Game): 1 line of text", "",
        "If accepted:", *PREVIEW])
    state = play.state()
    assert state["variables"]["accept_points"] == 3  # a preview changes nothing
    assert [r["repealed"] for r in state["rules"] if r["number"] == 19] == [False]
    site = tmp_path / "public"
    play.cli("build", "--out", str(site))
    shown = [p.text for p in parse(site / "submissions" / "1.html").iter("pre") if p.get("class") == "preview"]
    assert shown == ["\n".join(PREVIEW)]
    play.judge("Accept 1")
    assert play.state()["variables"]["accept_points"] == 4
    play.verify()  # the preview on a copy leaves replay exact


def test_a_rule_page_lists_what_the_rule_runs_and_its_variables(tmp_path, new_database_url):
    play = Play(tmp_path / "game", database_url=new_database_url())
    site = tmp_path / "public"
    play.cli("build", "--out", str(site))
    page = parse(site / "rules" / "12.html")
    runs = [" ".join("".join(p.itertext()).split()) for p in page.iter("p") if p.get("class") == "mechanics"]
    assert runs == ["The game runs: the temperature's effects."]
    shown = [" ".join("".join(li.itertext()).split()) for ul in page.iter("ul") if ul.get("class") == "parameters"
             for li in ul.iter("li")]
    assert shown[:2] == ['start_temperature = 303 ("the temperature a game starts at")',
                         'accept_heat_cap = 10 ("heating per accepted Proposal is min(streak, this)")']
    assert len(shown) == 11
