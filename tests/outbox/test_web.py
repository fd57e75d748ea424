"""The site's subscribe form (confirmation by mail) and the RFC 8058 one-click unsubscribe."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from mailer.web import handle_get, handle_post
from nomic.game import Game
from tests.outbox.conftest import SITE

ALICE = "alice@wonder.land"
NOW = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


def post(game, path: str, body: str, now: datetime = NOW) -> tuple[int, str]:
    g = Game(game.dir)
    result = handle_post(g, path, body, now=now)
    g.process()  # what nomic serve's processing loop does after every journal write
    return result


def confirmation_link(game, relay) -> str:
    game.cli("send")
    [mail] = [a.mail for a in relay.to(ALICE) if a.mail["Subject"].startswith("Confirm")]
    assert mail["Auto-Submitted"] == "auto-generated"
    return re.search(rf"{re.escape(SITE)}(\S+)", mail.get_content())[1]


def test_a_subscription_from_the_form_waits_for_its_confirmation(game, relay):
    status, text = post(game, "/subscribe", "address=Alice%40Wonder.land")
    assert (status, text) == (200, f"A confirmation mail is on its way to {ALICE}. Nothing happens until you confirm.")
    assert game.state()["subscribers"] == []
    link = confirmation_link(game, relay)
    assert link.startswith("subscribe/confirm/20260105T090000Z/")
    status, page = handle_get(Game(game.dir), "/" + link, now=NOW)
    assert status == 200 and f'<form method="post" action="/{link}">' in page
    assert game.state()["subscribers"] == []  # following the link (a mail scanner would) does nothing
    assert post(game, "/" + link, "", now=NOW + timedelta(minutes=5)) == (
        200, f"{ALICE} is subscribed to players@imperial.test.")
    assert game.state()["subscribers"] == [{"email": ALICE, "digest": False, "plain": False}]
    game.cli("replay")  # the journal alone reproduces it
    assert game.state()["subscribers"] == [{"email": ALICE, "digest": False, "plain": False}]
    game.verify()


def test_a_forged_or_stale_confirmation_changes_nothing(game, relay):
    post(game, "/subscribe", f"address={ALICE}")
    link = confirmation_link(game, relay)
    forged = link[:-3] + ("000" if not link.endswith("000") else "111")
    assert post(game, "/" + forged, "")[0] == 400
    assert post(game, "/" + link, "", now=NOW + timedelta(days=8))[0] == 400
    assert post(game, "/subscribe", "address=not an address")[0] == 400
    assert game.state()["subscribers"] == []


def test_the_form_sends_at_most_one_confirmation_an_hour(game, relay):
    post(game, "/subscribe", f"address={ALICE}")
    post(game, "/subscribe", f"address={ALICE}", now=NOW + timedelta(minutes=30))
    post(game, "/subscribe", f"address={ALICE}", now=NOW + timedelta(minutes=61))
    assert [r["kind"] for r in game.outbox()] == ["confirm", "confirm"]


def test_one_click_unsubscribe_from_the_list_unsubscribe_header(game, relay):
    game.send(ALICE, "Subscribe")
    game.send(ALICE, "Hello", "hi", to="players@imperial.test")
    game.cli("send")
    [copy] = [a.mail for a in relay.to(ALICE) if a.mail["List-Unsubscribe-Post"]]
    url = copy["List-Unsubscribe"].split(">")[0].lstrip("<")
    path = "/" + url.removeprefix(SITE)
    assert post(game, path, "List-Unsubscribe=One-Click") == (200, f"{ALICE} is unsubscribed from players@imperial.test.")
    assert game.state()["subscribers"] == []
    assert post(game, path[:-1] + "x", "List-Unsubscribe=One-Click")[0] == 400
    game.verify()
