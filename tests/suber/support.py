"""Driving a Suber's Nomic game through the engine, reading mail as the mailer's grammar does."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engine import machine
from engine.context import EngineConfig
from engine.events import Event
from engine.inputs import Message
from engine.suber import RULESET
from engine.suber.state import SuberState
from mailer.grammar import Grammar

RULES_TEXT = (Path(__file__).parents[2] / "storage" / "rulesets" / "suber-nomic-2005.txt").read_text()
START = datetime(2026, 1, 5, tzinfo=UTC)
ALICE, BOB, CAROL, DAN = "alice@suber.test", "bob@suber.test", "carol@suber.test", "dan@suber.test"
# listed out of turn order: rule 201 sorts them by surname (Adams, Brown, Clark)
PLAYERS = ["Carol Clark <carol@suber.test>", "Alice Adams <alice@suber.test>", "Bob Brown <bob@suber.test>"]
GRAMMAR = Grammar(RULESET.commands)


def config(players: list[str] | None = None, **options: Any) -> EngineConfig:
    return EngineConfig(start=START, seed="suber-test", address="ths@suber.test", list_address="list@suber.test",
                        ruleset="suber", options={"players": PLAYERS if players is None else players,
                                 "call_for_action": False, "daily_mail": False, "vote_days": 0,
                                 "rule_213_from_circuit": 1, **options})


class Game:
    """One game: ``send`` mails a message (a minute after the last, or ``at``) and returns its events;
    ``options``: more of game.toml's ``[suber]``."""

    def __init__(self, players: list[str] | None = None, **options: Any) -> None:
        self.config = config(players, **options)
        state = machine.new_game(self.config, RULES_TEXT)
        assert isinstance(state, SuberState)
        self.state = state
        self.sent = 0

    def send(self, sender: str, subject: str, body: str = "", *, reply_to: int | None = None,
             name: str = "", at: datetime | None = None) -> list[Event]:
        """Mail from ``sender``; ``reply_to``: a reply to proposal N's message (its thread)."""
        self.sent += 1
        reading = GRAMMAR.read(subject, body)
        refs = [] if reply_to is None else [self.proposal_message(reply_to)]
        msg = Message(at=at or START + timedelta(minutes=self.sent), message_id=f"m{self.sent}@mail.test",
                      sender=sender, name=name, authenticated=True, subject=subject, references=refs,
                      commands=reading.commands, not_understood=reading.not_understood)
        return machine.apply(self.state, msg, self.config)

    def proposal_message(self, number: int) -> str:
        proposal = self.state.matter(number)
        assert proposal is not None and proposal.message_id is not None
        return proposal.message_id

    def json(self) -> dict[str, Any]:
        return self.state.public_json()

    def scores(self) -> dict[str, int]:
        return {p.email: p.score for p in self.state.players}


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events if e.kind != "outcome"]


def refused(events: list[Event]) -> list[str]:
    """The answer lines that refused something."""
    return [e.data["result"] for e in events if e.kind == "outcome" and not e.data["ok"]]


def vote_all(game: Game, number: int, votes: dict[str, str]) -> list[Event]:
    """Each player in ``votes`` answers the proposal's announcement with a bare Yes or No."""
    events: list[Event] = []
    for player, vote in votes.items():
        events += game.send(player, f"Re: Proposal {number}", vote, reply_to=number)
    return events
