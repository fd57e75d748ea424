"""Events are declared like commands (engine/events.py, engine/<ruleset>/events.py) and say what
caused them: every event a game stores reads back as its ruleset's model, and a judgment's, a
vote's or a day's events name that cause (the site groups them by it)."""
from __future__ import annotations

import json
from typing import Any

import pytest
from sqlmodel import Session, select

import storage
from engine.context import Context, EngineConfig
from engine.events import Cause, Event
from engine.imperial.events import DayEnded, Judged, Score
from engine.ruleset import event_models
from storage.config import Config
from storage.tables import EventRow
from tests.blognomic.support import ALICE as B_ALICE, BOB as B_BOB, CAROL as B_CAROL, FIVE, at, new_game
from tests.site.game import play_days
from tests.suber.support import ALICE, BOB, CAROL, Game
from tests.support import Play

Stored = tuple[str, dict[str, Any], tuple[str, int] | None]


def stored(play: Play) -> list[Stored]:
    """Every event the game stored: kind, data, cause."""
    with Session(storage.connect(Config.load(play.dir).database_url)) as s:
        rows = s.exec(select(EventRow).order_by(EventRow.id)).all()  # type: ignore[arg-type]
    return [(r.kind, json.loads(r.data), None if r.cause_what is None else (r.cause_what, r.cause_number or 0))
            for r in rows]


def read_back(ruleset: str, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (as stored: JSON) through the ruleset's model of ``kind``, and out again."""
    model = event_models(ruleset)[kind]
    return model.model_validate_json(json.dumps(data, default=str)).model_dump(mode="json")


def assert_declared(ruleset: str, events: list[Stored] | list[Event]) -> None:
    as_stored = [(e.kind, json.loads(json.dumps(e.data, default=str))) if isinstance(e, Event) else e[:2]
                 for e in events]
    assert [(kind, read_back(ruleset, kind, data)) for kind, data in as_stored] == as_stored


def test_an_imperial_game_stores_declared_events_with_their_causes(make_play) -> None:
    play = make_play(day_mode="fixed")
    play_days(play)
    events = stored(play)
    assert_declared("imperial", events)
    numbered = [(kind, data["number"], cause) for kind, data, cause in events
                if kind in ("submitted", "judged", "rewritten")]
    assert [kind for kind, _, _ in numbered].count("judged") == 6
    assert all(cause == ("submission", n) for _, n, cause in numbered)
    days = [(data["day"], cause) for kind, data, cause in events if kind == "day_end"]
    assert days == [(1, ("day", 1)), (2, ("day", 2)), (3, ("day", 3))]
    cooling = [cause for kind, data, cause in events if kind == "draw" and data["label"].endswith(":cooling")]
    assert cooling == [("day", 1), ("day", 2), ("day", 3)]  # a day's dice belong to the day, not a submission
    rejected = [(data["cause"], cause) for kind, data, cause in events if kind == "temperature"
                and data["cause"] == "Proposal 2 rejected"]
    assert rejected == [("Proposal 2 rejected", ("submission", 2))]
    assert {cause for kind, _, cause in events if kind in ("list_post", "subscription")} == {None}


def test_a_suber_vote_causes_its_consequences_and_every_event_is_declared() -> None:
    game = Game()
    events = game.send(ALICE, "Proposal: Hello", "Enact rule: Players may say hello.")
    events += game.send(ALICE, "Re: Proposal: Hello", "Call vote", reply_to=301)
    events += game.send(BOB, "Re: Proposal: Hello", "Yes", reply_to=301)
    events += game.send(CAROL, "Re: Proposal: Hello", "Yes", reply_to=301)
    completion = game.send(ALICE, "Re: Proposal: Hello", "Yes", reply_to=301)
    assert_declared("suber", events + completion)
    assert [(e.kind, e.cause) for e in completion if e.kind != "outcome"] == [
        ("voted", Cause("proposal", 301)), ("completed", Cause("proposal", 301)),
        ("rules_changed", Cause("proposal", 301)), ("score", Cause("proposal", 301)),
        ("turn", Cause("proposal", 301))]


def test_a_blognomic_matter_causes_its_votes_and_resolution_and_every_event_is_declared() -> None:
    game = new_game(FIVE)
    game.mail(B_ALICE, "Proposal: Free cake", 'Enact rule "Cake": Cake for all.', hours=1)
    game.mail(B_BOB, "votes", "FOR 1", hours=2)
    game.mail(B_CAROL, "votes", "FOR 1", hours=3)
    game.tick(at(13))
    assert_declared("blognomic", game.events)
    caused = [(e.kind, e.cause) for e in game.events if e.kind in ("matter_opened", "vote", "resolved", "amended")]
    assert caused == [("matter_opened", Cause("matter", 1)), ("vote", Cause("matter", 1)),
                      ("vote", Cause("matter", 1)), ("resolved", Cause("matter", 1)), ("amended", Cause("matter", 1))]
    assert {e.cause for e in game.events if e.kind == "joined"} == {None}


def test_the_innermost_cause_wins_and_an_explicit_one_wins_over_both() -> None:
    ctx = Context(config=EngineConfig(start=at(0), seed="s", address="a@x", list_address="l@x"), at=at(0))
    score = Score(player="p@x", delta=1, score=1, cause="test", rule=None, submission=None)
    with ctx.because(Cause("submission", 1)):
        ctx.emit(score)
        with ctx.because(Cause("day", 2)):
            ctx.emit(score)
            ctx.emit(score, Cause("proposal", 3))
        ctx.emit(score)
    ctx.emit(score)
    assert [e.cause for e in ctx.events] == [Cause("submission", 1), Cause("day", 2), Cause("proposal", 3),
                                             Cause("submission", 1), None]


def test_an_undeclared_field_or_a_wrong_type_is_refused_at_emission() -> None:
    with pytest.raises(ValueError):
        Score(player="p@x", delta="many", score=1, cause="test", rule=None, submission=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Score(player="p@x", delta=1, score=1, cause="test", rule=None, submission=None, extra=1)  # type: ignore[call-arg]


def test_an_events_data_is_its_dump_taken_when_it_was_emitted() -> None:
    """An event's data is made when it is emitted, the Event only when the events are asked for: a
    kind of plain fields gives its values (a Judged's refused requests stay pairs), a kind holding
    the caller's values (a day's summary) a dump of them, which the caller changing them later
    does not reach."""
    ctx = Context(config=EngineConfig(start=at(0), seed="s", address="a@x", list_address="l@x"), at=at(0))
    judged = Judged(number=3, verdict="accept", status="accepted", reason=None, points=3, prejudice=False,
                    by_engine=False, refused=[(1, "no such rule")])
    notes = ["it was a fine day"]
    ctx.emit(judged)
    ctx.emit(DayEnded(day=1, new_day=2, at="2026-01-06T00:00:00Z", chime=True, summary={"notes": notes}),
             Cause("day", 1))
    notes.append("written after the day ended")
    assert [(e.kind, e.data, e.cause) for e in ctx.events] == [
        ("judged", judged.model_dump(), None),
        ("day_end", {"day": 1, "new_day": 2, "at": "2026-01-06T00:00:00Z", "chime": True,
                     "summary": {"notes": ["it was a fine day"]}}, Cause("day", 1))]
    assert ctx.events[0].data["refused"] == [(1, "no such rule")]
    assert (Judged.PLAIN, DayEnded.PLAIN) == (True, False)
