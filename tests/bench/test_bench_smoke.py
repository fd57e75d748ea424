"""Each benchmark runs end to end at a tiny size and prints its figures (no timed assertions)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"

RUNS = {
    "intake.py": (["--n", "30"], ["bare aiosmtpd LMTP", "nomic serve --lmtp", "ratio (nomic serve / bare)"]),
    "engine.py": (["--players", "200", "--submissions", "30"], ["day-end clock step", "ratio (day end"]),
    "replay.py": (["--n", "60"], ["stdlib email parsing alone", "first fold (Game.process",
                                  "replay --verify from parsed commands", "replay --verify --reparse",
                                  "its peak memory"]),
    "process.py": (["--n", "30"], ["fold with mail composed and queued", "ratio (with mail / without)",
                                   "ratio (game / stdlib)"]),
    "site.py": (["--submissions", "40", "--players", "10"], ["full build", "bare Jinja", "rebuild after one"]),
    "fanout.py": (["--n", "500"], ["500 deliveries", "bare bulk INSERT"]),
    "drain.py": (["--n", "30", "--rounds", "1"], ["bare smtplib loop", "run_once, one connection",
                                                  "run_once, four connections", "ratio (run_once / bare loop)"]),
    "blognomic.py": (["--players", "50", "--ballots", "200", "--votes", "20"],
                     ["a message with no command", "a new vote, folded", "ratio (vote / no command)"]),
    "bnomic.py": (["--players", "50", "--proposals", "20", "--runs", "1"],
                  ["a message with no command", "the end of Voting (7 steps, scoring)", "ratio (end of Voting", "one C pass counting every vote"]),
    "host.py": (["--games", "3", "--messages", "30"], ["nomic serve, one game", "ratio (host / one game)",
                                                       "memory per idle game", "start of a host"]),
    "hostile.py": (["--fuzz", "20", "--runs", "1", "--cfjs", "100", "--votes", "5"],
                   ["nested lists, 12,000 deep", "worst of 20 fuzz messages", "worst message: journal + fold + answer",
                    "a vote among 100 pending CfJs: apply + next_due",
                    "a vote among 100 pending CfJs: journal + fold + answer"]),
}


@pytest.mark.sqlite_only  # the benchmarks make their own SQLite games
@pytest.mark.parametrize("script", sorted(RUNS))
def test_benchmark_runs(script: str, tmp_path: Path) -> None:
    args, figures = RUNS[script]
    out = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True,
                         cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr
    for figure in figures:
        assert figure in out.stdout, out.stdout
