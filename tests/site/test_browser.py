"""The built site in headless Chromium: screenshots at phone and desk widths; the subscribe form against nomic serve."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.cli.ruleset_play import RulesetPlay
from tests.mailer.conftest import Daemon
from tests.site import browser

pytestmark = [
    pytest.mark.slow,  # a headless browser
    pytest.mark.skipif(browser.binary() is None,
                       reason="chromium is not installed (Debian package 'chromium', in deploy/apt-packages.txt)"),
    pytest.mark.sqlite_only,  # the browser sees the same files whatever the database
]

PAGES = {"home": "index.html", "scores": "scores.html", "player": "players/alice.html",
         "game-profile": "game-profile.html"}
WIDTHS = {"phone": (390, 844), "desk": (1280, 900)}


def shots_dir(tmp_path: Path) -> Path:
    """NOMIC_SCREENSHOTS=DIR keeps the screenshots for a person to look at."""
    keep = os.environ.get("NOMIC_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        return Path(keep)
    return tmp_path


@pytest.mark.parametrize("device", WIDTHS)
def test_screenshots_of_home_scores_a_player_and_the_game_profile(site, tmp_path, device):
    width, height = WIDTHS[device]
    out = shots_dir(tmp_path)
    with browser.serve(site) as base:
        for name, path in PAGES.items():
            png = out / f"{name}-{device}.png"
            assert browser.screenshot(base + path, png, width, height) == (width, height)
            assert png.stat().st_size > 10_000, f"{png} looks blank"


def test_the_readme_screenshots(site, tmp_path):
    """NOMIC_README_SCREENSHOTS=1 writes them into docs/ (commit them with the change they show)."""
    docs = Path(__file__).parents[2] / "docs"
    out = docs if os.environ.get("NOMIC_README_SCREENSHOTS") else tmp_path
    with browser.serve(site) as base:
        for name, path in browser.README_SCREENSHOTS.items():
            assert browser.screenshot(base + path, out / name, *browser.README_SIZE) == browser.README_SIZE
            assert (out / name).stat().st_size > 10_000, f"{out / name} looks blank"


def test_pages_render_from_file_urls_with_their_stylesheet(site):
    dom = browser.dump_dom((site / "players" / "alice.html").as_uri())
    assert 'href="../static/style.css"' in dom and "<h1>Alice</h1>" in dom


def test_the_subscribe_form_reaches_nomic_serve_and_shows_its_answer(make_play):
    """The page's Content-Security-Policy must let its own form post (form-action)."""
    play = make_play()
    play.cli("build")  # GAME/site, which nomic serve --http serves
    daemon = Daemon(play.dir)
    try:
        with browser.tab() as page:
            page.goto(f"http://127.0.0.1:{daemon.ports['http']}/list/index.html")
            page.type_into("#address", "carol@c.test")
            page.press_enter()
            assert page.wait_for("Page.loadEventFired", 10), f"the form was not sent: {page.console()}"
            assert page.text().strip() == (
                "A confirmation mail is on its way to carol@c.test. Nothing happens until you confirm.")
    finally:
        assert daemon.stop() == 0
    assert [(m["kind"], m["to"]) for m in play.outbox()] == [("confirm", ["carol@c.test"])]


# where the word "Metadynasty" lies on the page: [lines it spans, its card's content width, the page's overflow]
_WORD_LINES = """(() => { const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); const out = [];
  while (w.nextNode()) { const n = w.currentNode, i = n.data.indexOf("Metadynasty"); if (i < 0) continue;
    const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 11);
    out.push([r.getClientRects().length, document.documentElement.scrollWidth > innerWidth]); }
  return out; })()"""


def test_a_facts_card_never_breaks_a_word(tmp_path):
    """Issue 31: "none (a Metadynasty)" broke mid-word in the BlogNomic queue's facts at a desk's width."""
    play = RulesetPlay(tmp_path / "blog", "blognomic", "", {"offices": {"seraphims": "[]"},
                                                            "blognomic": {"daily_mail": "false"}})
    play.cli("build", "--out", str(tmp_path / "public"))
    seen = {}
    with browser.serve(tmp_path / "public") as base, browser.tab() as page:
        for width in (320, 390, 800, 1280):
            page.call("Emulation.setDeviceMetricsOverride", width=width, height=800, deviceScaleFactor=1,
                      mobile=width < 600)
            page.goto(base + "index.html")
            seen[width] = page.call("Runtime.evaluate", expression=_WORD_LINES, returnByValue=True)["result"]["value"]
    assert seen == {width: [[1, False]] for width in (320, 390, 800, 1280)}
