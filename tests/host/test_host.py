"""``nomic host serve``: one daemon, several games, each with its own journal, status, site and list (issue 19)."""
from __future__ import annotations

import json
import re
import signal
import smtplib
import sqlite3
import time
import tomllib
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mailer.tokens import stamped_token
from tests.host.conftest import IMPERIAL, nomic
from tests.mailer.test_daemon import lmtp_session, make_mail

pytestmark = pytest.mark.slow  # a host daemon serving several games: about 90 s a test on a loaded machine

ALICE = "alice@wonder.land"
LEAGUE, BLOG = "ths@league.test", "ths@blog.test"


def deliver(port: int, rcpts: list[str], raw: bytes) -> list[str]:
    """One LMTP transaction; the replies to each RCPT, then those after DATA (one per accepted recipient),
    journal entry numbers as N (a game's clock may have journaled a step first)."""
    replies = lmtp_session(port, ["LHLO wonder.land", f"MAIL FROM:<{ALICE}>", *[f"RCPT TO:<{r}>" for r in rcpts]], raw)
    after_data = replies.index("354 End data with <CR><LF>.<CR><LF>")
    return [re.sub(r"entry \d+", "entry N", r)
            for r in replies[after_data - len(rcpts):after_data] + replies[after_data + 1:-1]]


def state(game: Path) -> dict:
    return json.loads(nomic("state", "--json", "--game", str(game)).stdout)


def titles(game: Path) -> list[str]:
    st = state(game)
    return [m["title"] for m in st.get("submissions", st.get("matters", []))]


def answers(game: Path) -> list[str]:
    """The subjects of the answers to Alice, oldest first."""
    mail = json.loads(nomic("outbox", "--json", "--game", str(game)).stdout)
    return [m["subject"] for m in mail if m["kind"] == "answer" and m["to"] == [ALICE]]


def fetch(url: str, data: bytes | None = None) -> str:
    with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=30) as page:
        return page.read().decode()


def eventually(check, what: str, limit: float = 60):
    deadline = time.monotonic() + limit
    while not (found := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.2)
    return found


def test_one_transaction_to_two_games_is_journaled_and_played_once_in_each(host, serve_host, tmp_path):
    daemon = serve_host(host)
    raw = make_mail(ALICE, "Proposal: Free cake", "Cake for all.", to=f"{LEAGUE}, {BLOG}", message_id="cake@wonder.land")
    assert deliver(daemon.ports["lmtp"], [LEAGUE, BLOG, "ths@elsewhere.test"], raw) == [
        "250 2.1.5 OK", "250 2.1.5 OK", "550 5.1.1 <ths@elsewhere.test>: no such mailbox here",
        "250 2.0.0 Journaled as entry N", "250 2.0.0 Journaled as entry N"]  # each game's own journal
    assert deliver(daemon.ports["lmtp"], [BLOG, LEAGUE], raw)[2:] == [  # the MTA delivers it again
        "250 2.0.0 Already received (journal entry N)", "250 2.0.0 Already received (journal entry N)"]

    base = f"http://127.0.0.1:{daemon.ports['http']}"
    for slug, name in (("league", "League Nomic"), ("blog", "Blog Nomic")):
        eventually((tmp_path / slug / "site" / "index.html").exists, f"no site was built for {slug}")
        assert name in fetch(f"{base}/{slug}/")
    index = fetch(f"{base}/")
    assert '<a href="league/">League Nomic</a></td><td>imperial</td><td>1</td><td>3</td>' in index  # TIE, THS, Alice
    assert '<a href="blog/">Blog Nomic</a></td><td>blognomic</td>' in index
    with pytest.raises(urllib.error.HTTPError) as missing:
        fetch(f"{base}/cup/")
    assert missing.value.code == 404

    # each game's list under its slug: Alice subscribes to the league by mail, leaves by its one-click link
    deliver(daemon.ports["lmtp"], [LEAGUE], make_mail(ALICE, "Subscribe", to=LEAGUE, message_id="sub@wonder.land"))
    eventually(lambda: state(tmp_path / "league")["subscribers"], "the Subscribe was not played")
    key = tomllib.loads((tmp_path / "league" / "game.toml").read_text())["list"]["token_secret"]
    token = stamped_token(key, "unsubscribe", ALICE, datetime.now(timezone.utc))
    assert fetch(f"{base}/league/unsubscribe/{token}", b"List-Unsubscribe=One-Click") == \
        f"{ALICE} is unsubscribed from players@league.test."
    # the list page's subscribe form posts beside the game's own index, under its slug
    page_url = f"{base}/league/list/index.html"
    action = re.search(r'<form class="subscribe" method="post" action="([^"]+)"', fetch(page_url))
    assert action is not None and urllib.parse.urljoin(page_url, action[1]) == f"{base}/league/subscribe"
    assert fetch(f"{base}/league/subscribe", b"address=carol%40c.test") == \
        "A confirmation mail is on its way to carol@c.test. Nothing happens until you confirm."
    assert daemon.stop() == 0

    assert titles(tmp_path / "league") == ["Free cake"]
    assert titles(tmp_path / "blog") == ["Free cake"]
    assert state(tmp_path / "league")["subscribers"] == []
    assert answers(tmp_path / "league") == ["Re: Proposal: Free cake", "Re: Subscribe", "Re: Unsubscribe"]
    assert answers(tmp_path / "blog") == ["Re: Proposal: Free cake"]  # each game answers its own copy, once
    for game in ("league", "blog"):
        assert "replayed state matches" in nomic("replay", "--verify", "--game", str(tmp_path / game)).stdout


