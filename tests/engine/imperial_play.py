"""Helpers for the rules 1-12 tests: players, game variables, the ledger, the dice."""
from __future__ import annotations

from engine.dice import draw
from tests.support import EMPEROR, SCRIBE, Play

ALICE = "alice@wonder.land"   # Profile 21942
BOB = "bob@builder.org"       # Profile 45917
CAROL = "carol@c.org"         # Profile 44502
ZED = "zzz@zz.zz"             # Profile 65535: matches every temperature in the AND check
TIE_PROFILE = 36151           # tie@imperial.test: rule 1 makes TIE a player from the start ...
THS_PROFILE = 60727           # ths@imperial.test: ... and THS, the first two in the player list
OFFICERS = (EMPEROR, SCRIBE)
IDLE_OFFICERS = {EMPEROR: 0, SCRIBE: 0}  # their scores in a game where nothing scored them
# ... and their rows in ``contract_state``'s players
OFFICER_ROWS = [
    {"email": EMPEROR, "name": "tie", "score": 0, "profile": TIE_PROFILE, "entropy": 1, "category": "GP",
     "probation": False, "active": True, "sealed": False},
    {"email": SCRIBE, "name": "ths", "score": 0, "profile": THS_PROFILE, "entropy": 3, "category": "GP",
     "probation": False, "active": True, "sealed": False},
]
SEED = "test-seed"


def with_variables(play: Play, **values: int) -> Play:
    """Set game.toml [variables] before the first mail (a new game reads them)."""
    with (play.dir / "game.toml").open("a") as f:
        f.write("\n[variables]\n" + "".join(f"{k} = {v}\n" for k, v in values.items()))
    return play


def ledger(play: Play) -> list[tuple]:
    """(player, delta, score, cause) of every ledger entry, in order."""
    return [(e["player"], e["delta"], e["score"], e["cause"]) for e in play.state()["ledger"]]


def rule_ledger(play: Play, rule: int) -> list[tuple]:
    """(player, score after, cause) of the ledger entries of one rule (other rules' day-end
    awards, such as Player of the Day, are left out)."""
    return [(e["player"], e["score"], e["cause"]) for e in play.state()["ledger"] if e["rule"] == rule]


def scores(play: Play) -> dict[str, int]:
    return {p["email"]: p["score"] for p in play.state()["players"]}


def sub(play: Play, number: int) -> dict:
    return play.state()["submissions"][number - 1]


def die(label: str, low: int, high: int) -> int:
    """The draw the game makes for ``label`` with the test seed."""
    return draw(SEED, label, low, high)


def join(play: Play, *emails: str, at: str = "2026-01-05T00:30:00Z") -> None:
    """Players join with a Point of Order (rule 2), which touches no score or temperature."""
    for email in emails:
        play.send(email, "Point of Order: hello", "I join.", at=at)


TOP = ("game_day", "temperature", "woodchips", "accept_streak", "reject_streak", "it", "winner", "directive")
PLAYER = ("email", "name", "score", "profile", "entropy", "category", "probation", "active", "sealed")
SUBMISSION = ("number", "kind", "author", "title", "status", "reason")


def contract_state(play: Play) -> dict:
    """The keys of ``nomic state --json`` that docs/contract.md promises, and only those."""
    st = play.state()
    return {**{k: st[k] for k in TOP},
            "players": [{k: p[k] for k in PLAYER} for p in st["players"]],
            "submissions": [{k: s[k] for k in SUBMISSION} for s in st["submissions"]]}
