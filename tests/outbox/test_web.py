"""The site's subscribe form (confirmation by mail) and the RFC 8058 one-click unsubscribe."""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
from urllib.parse import urlencode

from sqlmodel import Session, select

from engine.imperial.state import ImperialState
from mailer.tokens import address_token
from mailer.web import handle_get, handle_post
from nomic.wiring import forms
from nomic.game import Game
from storage.tables import Snapshot
from tests.mailer.support import configure
from tests.outbox.conftest import SITE

ALICE = "alice@wonder.land"
BOB = "bob@builder.test"
LIST = "players@imperial.test"
NOW = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
ONE_CLICK = "List-Unsubscribe=One-Click"
ELSEWISE = "use the link in a recent mail from the list, or mail Unsubscribe to ths@imperial.test."


def post(game, path: str, body: str, now: datetime = NOW) -> tuple[int, str]:
    g = Game(game.dir)
    result = handle_post(forms(g), path, body, now=now)
    g.process()  # what nomic serve's processing loop does after every journal write
    return result


def form(address: str) -> str:
    return urlencode({"address": address})


def subscribers(game) -> list[str]:
    return [s["email"] for s in game.state()["subscribers"]]


def confirmations(game) -> list[str]:
    return [r["to"][0] for r in game.outbox() if r["kind"] == "confirm"]


def confirmation_link(game, relay) -> str:
    game.cli("send")
    [mail] = [a.mail for a in relay.to(ALICE) if a.mail["Subject"].startswith("Confirm")]
    assert mail["Auto-Submitted"] == "auto-generated"
    return re.search(rf"{re.escape(SITE)}(\S+)", mail.get_content())[1]


def alice_joins(game, at: str = "2026-01-05T01:00:00Z") -> None:
    """Alice subscribes by mail; Bob becomes a player, who may post to the list, and leaves the list
    (a player is on it from his first move)."""
    game.propose(BOB, "Free cake", at=at)
    game.send(BOB, "Unsubscribe", at=at)
    game.send(ALICE, "Subscribe", at=at)


def unsubscribe_path(game, relay, at: str) -> str:
    """Post to the list at ``at``, send, and return the path of Alice's one-click link in her copy."""
    message_id = "post" + re.sub(r"\W", "", at) + "@builder.test"
    game.send(BOB, "Hello", "hi", to=LIST, at=at, message_id=message_id)
    game.cli("send")
    [copy] = [a.mail for a in relay.to(ALICE) if a.mail["Message-ID"] == f"<{message_id}>"]
    assert copy["List-Unsubscribe-Post"] == ONE_CLICK
    return "/" + copy["List-Unsubscribe"].split(">")[0].lstrip("<").removeprefix(SITE)


def test_a_subscription_from_the_form_waits_for_its_confirmation(game, relay):
    status, text = post(game, "/subscribe", "address=Alice%40Wonder.land")
    assert (status, text) == (200, f"A confirmation mail is on its way to {ALICE}. Nothing happens until you confirm.")
    assert game.state()["subscribers"] == []
    link = confirmation_link(game, relay)
    assert link.startswith("subscribe/confirm/20260105T090000Z/")
    status, page = handle_get(forms(Game(game.dir)), "/" + link, now=NOW)
    assert status == 200 and '<form method="post">' in page  # it posts back to the page's own address
    assert game.state()["subscribers"] == []  # following the link (a mail scanner would) does nothing
    assert post(game, "/" + link, "", now=NOW + timedelta(minutes=5)) == (
        200, f"{ALICE} is subscribed to players@imperial.test.")
    member = {"email": ALICE, "digest": False, "plain": False, "since": "2026-01-05T09:05:00Z"}
    assert game.state()["subscribers"] == [member]
    game.cli("replay")  # the journal alone reproduces it
    assert game.state()["subscribers"] == [member]
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


def test_variants_of_one_mailbox_get_one_confirmation_an_hour(game, relay):
    """35 spellings of one Gmail-style mailbox in a minute: one confirmation reaches it."""
    variants = ([f"alice+{n}@wonder.land" for n in range(20)] + ["a.lice@wonder.land", "A.L.I.C.E@Wonder.Land"]
                + [f"al.ice+x{n}@WONDER.land" for n in range(13)])
    answers = [handle_post(forms(Game(game.dir)), "/subscribe", form(v), now=NOW + timedelta(seconds=i))
               for i, v in enumerate(variants)]
    assert answers[0][0] == 200
    assert set(answers[1:]) == {(429, "A confirmation mail went to this address less than an hour ago; "
                                      "look for it (it works for 7 days), or try again in an hour.")}
    assert confirmations(game) == ["alice+0@wonder.land"]
    later = handle_post(forms(Game(game.dir)), "/subscribe", form("a.lice@wonder.land"), now=NOW + timedelta(minutes=61))
    assert later[0] == 200 and confirmations(game) == ["alice+0@wonder.land", "a.lice@wonder.land"]


