"""Every link in the mail the game sends leads somewhere: a page of the built site, or mailer.web's."""
from __future__ import annotations

import re
from email.message import EmailMessage
from pathlib import Path

from mailer.web import handle_get, handle_post
from nomic.wiring import forms
from nomic.game import Game
from tests.outbox.conftest import SITE
from tests.support import EMPEROR, LIST_ADDRESS, at, parse_time

ALICE, BOB, CAROL, DAVE = "alice@wonder.land", "bob@builder.org", "carol@c.org", "dave@d.org"
URL = re.compile(re.escape(SITE) + r"[^\s<>\"']*")
DYNAMIC = ("subscribe/confirm/", "unsubscribe/")  # answered by mailer.web, not files of the site


def urls(mail: EmailMessage) -> set[str]:
    """Every link to the site in the mail's headers and text, the parts of a digest's messages too."""
    found = set()
    for part in mail.walk():
        found.update(u for _, value in part.items() for u in URL.findall(str(value)))
        if part.get_content_maintype() == "text":
            found.update(URL.findall(part.get_content()))
    return {u.rstrip(".,;)") for u in found}


def in_site(out: Path, path: str) -> bool:
    page, _, fragment = path.partition("#")
    file = out / (page + "index.html" if page == "" or page.endswith("/") else page)
    return file.is_file() and (not fragment or f'id="{fragment}"' in file.read_text())


def play_every_kind_of_mail(game) -> None:
    """Answers, a refused post, list copies, announcements, a Proclamation, a chime, both digests, a confirmation."""
    game.send(ALICE, "Join", "Subscribe", at=at(1, 1))
    game.send(BOB, "Join", "Digest on", at=at(1, 1))
    game.send(CAROL, "Join", "Digest plain", at=at(1, 1))
    game.send(DAVE, "Hello", "May I?", to=LIST_ADDRESS, at=at(1, 2))
    game.propose(DAVE, "Free cake", "Cake for all.", at=at(1, 3))
    game.judge("Accept 1", at=at(1, 4))
    game.send(EMPEROR, "Proclamation: More points", "Set accept_points = 4", at=at(1, 5))
    game.send(ALICE, "Cake day", "The cake is served.", to=LIST_ADDRESS, at=at(1, 6))
    game.tick(at(2, 0))
    g = Game(game.dir)
    assert handle_post(forms(g), "/subscribe", "address=erin@e.org", now=parse_time(at(2, 1)))[0] == 200
    g.process()


def test_every_link_in_the_mail_sent_is_a_page_of_the_built_site_or_of_mailer_web(game, relay, tmp_path):
    play_every_kind_of_mail(game)
    game.cli("send")
    out = tmp_path / "public"
    game.cli("build", "--out", str(out))
    paths = {u.removeprefix(SITE) for a in relay.arrived for u in urls(a.mail)}
    assert {"", "how-to-play.html", "list/", "list/index.html#join"} <= paths  # the site, commands, archive, the form
    assert {p.split("/")[0] + "/" for p in paths if p.startswith(DYNAMIC)} == {"subscribe/", "unsubscribe/"}
    g = Game(game.dir)
    missing = [p for p in sorted(paths) if not (handle_get(forms(g), "/" + p, now=parse_time(at(2, 2)))[0] == 200
                                                if p.startswith(DYNAMIC) else in_site(out, p))]
    assert missing == []
