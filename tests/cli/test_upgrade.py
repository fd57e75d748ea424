"""Opening a game never migrates or refolds it: a game an older release wrote is refused, in one
line naming ``nomic upgrade``, until that explicit step (or ``nomic serve`` at start) has run."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from nomic.cli import app
from tests.cli.test_old_release import FIXTURE as OLD_RELEASE
from tests.mailer.conftest import Daemon
from tests.support import make_mail

RELEASE_0005 = Path(__file__).resolve().parent.parent / "fixtures" / "release-0005"
pytestmark = pytest.mark.sqlite_only  # the fixtures are SQLite databases
REFOLD = "0006: this release keeps absence, reminders and parameters in the state"


def copied(fixture: Path, tmp_path: Path) -> Path:
    game = tmp_path / "game"
    game.mkdir()
    for name in ("game.toml", "game.db"):
        shutil.copy(fixture / name, game / name)
    return game


def nomic(game: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, [*args, "--game", str(game)], catch_exceptions=False)
    return result.exit_code, result.output


def database(game: Path) -> tuple[str, list[tuple[str, str]], int, int]:
    """What a refused command must leave as it was: the schema revision, the meta rows, the journal and events."""
    with sqlite3.connect(game / "game.db") as db:
        return (db.execute("select version_num from alembic_version").fetchone()[0],
                db.execute("select key, value from meta order by key").fetchall(),
                db.execute("select count(*) from journal").fetchone()[0],
                db.execute("select count(*) from event").fetchone()[0])


def test_every_command_refuses_an_old_game_in_one_line_and_changes_nothing(tmp_path: Path) -> None:
    game = copied(OLD_RELEASE, tmp_path)
    before = database(game)
    mail = tmp_path / "late.eml"
    mail.write_bytes(make_mail("alice@wonder.land", "Proposal: Too early", "x"))
    refusal = (f"nomic: {game}: its database is at schema 0004, this release needs schema 0009; "
               f"run `nomic upgrade --game {game}` first\n")
    for args in (("state", "--json"), ("ingest", str(mail)), ("tick", "--at", "2026-01-09T00:30:00Z"),
                 ("replay", "--verify"), ("replay",), ("build", "--out", str(tmp_path / "site")), ("outbox",)):
        assert nomic(game, *args) == (2, refusal), args
    assert database(game) == before
    assert before[0] == "0004"


def test_upgrade_says_what_it_did_then_the_old_game_verifies_and_plays_on(tmp_path: Path) -> None:
    game = copied(OLD_RELEASE, tmp_path)
    assert nomic(game, "upgrade") == (0, f"{game}: schema 0004 -> 0009\n{game}: refolded 20 journal entries ({REFOLD})\n")
    assert nomic(game, "upgrade") == (0, f"{game}: up to date; nothing to do\n")
    code, said = nomic(game, "replay", "--verify")
    assert (code, said.split(";")[1]) == (0, " replayed state matches the stored state (from the parsed inputs)\n")
    revision, meta, journal, _ = database(game)
    assert (revision, journal, "refold" in dict(meta)) == ("0009", 20, False)


def test_a_game_that_only_needs_its_refold_is_refused_and_upgraded(tmp_path: Path) -> None:
    """A schema already up to date with a refold still asked for (an upgrade stopped half way)."""
    game = copied(OLD_RELEASE, tmp_path)
    nomic(game, "upgrade")
    with sqlite3.connect(game / "game.db") as db:
        db.execute("insert into meta (key, value) values ('refold', 'a test asks for it')")
    assert nomic(game, "state") == (2, f"nomic: {game}: its journal must be folded again (a migration asked for it); "
                                       f"run `nomic upgrade --game {game}` first\n")
    assert nomic(game, "upgrade") == (0, f"{game}: refolded 20 journal entries (a test asks for it)\n")
    assert nomic(game, "replay", "--verify")[0] == 0


def shaped_as(new: Any, old: Any) -> Any:
    """``new`` cut to the keys ``old`` has, at every depth: what a later release added to the state
    (a new field, such as a submission's preview) is left out, every value the old release gave is kept."""
    if isinstance(new, dict) and isinstance(old, dict):
        return {k: shaped_as(new[k], old[k]) for k in new if k in old}
    if isinstance(new, list) and isinstance(old, list) and len(new) == len(old):
        return [shaped_as(n, o) for n, o in zip(new, old)]
    return new


def test_the_last_release_s_game_opens_as_it_is_and_replays_to_its_state(tmp_path: Path) -> None:
    """tests/fixtures/release-0005, written by the release before ``nomic upgrade``: upgraded by one
    refold (this release keeps more in the state), every value of its state as that release gave
    it (fields added since are not compared), and its replay verifies."""
    game = copied(RELEASE_0005, tmp_path)
    assert nomic(game, "upgrade") == (0, f"{game}: schema 0005 -> 0009\n{game}: refolded 7 journal entries ({REFOLD})\n")
    code, state = nomic(game, "state", "--json")
    expected = json.loads((RELEASE_0005 / "expected-state.json").read_text())
    assert (code, shaped_as(json.loads(state), expected)) == (0, expected)
    code, said = nomic(game, "replay", "--verify", "--reparse")
    assert (code, said.split(";")[1]) == (0, " replayed state matches the stored state (parsing every message again)\n")


def test_serve_upgrades_the_game_at_start_and_logs_it(tmp_path: Path) -> None:
    game = copied(OLD_RELEASE, tmp_path)
    daemon = Daemon(game)
    assert daemon.stop() == 0
    said = [line.split(" nomic: ", 1)[1] for line in daemon.log if "upgraded" in line]
    assert said == [f"INFO: {game}: upgraded: schema 0004 -> 0009\n",
                    f"INFO: {game}: upgraded: refolded 20 journal entries ({REFOLD})\n"]
    assert nomic(game, "replay", "--verify")[0] == 0


def test_upgrade_is_refused_while_a_daemon_holds_the_game(tmp_path: Path) -> None:
    game = copied(RELEASE_0005, tmp_path)
    daemon = Daemon(game)
    try:
        code, said = nomic(game, "upgrade")
    finally:
        daemon.stop()
    assert (code, said) == (1, f"nomic: {game}: a daemon (nomic serve) holds this game: stop it first "
                               "(nomic serve upgrades the game when it starts)\n")
