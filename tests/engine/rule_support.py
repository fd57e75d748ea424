"""Helpers for the rules 13-22 tests: the contract's view of the state, and the dice."""
from __future__ import annotations

from engine.dice import draw

SEED = "test-seed"  # tests.support.Play's default seed
TOP = ("game_day", "temperature", "woodchips", "accept_streak", "reject_streak", "it", "winner",
       "directive")
PLAYER = ("email", "name", "score", "profile", "entropy", "category", "probation", "active",
          "sealed")


def public(state: dict) -> dict:
    """The keys CONTRACT.md promises in ``nomic state --json``, players and submissions included."""
    view = {k: state[k] for k in TOP}
    view["players"] = [{k: p[k] for k in PLAYER} for p in state["players"]]
    view["submissions"] = [{k: s[k] for k in ("number", "kind", "author", "title", "status", "reason")}
                           for s in state["submissions"]]
    return view


def roll(label: str, low: int, high: int) -> int:
    """The draw the test seed gives for ``label``, checked to be in range."""
    result = draw(SEED, label, low, high)
    assert low <= result <= high
    return result

