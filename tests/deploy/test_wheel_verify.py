"""A stranger's check: ``nomic verify`` from a fresh virtual environment with only the built wheel
installed checks a public export of a played game, and names the one entry altered in it."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.deploy.test_wheel import venv  # noqa: F401  # the fixture: the wheel in a fresh venv
from tests.site.game import play_days

pytestmark = [pytest.mark.slow, pytest.mark.sqlite_only]
STRANGER = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the installed wheel, not this checkout


def verify(venv: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([venv / "bin/nomic", "verify", out], cwd=out.parent, env=STRANGER,
                          capture_output=True, text=True, timeout=300)


def test_the_installed_package_verifies_an_export_and_names_an_altered_entry(venv, make_play, tmp_path):  # noqa: F811
    play = make_play(day_mode="fixed")
    play_days(play)
    out = tmp_path / "public"
    play.cli("export", "--public", str(out))
    where = subprocess.run([venv / "bin/python", "-c", "import nomic.verify; print(nomic.verify.__file__)"],
                           env=STRANGER, cwd=tmp_path, capture_output=True, text=True, timeout=60).stdout
    assert where.startswith(str(venv)), where
    done = verify(venv, out)
    assert done.returncode == 0, done
    count = json.loads((out / "game.json").read_text())["entries"]
    assert done.stdout.startswith(f"{count} entries check, head "), done.stdout

    lines = (out / "record.jsonl").read_bytes().splitlines(keepends=True)
    altered = json.loads(lines[5])
    lines[5] = lines[5].replace(b'"at":"2026', b'"at":"2027', 1)
    (out / "record.jsonl").write_bytes(b"".join(lines))
    done = verify(venv, out)
    assert (done.returncode, done.stderr) == (1, f"nomic: entry {altered['seq']} does not check: its content "
                                                 f"does not hash to {altered['hash']}\n")
