"""Issue 15: the site as a newcomer reads it."""
from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from nomic.cli import app
from tests.site.checks import pages, parse


def cells(page, table_class: str) -> list[list[str]]:
    return [[" ".join("".join(td.itertext()).split()) for td in tr.iter("td")]
            for table in parse(page).iter("table") if table.get("class") == table_class
            for tr in table.find("tbody").iter("tr")]


def test_the_ledger_names_each_rule_once(site):
    causes = [row[-1] for row in cells(site / "scores.html", "ledger")]
    player_of_the_day = [c for c in causes if c.startswith("Player of the Day")]
    assert player_of_the_day and all(re.fullmatch(r"Player of the Day \d+ \(rule 18\)", c) for c in player_of_the_day)
    accepted = [c for c in causes if re.match(r"Proposal \d+ accepted", c)]
    assert accepted and all(re.fullmatch(r"Proposal \d+ accepted \(rule 11\)(; one point less for the retool "
                                         r"request \(rule 14\))? · submission \d+", c) for c in accepted)
    for page in pages(site):
        assert not re.search(r"(\(rule \d+\)) \1", " ".join(parse(page).find("body").itertext())), page


def build(played, out) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["build", "--game", str(played.dir), "--out", str(out)])
    return result.exit_code, result.stdout, result.stderr


def test_build_into_a_folder_that_does_not_exist_creates_it(played, tmp_path):
    out = tmp_path / "not" / "yet" / "site"
    code, stdout, stderr = build(played, out)
    assert (code, stderr) == (0, "")
    assert re.fullmatch(rf"{out}: (\d+) pages and files; \1 written, 0 removed, 0 unchanged\n"
                        rf"{out}/pagefind: search index of \d+ files, [\d,]+ bytes \(\d+ shards indexed again, \d+ pages\)\n",
                        stdout)
    assert (out / "index.html").is_file() and (out / "how-to-play.html").is_file()


def test_build_where_a_file_blocks_the_way_is_one_clear_line(played, tmp_path):
    (tmp_path / "a-file").write_text("")
    out = tmp_path / "a-file" / "site"
    assert build(played, out) == (1, "", f"nomic: cannot write the site to {out}: Not a directory ({out})\n")


def requests_on(site, number: int) -> list[str]:
    doc = parse(site / "submissions" / f"{number}.html")
    heading = next(h for h in doc.iter("h3") if h.text == "Requests")
    section = next(s for s in doc.iter("section") if heading in list(s))
    return [" ".join("".join(li.itertext()).split()) for li in section.find("ul").iter("li")]


def test_a_submission_page_says_whether_each_request_was_granted_and_why_not(make_play, tmp_path):
    play = make_play()
    alice, bob = "alice@wonder.land", "bob@builder.example"
    play.propose(alice, "Glue", "Raise section 2")      # 1: Alice's section 2 is raised already
    play.propose(alice, "Plane", "Shave section 2")     # 2
    play.propose(bob, "Turn", "Rotate left")            # 3: rejected
    play.propose(bob, "Smash", "Vandalize alice@wonder.land section 3")  # 4: Alice's section 3 is depressed
    play.judge("Accept 1\nAccept 2\nReject 3\nAccept 4")
    play.propose(bob, "Wait", "Sealant")                # 5: pending
    out = tmp_path / "public"
    play.cli("build", "--out", str(out))
    assert requests_on(out, 1) == ["raise section 2: not granted: section 2 is already raised"]
    assert requests_on(out, 2) == ["shave section 2: granted"]
    assert requests_on(out, 3) == ["rotate left: not granted: the Proposal was rejected"]
    assert requests_on(out, 4) == [
        "vandalize section 3 of alice: not granted: the section is depressed"]
    assert requests_on(out, 5) == ["sealant: awaits the Emperor's judgment"]


def test_the_readme_shows_every_screenshot_the_browser_tests_take():
    from tests.site.browser import README_SCREENSHOTS
    root = Path(__file__).parents[2]
    shown = re.findall(r"!\[[^\]]+\]\(docs/([\w-]+\.png)\)", (root / "README.md").read_text())
    assert shown == list(README_SCREENSHOTS)
    assert all((root / "docs" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for name in shown)


def test_the_rules_index_numbers_each_rule_once_by_its_own_number(site, played):
    toc = parse(site / "rules" / "index.html").find(".//nav[@class='toc']")
    assert toc.find("ol") is None  # a list that numbers itself would print "1. 1. ..." and "9. 8. ..."
    items = [" ".join("".join(li.itertext()).split()) for li in toc.iter("li")]
    rules = [r for r in played.state()["rules"] if not r.get("repealed")]
    assert items == [f"{r['number']}. {r['title']}" for r in rules]
    assert items.count("8. Winning the Game") == 1 and items[0].startswith("1. ")
