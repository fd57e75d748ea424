"""Helpers for the rules 13-22 tests: the contract's view of the state, and the dice."""
from __future__ import annotations

from engine.dice import draw
from engine.state import GameState
from tests.engine.imperial_play import SEED
from tests.support import Play

TOP = ("game_day", "temperature", "woodchips", "accept_streak", "reject_streak", "it", "winner",
       "directive")
PLAYER = ("email", "name", "score", "profile", "entropy", "category", "probation", "active",
          "sealed")
NOBODY = "nobody@it.test"  # offices.first_it in tests whose players must not be It


def public(state: dict) -> dict:
    """The keys CONTRACT.md promises in ``nomic state --json``, players and submissions included."""
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


def engine_state(play: Play) -> GameState:
    return GameState.model_validate(play.state())


def day_end(temperature: int, day: int, profiles: dict[str, int]) -> tuple[int, list[str]]:
    """Rule 12 at the end of day ``day``: the temperature after the AND check and the cooling,
    and the players whose Profile matched (+5 each), computed from the seed's draws."""
    matched = [email for email, p in profiles.items() if p & temperature == temperature]
    if matched:
        temperature += roll(f"day:{day}:and", -10, 10)
    return temperature - roll(f"day:{day}:cooling", 0, 10), matched
