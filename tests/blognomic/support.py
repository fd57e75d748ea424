"""Driving a BlogNomic game straight through the engine: mail is read with the ruleset's own
grammar (as the mailer reads it) and folded with engine.machine."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from engine import machine
from engine.blognomic.declarations import COMMANDS
from engine.blognomic.state import BlogState
from engine.context import EngineConfig
from engine.events import Event
from engine.inputs import ClockStep, Message
from mailer.grammar import Grammar

RULESETS = Path(__file__).resolve().parents[2] / "storage" / "rulesets"
ADDRESS = "ths@blog.test"
ADMIN = "admin@blog.test"
START = datetime(2026, 1, 5, 0, 0, tzinfo=timezone.utc)
GRAMMAR = Grammar(COMMANDS)


def at(hours: float = 0, days: float = 0) -> datetime:
    return START + timedelta(hours=hours, days=days)


def config(*, edition: str = "149", admins: tuple[str, ...] = (ADMIN,), seraphims: tuple[str, ...] = (),
           auto: bool = True, admission: str = "auto") -> EngineConfig:
    """``admission``: "auto" (a Join makes a Pactmaker at once) for the games not about admission."""
    return EngineConfig(start=START, seed="blog-seed", address=ADDRESS, list_address="list@blog.test",
                        offices={"admins": admins, "seraphims": seraphims}, ruleset="blognomic",
                        edition=edition, options={"auto_resolve": auto, "admission": admission, "daily_mail": False,
                                                  "max_pending_cfjs": 2, "max_pending_dovs": 1})


@dataclass
class Game:
    """A game and everything it said."""
    config: EngineConfig
    state: BlogState
    events: list[Event] = field(default_factory=list)
    sent: int = 0

    def mail(self, sender: str, subject: str, body: str = "", *, hours: float = 0, days: float = 0,
             reply_to: int | None = None, name: str = "") -> list[Event]:
        """Fold one authenticated message; ``reply_to``: a reply to matter N's announcement."""
        self.sent += 1
        reading = GRAMMAR.read(subject, body)
        refs = [f"sub{reply_to}.announce.{self.sent}.x@blog.test"] if reply_to else []
        msg = Message(at=at(hours, days), message_id=f"m{self.sent}@mail.test", sender=sender,
                      name=name or sender.split("@")[0].capitalize(), authenticated=True, subject=subject,
                      references=refs, commands=reading.commands, not_understood=reading.not_understood)
        return self._fold(msg)

    def tick(self, when: datetime) -> list[Event]:
        return self._fold(ClockStep(at=when))

    def _fold(self, entry: Message | ClockStep) -> list[Event]:
        events = machine.apply(self.state, entry, self.config)
        self.events += events
        return events

    def json(self) -> dict[str, Any]:
        return self.state.public_json()

    def matter(self, n: int) -> dict[str, Any]:
        return self.json()["matters"][n - 1]


def answers(events: list[Event]) -> list[str]:
    """The answer mail's lines: "command: result" (the result alone where no command of the sender's led to it)."""
    return [f"{e.data['command']}: {e.data['result']}" if e.data["command"] else e.data["result"]
            for e in events if e.kind == "outcome"]


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind]


def new_game(players: tuple[str, ...] = (), **kw: Any) -> Game:
    cfg = config(**kw)
    text = (RULESETS / f"blognomic-{cfg.edition}.txt").read_text()
    game = Game(cfg, machine.new_game(cfg, text))  # type: ignore[arg-type]
    for p in players:
        game.mail(p, "Join")
    return game


def email(name: str) -> str:
    return f"{name}@blog.test"


ALICE, BOB, CAROL, DAVE, ERIN = (email(n) for n in ("alice", "bob", "carol", "dave", "erin"))
FIVE = (ALICE, BOB, CAROL, DAVE)  # with the Admin, five Pactmakers: Quorum 3
