"""Driving a B Nomic game through the engine, reading mail as the mailer's grammar does."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engine import machine
from engine.bnomic import RULESET
from engine.bnomic.state import BNomicState
from engine.context import EngineConfig
from engine.events import Event
from engine.inputs import ClockStep, Message
from mailer.grammar import Grammar

RULES_TEXT = (Path(__file__).parents[2] / "storage" / "rulesets" / "b-nomic.txt").read_text()
START = datetime(2026, 1, 5, tzinfo=UTC)
ALICE, BOB, CAROL, DAVE, ERIN = (f"{n}@b.test" for n in ("alice", "bob", "carol", "dave", "erin"))
PLAYERS = ["Alice <alice@b.test>", "Bob <bob@b.test>", "Carol <carol@b.test>", "Dave <dave@b.test>",
           "Erin <erin@b.test>"]
GRAMMAR = Grammar(RULESET.commands)


def config(players: list[str] | None = None, **options: Any) -> EngineConfig:
    return EngineConfig(start=START, seed="bnomic-test", address="ths@b.test", list_address="list@b.test",
                        ruleset="bnomic", options={
                            "players": PLAYERS if players is None else players, "nweek": 1, "nday": 1,
                            "clock_on": False, "number_proposals": "auto", "daily_mail": True, **options})


class Game:
    """One game: ``send`` mails a message at ``now`` (a minute after the last, unless ``at``) and
    returns its events; ``midnight(n)`` runs the clock to the n-th midnight after the start."""

    def __init__(self, players: list[str] | None = None, **options: Any) -> None:
        self.config = config(players, **options)
        state = machine.new_game(self.config, RULES_TEXT)
        assert isinstance(state, BNomicState)
        self.state = state
        self.now = START + timedelta(hours=1)
        self.sent = 0

    def send(self, sender: str, subject: str, body: str = "", *, reply_to: int | None = None) -> list[Event]:
        """Mail from ``sender``; ``reply_to``: a reply to the announcement of the proposal of that key."""
        self.sent += 1
        self.now += timedelta(minutes=1)
        reading = GRAMMAR.read(subject, body)
        refs = [] if reply_to is None else [f"sub{reply_to}.proposed.1.abc@b.test"]
        msg = Message(at=self.now, message_id=f"m{self.sent}@mail.test", sender=sender, authenticated=True,
                      subject=subject, references=refs, commands=reading.commands,
                      not_understood=reading.not_understood)
        return machine.apply(self.state, msg, self.config)

    def midnight(self, n: int) -> list[Event]:
        """Tick to the n-th midnight after the start; later mail comes an hour after it."""
        at = START + timedelta(days=n)
        self.now = at + timedelta(hours=1)
        return machine.apply(self.state, ClockStep(at=at), self.config)

    def to_nday(self, nday: int) -> list[Event]:
        """Tick midnight by midnight until the Clock shows ``nday``."""
        events: list[Event] = []
        for _ in range(13):
            if self.state.clock.nday == nday:
                return events
            events += self.midnight(self.state.midnights + 1)
        raise AssertionError(f"the Clock does not reach nday {nday}: {self.state.clock}")

    def json(self) -> dict[str, Any]:
        return self.state.public_json()

    def player(self, email: str) -> dict[str, Any]:
        return next(p for p in self.json()["players"] if p["email"] == email)

    def points(self) -> dict[str, int]:
        return {p.email: p.score for p in self.state.players}


def said(events: list[Event]) -> list[str]:
    """The answer lines, as the answer mail writes them."""
    return [f'{"  " if e.data["ok"] else "! "}"{e.data["command"]}": {e.data["result"]}'
            for e in events if e.kind == "outcome"]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events if e.kind != "outcome"]
