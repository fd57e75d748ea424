"""Issue 31: a game's clock never runs backward. ``nomic init`` starts a game at the next 00:00 UTC,
a mail received before the last clock step is stamped with its time, and ``nomic tick --at`` a
later time than now is refused while ``nomic serve`` holds the game."""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from datetime import datetime, timedelta, timezone

from typer.testing import CliRunner

from nomic.cli import app
from storage import iso
from tests.cli.blognomic_play import ADMIN, ALICE, BOB, new_game, t
from tests.mailer.conftest import Daemon

RUNNER = CliRunner()
REFUSED = ("nomic: a daemon (nomic serve) holds this game and runs its clock: tick --at a time later than now "
           "is refused (stop the daemon first)\n")


def midnight_after(now: datetime) -> datetime:
    """The next 00:00 UTC after ``now``, reckoned apart from the code under test."""
    day = now.astimezone(timezone.utc).date() + timedelta(days=1)
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


def start_of(game) -> str:
    return tomllib.loads((game / "game.toml").read_text())["game"]["start"]


def test_init_starts_a_game_at_the_next_midnight_utc(tmp_path):
    before = datetime.now(timezone.utc)
    assert RUNNER.invoke(app, ["init", str(tmp_path / "g"), "--ruleset", "suber"]).exit_code == 0
    after = datetime.now(timezone.utc)
    assert start_of(tmp_path / "g") in {iso(midnight_after(before)), iso(midnight_after(after))}


def test_init_start_chooses_the_start_over_the_config_files(tmp_path):
    (tmp_path / "mine.toml").write_text('[game]\nruleset = "suber"\nstart = "2026-01-05T00:00:00Z"\n')
    assert RUNNER.invoke(app, ["init", str(tmp_path / "a"), "--config", str(tmp_path / "mine.toml")]).exit_code == 0
    assert start_of(tmp_path / "a") == "2026-01-05T00:00:00Z"
    assert RUNNER.invoke(app, ["init", str(tmp_path / "b"), "--config", str(tmp_path / "mine.toml"),
                               "--start", "2027-03-01T12:00:00+01:00"]).exit_code == 0
    assert start_of(tmp_path / "b") == "2027-03-01T11:00:00Z"


def test_a_config_file_without_a_start_starts_at_the_next_midnight(tmp_path):
    (tmp_path / "mine.toml").write_text('[game]\nruleset = "blognomic"\n\n[auth]\nmode = "none"\n')
    before = datetime.now(timezone.utc)
    assert RUNNER.invoke(app, ["init", str(tmp_path / "g"), "--config", str(tmp_path / "mine.toml")]).exit_code == 0
    assert start_of(tmp_path / "g") in {iso(midnight_after(before)), iso(midnight_after(datetime.now(timezone.utc)))}


def test_a_mail_received_before_the_last_clock_step_is_stamped_with_its_time(tmp_path, new_database_url):
    play = new_game(tmp_path, new_database_url)
    play.send(ALICE, "Join", at=t(5, 0, 10))
    play.send(ALICE, "Proposal: Free cake", 'Enact rule "Cake": Cake.', at=t(5, 1))
    play.send(BOB, "Join", at=t(5, 1, 10))
    play.send(BOB, "Votes", "FOR 1", at=t(5, 1, 20))
    assert "clock step 2026-01-05T13:00:00Z" in play.tick(t(5, 13))  # Proposal 1 is enacted
    # A message the daemon stamps by a wall clock behind the game's: it opens at the game's time,
    # so its 12 hours run from 13:00, not from 02:00.
    play.send(ALICE, "Proposal: More cake", "Seconds.", at=t(5, 2))
    play.send(BOB, "Votes", "FOR 2", at=t(5, 2, 10))
    play.send(ADMIN, "Votes", "FOR 2", at=t(5, 2, 20))
    [second] = [m for m in play.state()["matters"] if m["number"] == 2]
    assert (second["opened_at"], second["status"]) == (t(5, 13), "pending")
    play.tick(t(6, 0, 59))
    assert [m["status"] for m in play.state()["matters"]] == ["enacted", "pending"]
    play.tick(t(6, 1))
    assert [m["status"] for m in play.state()["matters"]] == ["enacted", "enacted"]
    play.verify()


def test_tick_into_the_future_is_refused_while_the_daemon_holds_the_game(tmp_path, new_database_url):
    play = new_game(tmp_path, new_database_url)
    play.send(ALICE, "Join", at=t(5, 0, 10))
    later = iso(datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=2))
    assert RUNNER.invoke(app, ["tick", "--at", later, "--game", str(play.dir)]).exit_code == 0
    daemon = Daemon(play.dir)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ nomic: INFO: ready\n", daemon.log[-1])  # log lines say when
    try:
        further = iso(datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=3))
        result = RUNNER.invoke(app, ["tick", "--at", further, "--game", str(play.dir)])
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", REFUSED)
        assert RUNNER.invoke(app, ["tick", "--at", t(5, 2), "--game", str(play.dir)]).exit_code == 0  # the past: allowed
    finally:
        assert daemon.stop() == 0
    assert RUNNER.invoke(app, ["tick", "--at", further, "--game", str(play.dir)]).exit_code == 0  # stopped: allowed


def test_a_second_daemon_on_a_game_is_refused_in_one_line(tmp_path, new_database_url):
    """Issue 31: one daemon per game; the second ``nomic serve`` says so and exits 2, leaving the first alone."""
    play = new_game(tmp_path, new_database_url)
    daemon = Daemon(play.dir)
    try:
        second = subprocess.run([sys.executable, "-m", "nomic", "serve", "--game", str(play.dir)],
                                capture_output=True, text=True, timeout=120)
        assert (second.returncode, second.stdout, second.stderr.splitlines()[-1]) == (
            2, "", f"nomic: another daemon (nomic serve or nomic host serve) holds the game in {play.dir} "
                   "(serve.lock): one daemon per game")
        assert daemon.proc.poll() is None  # the first one serves on
    finally:
        assert daemon.stop() == 0
