"""A plain install works: the wheel carries its templates, static assets, defaults and rules texts.

The wheel is built from this checkout and installed (without its dependencies, which the
test's own environment provides) into a fresh virtual environment; a game made there
answers mail and renders its site, with every file read from the installed package.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import make_mail

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = [
    pytest.mark.slow,  # deployment: builds and installs the wheel
    pytest.mark.sqlite_only,  # one SQLite game is enough to show the package is whole
]


def run(*argv: str | Path, cwd: Path) -> str:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp, ROOT, cwd=tmp)
    [wheel] = tmp.glob("humble_scribe-*.whl")
    run(sys.executable, "-m", "venv", "--system-site-packages", tmp / "venv", cwd=tmp)
    run(tmp / "venv/bin/python", "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--force-reinstall", wheel, cwd=tmp)
    return tmp / "venv"


def test_the_installed_package_answers_mail_and_renders_the_site(venv: Path, tmp_path: Path) -> None:
    python, nomic = venv / "bin/python", venv / "bin/nomic"
    where = run(python, "-c", "import nomic, rendering, storage; print(nomic.__file__, rendering.TEMPLATES)",
                cwd=tmp_path)
    assert str(ROOT) not in where and str(venv) in where, where
    config = tmp_path / "game.toml"
    config.write_text('[game]\naddress = "ths@imperial.test"\nlist_address = "players@imperial.test"\n'
                      '[auth]\nmode = "none"\n')
    run(nomic, "init", tmp_path / "game", "--config", config, cwd=tmp_path)
    mail = tmp_path / "proposal.eml"
    mail.write_bytes(make_mail("alice@wonder.land", "Proposal: Free cake", "Cake for all."))
    out = run(nomic, "ingest", "--game", tmp_path / "game", "--at", "2026-01-05T01:00:00Z", mail, cwd=tmp_path)
    assert "recorded as Proposal 1" in out
    answers = [m for m in json.loads(run(nomic, "outbox", "--json", "--game", tmp_path / "game", cwd=tmp_path))
               if m["kind"] == "answer"]
    assert [a["to"] for a in answers] == [["alice@wonder.land"]]
    run(nomic, "build", "--game", tmp_path / "game", "--out", tmp_path / "site", cwd=tmp_path)
    assert "Free cake" in (tmp_path / "site" / "index.html").read_text()
    assert (tmp_path / "site" / "static" / "style.css").read_text().strip()
