"""A game written by the previous release (tests/fixtures/old-release, made by play_old_release.py
with commit d1fdb66), once ``nomic upgrade`` has run (tests/cli/test_upgrade.py), replays with today's
code to the same state and plays on."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support import Play

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "old-release"
pytestmark = pytest.mark.sqlite_only  # the fixture is a SQLite database


def contains(old: object, new: object, path: str = "") -> list[str]:
    """Where ``new`` differs from ``old``, ignoring keys that only ``new`` has."""
    if isinstance(old, dict) and isinstance(new, dict):
        return [d for k, v in old.items()
                for d in (contains(v, new[k], f"{path}/{k}") if k in new else [f"{path}/{k} missing"])]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [d for i, (a, b) in enumerate(zip(old, new)) for d in contains(a, b, f"{path}[{i}]")]
    return [] if old == new else [f"{path}: {old!r} -> {new!r}"]


@pytest.fixture
def old_game(tmp_path: Path) -> Play:
    game = tmp_path / "game"
    game.mkdir()
    for name in ("game.toml", "game.db"):
        shutil.copy(FIXTURE / name, game / name)
    play = Play.existing(game)
    play.cli("upgrade")
    return play


def test_an_old_game_replays_to_the_state_the_old_release_stored(old_game: Play) -> None:
    old_game.verify()
    expected = json.loads((FIXTURE / "expected-state.json").read_text())
    state = old_game.state()
    # Issue 31 (docs/rulings.md, "Players hear the game"): replayed by today's code, every player is on the
    # list from their first move, where the old release had only Alice, from her Subscribe at 05:00.
    assert expected.pop("subscribers") == [
        {"email": "alice@wonder.land", "digest": False, "plain": False, "since": "2026-01-05T05:00:00Z"}]
    assert state.pop("subscribers") == [
        {"email": p, "digest": False, "plain": False, "since": f"2026-01-05T0{h}:00:00Z"}
        for p, h in (("alice@wonder.land", 1), ("bob@builder.org", 2), ("carol@c.org", 3))]
    assert contains(expected, state) == []
    assert [(p["email"], p["score"], p["profile"]) for p in state["players"]] == [
        ("tie@imperial.test", 5, 36151), ("ths@imperial.test", 5, 60727), ("alice@wonder.land", 13, 21942),
        ("bob@builder.org", 11, 62301), ("carol@c.org", 8, 36310)]
    assert [s["status"] for s in state["submissions"]] == [
        "accepted", "rejected", "rejected", "accepted", "accepted", "ignored", "accepted"]


def test_an_old_game_plays_on(old_game: Play) -> None:
    assert "recorded as Proposal 8" in old_game.propose("alice@wonder.land", "After the upgrade", at="2026-01-08T03:00:00Z")
    assert "Proposal 8 accepted" in old_game.judge("Accept 8", at="2026-01-08T04:00:00Z")
    old_game.verify()