def test_one_domain_and_the_whole_form_get_a_few_confirmations_an_hour(game, relay):
    """Defaults: 10 an hour to one domain, 60 an hour in all."""
    def ask(address: str, minutes: int = 0) -> int:
        return handle_post(forms(Game(game.dir)), "/subscribe", form(address),
                           now=NOW + timedelta(minutes=minutes))[0]
    assert [ask(f"user{n}@catch-all.test") for n in range(12)] == [200] * 10 + [429, 429]
    assert handle_post(forms(Game(game.dir)), "/subscribe", form("x@catch-all.test"), now=NOW)[1] == (
        "Too many confirmation mails went to catch-all.test in the last hour; try again later, "
        "or mail Subscribe to ths@imperial.test.")
    assert [ask(f"someone@site{n}.test") for n in range(51)] == [200] * 50 + [429]
    assert len(confirmations(game)) == 60
    assert ask("late@other.test", minutes=30) == 429
    assert ask("late@other.test", minutes=61) == 200


def test_the_form_limits_come_from_game_toml(game, relay):
    configure(game, "[http]\nconfirm_per_address = 2\nconfirm_per_domain = 3\nconfirm_per_hour = 4\n")
    asked = ["alice@wonder.land", "alice+1@wonder.land", "alice+2@wonder.land", "bob@wonder.land",
             "carol@wonder.land", "dave@builder.test", "erin@builder.test"]
    assert [handle_post(forms(Game(game.dir)), "/subscribe", form(a), now=NOW)[0] for a in asked] == [
        200, 200, 429, 200, 429, 200, 429]


def test_the_form_refuses_addresses_that_are_not_ascii(game, relay):
    for address in ("jos%C3%A9%40example.org", "alice%40ex%C3%A4mple.org"):
        assert post(game, "/subscribe", f"address={address}") == (
            400, "This list can mail only addresses written in plain ASCII (no letters like é or ü); "
                 "please give another address.")
    assert game.outbox() == []


def test_one_click_unsubscribe_from_the_list_unsubscribe_header(game, relay):
    alice_joins(game)
    path = unsubscribe_path(game, relay, "2026-01-05T02:00:00Z")
    assert path.startswith("/unsubscribe/20260105T020000Z/")  # stamped with the time of the mail
    assert post(game, path, "") == (  # no RFC 8058 body: a POST by something else than a mail client or the page
        400, "This request lacks the body List-Unsubscribe=One-Click (RFC 8058); "
             "open the link in a browser and press its button.")
    assert post(game, "/unsubscribe/" + address_token(Game(game.dir).list_settings.token_key, "unsubscribe", ALICE), ONE_CLICK) == (
        400, f"This unsubscribe link is not valid; {ELSEWISE}")  # the old links, without a time, work no more
    assert post(game, path[:-1] + "x", ONE_CLICK) == (400, f"This unsubscribe link is not valid; {ELSEWISE}")
    assert subscribers(game) == [ALICE]
    assert post(game, path, ONE_CLICK) == (200, f"{ALICE} is unsubscribed from players@imperial.test.")
    assert game.state()["subscribers"] == []
    assert post(game, path, ONE_CLICK) == (400, f"{ALICE} is not subscribed to {LIST}; nothing changed.")
    game.verify()


def test_an_unsubscribe_link_from_before_a_new_subscription_is_refused(game, relay):
    alice_joins(game)
    old = unsubscribe_path(game, relay, "2026-01-05T02:00:00Z")
    assert post(game, old, ONE_CLICK)[0] == 200
    game.send(ALICE, "Subscribe", at="2026-01-05T03:00:00Z", message_id="again@wonder.land")
    assert game.state()["subscribers"][0]["since"] == "2026-01-05T03:00:00Z"
    refusal = f"This unsubscribe link was made before {ALICE} last subscribed; {ELSEWISE}"
    assert post(game, old, ONE_CLICK) == (400, refusal)
    assert handle_get(forms(Game(game.dir)), old, now=NOW) == (400, refusal)  # the page says so before any button
    assert subscribers(game) == [ALICE]
    new = unsubscribe_path(game, relay, "2026-01-05T04:00:00Z")
    assert handle_get(forms(Game(game.dir)), new, now=NOW)[0] == 200
    assert post(game, new, ONE_CLICK) == (200, f"{ALICE} is unsubscribed from {LIST}.")
    game.verify()


def test_an_unsubscribe_link_lasts_sixty_days(game, relay):
    alice_joins(game)
    path = unsubscribe_path(game, relay, "2026-01-05T02:00:00Z")
    issued = datetime(2026, 1, 5, 2, 0, tzinfo=timezone.utc)
    assert post(game, path, ONE_CLICK, now=issued + timedelta(days=60, seconds=1)) == (
        400, f"This unsubscribe link is more than 60 days old; {ELSEWISE}")
    assert subscribers(game) == [ALICE]
    assert post(game, path, ONE_CLICK, now=issued + timedelta(days=59))[0] == 200


def test_a_state_stored_before_members_had_a_since_still_loads_and_unsubscribes(game, relay):
    alice_joins(game)
    path = unsubscribe_path(game, relay, "2026-01-05T02:00:00Z")
    with Session(Game(game.dir).db) as s:  # the stored snapshot as an older version wrote it
        snap = s.exec(select(Snapshot).order_by(Snapshot.seq.desc())).first()  # type: ignore[union-attr]
        state = ImperialState.model_validate_json(snap.state).model_dump(mode="json")
        for member in state["subscribers"]:
            del member["since"]
        snap.state = json.dumps(state)
        s.add(snap)
        s.commit()
        assert '"since"' not in snap.state
    assert Game(game.dir).state().subscriber(ALICE).since is None
    assert post(game, path, ONE_CLICK) == (200, f"{ALICE} is unsubscribed from {LIST}.")
