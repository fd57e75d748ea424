"""Player text never runs as script: XSS vectors as names, titles, texts and list posts.

Each payload, if it ran, would set the page title to PWNED or mark the root
element. The site is built WITHOUT its Content-Security-Policy here, so the
sanitiser alone must hold; a control page with the raw payload proves that the
browser would show a payload that ran.
"""
from __future__ import annotations

import re
from pathlib import Path

import html5lib
import pytest

from nomic.game import Game
from nomic.site import build
from tests.site import browser
from tests.site.checks import pages, parse, site_own
from tests.support import LIST_ADDRESS, at

RUN = "document.title='PWNED';document.documentElement.setAttribute('data-pwned','1')"
PAYLOADS = [
    f"<script>{RUN}</script>",
    f"<img src=x onerror=\"{RUN}\">",
    f"<svg onload=\"{RUN}\"></svg>",
    f"<svg><script>{RUN}</script></svg>",
    f"<details open ontoggle=\"{RUN}\">x</details>",
    f"<iframe src=\"javascript:{RUN}\"></iframe>",
    f"<input autofocus onfocus=\"{RUN}\">",
    f"<math><mtext><table><mglyph><style><img src=x onerror=\"{RUN}\">",
    f"</title><script>{RUN}</script>",
    f"\"><script>{RUN}</script>",
    f"[click me](javascript:{RUN})",
    "[click me](<javascript:alert(1)>)",
    "[click me](jav&#x09;ascript:alert(1))",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    f"![x](x\" onerror=\"{RUN})",
    f"[x](https://example.org \"a\\\" onmouseover=\\\"{RUN}\")",
    f"<a href=\"javascript:{RUN}\">link</a>",
    f"<object data=\"javascript:{RUN}\"></object>",
    f"<style>@import 'javascript:{RUN}';</style>",
    f"<body onload=\"{RUN}\">",
]
EVIL = "mallory@evil.test"
FORBIDDEN_TAGS = {"script", "iframe", "object", "embed", "style", "img", "input", "math", "form",
                  "base", "meta"}


@pytest.fixture(scope="module")
def xss_site(tmp_path_factory, session_db) -> Path:
    from tests.support import Play
    play = Play(tmp_path_factory.mktemp("xss") / "game", day_mode="fixed", database_url=session_db())
    name = "\"<img src=x onerror=document.title='PWNED'>\""  # a quoted display name: one From address
    for i, payload in enumerate(PAYLOADS):
        play.send(EVIL, f"Proposal: {payload}", "\n\n".join(PAYLOADS), at=at(1, 1), name=name,
                  message_id=f"xss{i}@test")
    play.send(EVIL, PAYLOADS[0], "\n\n".join(PAYLOADS), to=LIST_ADDRESS, at=at(1, 2), name=name)
    play.judge("Accept 1\nReject 2", at=at(1, 3))
    play.tick(at(2, 0))
    out = tmp_path_factory.mktemp("xss-built") / "public"
    build(Game(play.dir), out, csp=False)
    return out


def _tag(el) -> str:
    return str(el.tag).rsplit("}", 1)[-1]


def _site_subscribe_form(doc) -> set:
    """The list page's own subscribe form (rendering/templates/site/archive.html): exactly one, and its input."""
    forms = [f for f in doc.iter() if _tag(f) == "form" and f.get("class") != "search"]
    assert [(f.get("class"), f.get("action")) for f in forms] == [("subscribe", "../subscribe")]
    inputs = [i for i in forms[0].iter() if _tag(i) == "input"]
    assert [(i.get("type"), i.get("name")) for i in inputs] == [("email", "address")]
    return {forms[0], *forms[0].iter()}


def test_no_page_holds_a_script_a_handler_or_a_script_url(xss_site):
    assert len(list((xss_site / "submissions").glob("[0-9]*.html"))) == len(PAYLOADS)
    assert "<img src=x" in (xss_site / "players" / "index.html").read_text().replace("&lt;", "<")
    for page in pages(xss_site):
        doc = parse(page)
        ours = _site_subscribe_form(doc) if page == xss_site / "list" / "index.html" else set()
        ours |= site_own(doc, page, xss_site)
        for el in doc.find("body").iter():
            tag = _tag(el)
            assert el in ours or tag not in FORBIDDEN_TAGS, f"{page}: <{tag}>"
        for el in doc.iter():
            for attr, value in el.attrib.items():
                assert not attr.lower().startswith("on"), f"{page}: {attr}={value!r}"
                if attr in ("href", "src", "action", "data"):
                    assert scheme(value) in ("", "http", "https", "mailto"), f"{page}: {attr}={value!r}"


def scheme(url: str) -> str:
    """The URL's scheme as a browser reads it (WHATWG: tabs and newlines removed), "" if relative."""
    cleaned = re.sub(r"[\t\n\r]", "", re.sub(r"^[\x00-\x20]+|[\x00-\x20]+$", "", url)).lower()
    m = re.match(r"([a-z][a-z0-9+.-]*):", cleaned)
    return m[1] if m else ""


def _pwned(dom: str) -> bool:
    doc = html5lib.parse(dom, namespaceHTMLElements=False)
    return doc.find("head/title").text == "PWNED" or doc.get("data-pwned") == "1"


@pytest.mark.sqlite_only
@pytest.mark.skipif(browser.binary() is None,
                    reason="chromium is not installed (Debian package 'chromium', in deploy/apt-packages.txt)")
@pytest.mark.slow  # a headless browser
def test_no_payload_runs_in_chromium(xss_site):
    control = xss_site / "control.html"
    control.write_text("<!DOCTYPE html><html><head><title>control</title></head><body>"
                       + "".join(PAYLOADS[:2]) + "</body></html>")
    targets = ["control.html", "index.html", "submissions/index.html", "submissions/1.html",
               "submissions/2.html", "scores.html", "players/index.html", "game-profile.html",
               "list/index.html"]
    targets += [f"players/{p.name}" for p in (xss_site / "players").glob("*.html") if p.name != "index.html"]
    targets += [f"list/{p.name}" for p in (xss_site / "list").glob("thread-*.html")]
    try:
        with browser.serve(xss_site) as base:
            ran = {t: _pwned(browser.dump_dom(base + t)) for t in targets}
    finally:
        control.unlink()
    assert ran.pop("control.html") is True  # the harness sees a payload that runs
    assert ran == {t: False for t in targets[1:]}