@pytest.mark.sqlite_only
def test_a_broken_database_refuses_only_its_own_game(host, serve_host, tmp_path):
    daemon = serve_host(host)
    db = sqlite3.connect(tmp_path / "league" / "game.db")
    db.execute("ALTER TABLE journal RENAME TO journal_away")  # the league's journal cannot be written
    db.commit()
    raw = make_mail(ALICE, "Proposal: Free cake", to=f"{LEAGUE}, {BLOG}", message_id="cake@wonder.land")
    assert deliver(daemon.ports["lmtp"], [LEAGUE, BLOG], raw)[2:] == [
        "451 4.3.0 The message could not be stored; please try again later", "250 2.0.0 Journaled as entry N"]
    db.execute("ALTER TABLE journal_away RENAME TO journal")
    db.commit()
    db.close()
    assert deliver(daemon.ports["lmtp"], [LEAGUE, BLOG], raw)[2:] == [  # the MTA's retry
        "250 2.0.0 Journaled as entry N", "250 2.0.0 Already received (journal entry N)"]
    assert daemon.stop() == 0
    assert titles(tmp_path / "league") == ["Free cake"]
    assert titles(tmp_path / "blog") == ["Free cake"]


def test_a_game_added_to_a_running_host_is_served_after_sighup(host, serve_host, make_game, tmp_path):
    daemon = serve_host(host)
    cup = make_game("cup", IMPERIAL.replace("league", "cup").replace("League", "Cup"))
    raw = make_mail(ALICE, "Proposal: Tea", to="ths@cup.test", message_id="tea@wonder.land")
    with smtplib.LMTP("127.0.0.1", daemon.ports["lmtp"], timeout=30) as client:
        with pytest.raises(smtplib.SMTPRecipientsRefused):  # not served yet
            client.sendmail(ALICE, ["ths@cup.test"], raw)
    nomic("host", "add", str(host), str(cup), "--slug", "cup")
    daemon.signal(signal.SIGHUP)
    eventually(lambda: any("serving league, blog, cup" in line for line in daemon.log), "host.toml not applied")
    assert deliver(daemon.ports["lmtp"], ["ths@cup.test", LEAGUE], raw)[2:] == [
        "250 2.0.0 Journaled as entry N", "250 2.0.0 Journaled as entry N"]
    assert daemon.stop() == 0
    assert titles(cup) == ["Tea"]
    assert titles(tmp_path / "league") == ["Tea"]


def test_host_add_refuses_a_slug_taken_or_an_address_another_game_owns(host, make_game):
    twin = make_game("twin", IMPERIAL)  # the league's addresses
    refused = nomic("host", "add", str(host), str(twin), "--slug", "twin", ok=False)
    assert refused.stderr == "nomic: games league and twin both own ths@league.test; an address must belong to one game\n"
    bounces = make_game("bounces", IMPERIAL.replace('address = "ths@league.test"', 'address = "game-bounces@league.test"')
                        .replace("players@league.test", "list@other.test"))
    refused = nomic("host", "add", str(host), str(bounces), "--slug", "bounces", ok=False)
    assert "own game-bounces@league.test" in refused.stderr  # inside the league's VERP bounce addresses
    other = make_game("other", IMPERIAL.replace("league", "other"))
    refused = nomic("host", "add", str(host), str(other), "--slug", "blog", ok=False)
    assert refused.stderr.startswith("nomic: the slug blog is taken")
    assert "[games.twin]" not in (host / "host.toml").read_text()
