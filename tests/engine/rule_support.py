"""Helpers for the rules 13-22 tests: the contract's view of the state, and the dice."""
from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage

from sqlmodel import Session, select

from engine.dice import draw
from mailer.outbox import OutboxMessage
from nomic.game import Game
from engine.imperial.state import ImperialState
from tests.engine.imperial_play import SEED
from tests.support import EMPEROR, SCRIBE, Play

TOP = ("game_day", "temperature", "woodchips", "accept_streak", "reject_streak", "it", "winner",
       "directive")
PLAYER = ("email", "name", "score", "profile", "entropy", "category", "probation", "active",
          "sealed")
NOBODY = "nobody@it.test"  # offices.first_it in tests whose players must not be It


def public(state: dict) -> dict:
    """The keys docs/contract.md promises in ``nomic state --json``, players and submissions included."""
    view = {k: state[k] for k in TOP}
    view["players"] = [{k: p[k] for k in PLAYER} for p in state["players"]]
    view["submissions"] = [{k: s[k] for k in ("number", "kind", "author", "title", "status", "reason")}
                           for s in state["submissions"]]
    return view


def player(email: str, score: int, profile: int, entropy: int, *, category: str = "GP",
           probation: bool = False, active: bool = True, sealed: bool = False) -> dict:
    """A player as the contract shows it; the name is the address's local part."""
    return {"email": email, "name": email.split("@")[0], "score": score, "profile": profile,
            "entropy": entropy, "category": category, "probation": probation, "active": active,
            "sealed": sealed}


def officers(tie: int = 0, ths: int = 0) -> list[dict]:
    """Rule 1: TIE and THS, players from the start, at the top of the list (with these scores)."""
    return [player(EMPEROR, tie, 36151, 1), player(SCRIBE, ths, 60727, 3)]


def proposal(number: int, author: str, title: str, status: str = "pending",
             reason: str | None = None) -> dict:
    return {"number": number, "kind": "proposal", "author": author, "title": title, "status": status,
            "reason": reason}


def point_of_order(number: int, author: str, title: str = "hello", status: str = "pending") -> dict:
    """A Point of Order; ``imperial_play.join`` makes players with one titled 'hello'."""
    return {"number": number, "kind": "point_of_order", "author": author, "title": title,
            "status": status, "reason": None}


def top(game_day: int = 1, temperature: int = 303, woodchips: int = 0, accept_streak: int = 0,
        reject_streak: int = 0, it: str | None = NOBODY) -> dict:
    return {"game_day": game_day, "temperature": temperature, "woodchips": woodchips,
            "accept_streak": accept_streak, "reject_streak": reject_streak, "it": it, "winner": None,
            "directive": None}


def roll(label: str, low: int, high: int, seed: str = SEED) -> int:
    """The draw the seed gives for ``label``, checked to be in range."""
    result = draw(seed, label, low, high)
    assert low <= result <= high
    return result


def mails(play: Play, kind: str) -> list[EmailMessage]:
    """The outbox's mails of one kind, oldest first, as their recipients read them."""
    with Session(Game(play.dir).db) as s:
        rows = s.exec(select(OutboxMessage).where(OutboxMessage.kind == kind).order_by(OutboxMessage.id)).all()
        return [email.message_from_bytes(r.raw, policy=policy.default) for r in rows]  # type: ignore[misc]


def engine_state(play: Play) -> ImperialState:
    return ImperialState.model_validate(play.state())


def day_end(temperature: int, day: int, profiles: dict[str, int]) -> tuple[int, list[str]]:
    """Rule 12 at the end of day ``day``: the temperature after the AND check and the cooling,
    and the players whose Profile matched (+5 each, in player-list order), computed from the
    seed's draws. TIE and THS (rule 1) are players with their own Profiles unless ``profiles``
    says otherwise."""
    profiles = {EMPEROR: 36151, SCRIBE: 60727, **profiles}
    matched = [email for email, p in profiles.items() if p & temperature == temperature]
    if matched:
        temperature += roll(f"day:{day}:and", -10, 10)
    return temperature - roll(f"day:{day}:cooling", 0, 10), matched
