"""The packages stack one way and the code type-checks (docs/architecture.md).

Both run the real tools over the whole tree, with the settings in pyproject.toml.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.sqlite_only  # about the code, not the database: once is enough


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_the_import_contracts_are_kept() -> None:
    done = run(str(Path(sys.executable).parent / "lint-imports"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_code_type_checks() -> None:
    done = run(sys.executable, "-m", "mypy")
    assert done.returncode == 0, done.stdout + done.stderr
