"""Rule 19: the end of every game day rings the chimes: a ``day_end`` event, mailed to subscribers."""
from __future__ import annotations

import json

from sqlmodel import Session, select

from nomic.game import Game
from storage import EventRow
from tests.engine.rule_support import NOBODY, day_end, mails, roll
from tests.support import EMPEROR, Play, at

AIA, OUI = "aia@eau.io", "oui@eau.io"  # Profile 0: never in the AND check


def day_ends(play: Play) -> list[dict]:
    game = Game(play.dir)
    with Session(game.db) as s:
        rows = s.exec(select(EventRow).where(EventRow.kind == "day_end").order_by(EventRow.id)).all()
        return [json.loads(r.data) for r in rows]


def test_every_day_end_chimes_with_what_the_day_end_did(make_play):
    play = make_play(day_mode="fixed", first_it=NOBODY)
    play.send(AIA, "Subscribe", at=at(1))
    play.send(AIA, "Point of Order: hello", "I join.", at=at(1))
    play.send(OUI, "Point of Order: hello", "I join.", at=at(1))
    play.tick(at(3, 0))  # two day ends in one tick, each at its own boundary
    potd = [[AIA, OUI][roll(f"day:{d}:player-of-the-day", 0, 1)] for d in (1, 2)]
    t1, _ = day_end(303, 1, {AIA: 0, OUI: 0})
    t2, _ = day_end(t1, 2, {AIA: 0, OUI: 0})
    cooling = [roll(f"day:{d}:cooling", 0, 10) for d in (1, 2)]
    chimes = day_ends(play)
    assert [(c["day"], c["new_day"], c["at"]) for c in chimes] == [
        (1, 2, "2026-01-06T00:00:00+00:00"), (2, 3, "2026-01-07T00:00:00+00:00")]
    assert chimes[0]["summary"]["notes"] == [
        f"Player of the Day 1: {potd[0]} +1 point (now 1)",
        "Profile AND 303 K: no player matches",
        f"cooling by {cooling[0]} K: temperature 303 -> {t1} K",
        f"Player of the Day for day 2: {potd[1]}",
    ]
    assert chimes[1]["summary"]["temperature"] == t2
    sent = [(m["kind"], m["to"], m["subject"]) for m in play.outbox() if m["kind"] in ("chime", "emperor")
            and "Bell Tower" in m["subject"]]
    assert sent == [("emperor", [EMPEROR], "[Test Nomic] The Bell Tower: day 1 ends, day 2 begins"),
                    ("chime", [AIA, OUI], "[Test Nomic] The Bell Tower: day 1 ends, day 2 begins"),  # players hear it
                    ("emperor", [EMPEROR], "[Test Nomic] The Bell Tower: day 2 ends, day 3 begins"),
                    ("chime", [AIA, OUI], "[Test Nomic] The Bell Tower: day 2 ends, day 3 begins")]
    assert ("Waiting for the Emperor's judgment:\n"
            "  Point of Order 1 (hello) by aia@eau.io, since day 1\n"
            "  Point of Order 2 (hello) by oui@eau.io, since day 1\n") in mails(play, "chime")[0].get_content()
    play.verify()


def test_an_emperor_day_ends_with_new_day_and_chimes(make_play):
    play = make_play(first_it=NOBODY)
    play.send(AIA, "Point of Order: hello", "I join.", at=at(1))
    assert "cannot end before" in play.send(EMPEROR, "day", "New day", at=at(1, 23))
    assert day_ends(play) == []
    play.send(EMPEROR, "day", "New day", at=at(2, 1))
    assert [(c["day"], c["new_day"]) for c in day_ends(play)] == [(1, 2)]
    assert play.state()["game_day"] == 2
    play.verify()
