"""The files in deploy/ work as shipped: backups restore to a verified game, units are valid systemd."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from storage.config import Config

pytestmark = pytest.mark.slow  # deployment: backups, systemd units

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
NOMIC = shutil.which("nomic") or str(Path(sys.executable).with_name("nomic"))


def _backup(game: Path, dest: Path) -> Path:
    env = {**os.environ, "NOMIC": NOMIC, "NOMIC_PYTHON": sys.executable, "NOMIC_BACKUP_KEEP": "2"}
    out = subprocess.run(["bash", str(DEPLOY / "nomic-backup"), str(game), str(dest)], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    (made,) = [p for p in dest.iterdir() if p.name in out.stdout]
    return made


def test_a_backup_restores_to_the_same_game_and_verifies(play, tmp_path, pg_server):
    play.propose("alice@wonder.land", "Free cake")
    play.propose("bob@x.org", "No cake")
    play.judge("Accept 1")
    before = play.state()
    backup = _backup(play.dir, tmp_path / "backups")
    assert (backup / "game.toml").read_text() == (play.dir / "game.toml").read_text()
    assert oct((backup / "game.toml").stat().st_mode & 0o777) == "0o600"  # it holds the seed

    play.judge("Reject 2", at="2026-01-05T03:00:00Z")  # after the backup: not in it
    restored = tmp_path / "restored"
    restored.mkdir()
    toml = (backup / "game.toml").read_text()
    if (backup / "game.db").exists():
        assert "replayed state matches the stored state" in (backup / "verify.txt").read_text()
        shutil.copy(backup / "game.db", restored / "game.db")
    else:
        new_url = pg_server.create_database(f"restored_{os.getpid()}")
        subprocess.run(["pg_restore", "--no-owner", "-d", "postgresql://" + new_url.split("://", 1)[1],
                        str(backup / "game.pgdump")], check=True, capture_output=True)
        toml = toml.replace(Config.load(play.dir).database_url, new_url)
    (restored / "game.toml").write_text(toml)
    assert "replayed state matches" in _nomic("replay", "--verify", "--game", str(restored))
    assert json.loads(_nomic("state", "--json", "--game", str(restored))) == before


def _nomic(*args: str) -> str:
    out = subprocess.run([NOMIC, *args], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_backups_are_kept_to_the_configured_number(play, tmp_path):
    dest = tmp_path / "backups"
    for day in range(3):
        dest.mkdir(exist_ok=True)
        (dest / f"2026010{day}T000000Z").mkdir()
    newest = _backup(play.dir, dest)
    assert sorted(p.name for p in dest.iterdir()) == ["20260102T000000Z", newest.name]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_systemd_units_are_valid_and_run_real_nomic_commands(tmp_path):
    for unit in sorted((DEPLOY / "systemd").iterdir()):
        text = unit.read_text().replace("/opt/humble-scribe/venv/bin/nomic", NOMIC) \
                               .replace("/opt/humble-scribe/deploy", str(DEPLOY))
        (tmp_path / unit.name).write_text(text)
        if unit.suffix == ".service":
            assert re.search(r"^Restart=", text, re.M) or "Type=oneshot" in text
            _options_exist(re.search(r"^ExecStart=(.*)$", text, re.M)[1].split())
    out = subprocess.run(["systemd-analyze", "verify", *sorted(str(p) for p in tmp_path.iterdir())],
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stderr == "", out.stderr


def _options_exist(argv: list[str]) -> None:
    """Every --option in a unit's nomic command line is one that nomic knows."""
    if argv[0] != NOMIC:
        return
    words = [a for a in argv[1:3] if a.isalpha()]  # the command: "serve", or "host serve"
    help_text = subprocess.run([NOMIC, *words, "--help"], capture_output=True, text=True).stdout
    for opt in (a for a in argv[1 + len(words):] if a.startswith("--")):
        assert opt in help_text, f"nomic {argv[1]} has no option {opt}"
