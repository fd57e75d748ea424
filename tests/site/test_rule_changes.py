"""The rule pages say who changed what (rules 3 and 7: accepted Proposals change the rules), with the diff."""
from __future__ import annotations

from tests.site.checks import broken_links, parse
from tests.site.test_pages import text
from tests.support import EMPEROR, Play, at

ALICE = "alice@wonder.land"
NEW_4 = "A player may have at most 3 undecided proposals on the queue at any given time."


def test_a_rule_amended_by_a_proposal_names_the_proposal_and_its_author_with_the_diff(tmp_path, new_database_url):
    play = Play(tmp_path / "game", day_mode="fixed", database_url=new_database_url())
    play.send(ALICE, "Proposal: Longer queue", f"Three is better.\nAmend rule 4\n{NEW_4}", at=at(1, 1),
              name="Alice")
    play.judge("Accept 1", at=at(1, 2))
    play.send(EMPEROR, "Proclamation: Tidy", "Amend rule 4\nA player may have at most 3 undecided proposals.",
              at=at(1, 3))
    out = tmp_path / "public"
    play.cli("build", "--out", str(out))
    page = parse(out / "rules" / "4.html")
    metas = [" ".join("".join(p.itertext()).split()) for p in page.iter("p") if p.get("class") == "meta"]
    assert metas == ["By Proclamation 1, made by TIE, 2026-01-05 03:00 UTC.",
                     "By P1, made by Alice, 2026-01-05 02:00 UTC.", "As the game began."]
    links = {a.text: a.get("href") for a in page.iter("a")}
    assert (links["P1"], links["Alice"]) == ("../submissions/1.html", "../players/alice.html")
    diffs = list(page.iter("div"))
    first = next(d for d in diffs if d.get("class") == "diff" and "undecided" in "".join(d.itertext())
                 and any(i.text == "3" for i in d.iter("ins")))
    assert [d.text for d in first.iter("del")] == [
        "2", "\n", " Additional proposals submitted by that player while they\nalready have two on the queue "
        "will be ignored with any attendant\npenalties."]
    assert [i.text for i in first.iter("ins")] == ["3", " "]
    index = text(out / "rules" / "index.html")
    assert "4. Automatic Queue System Amended by P1 ( Alice ), Proclamation 1 (TIE)" in index
    assert broken_links(out) == []
