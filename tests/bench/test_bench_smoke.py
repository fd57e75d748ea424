"""Each benchmark runs end to end at a tiny size and prints its figures (no timed assertions)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs every benchmark end to end

BENCH = Path(__file__).resolve().parents[2] / "bench"

RUNS = {
    "commits.py": (["--n", "5", "--rounds", "2"], ["one game: 4 messages an append", "4 games, a thread each, at once",
                                                   "4 games, one thread, in turn", "CPU ratio (a thread a game / one game)",
                                                   "CPU ratio (one thread, in turn / one game)", "load average"]),
    "intake.py": (["--n", "30", "--repeat", "1", "--clients", "1,4"],
                  ["bare aiosmtpd LMTP", "durable sink (group commit", "nomic serve, until the last entry folded",
                   "ratio (nomic serve folded / durable sink)", "ratio (nomic serve / bare)", "load average",
                   "ms server CPU each: intake ", "CPU a message, durable sink / nomic's intake"]),
    "engine.py": (["--players", "200", "--submissions", "30"], ["day-end clock step", "ratio (day end", "ms CPU)",
                                                                "by CPU)", "load average"]),
    "replay.py": (["--n", "30,60,90"], ["stdlib email parsing alone", "first fold (Game.process",
                                        "ratio (first fold / stdlib parsing alone)",
                                        "replay --verify's work in process", "ratio (replay --verify / stdlib parsing alone)",
                                        "replay --verify --reparse", "within 1.2x per entry", "its peak memory",
                                        "growth exponent of CPU, 30 to 90 entries", "step 30 to 60 entries",
                                        "step 60 to 90 entries", "msgs/s (", "load average",
                                        "the median of its 5,000-entry chunks", "the first fold's median chunk"]),
    "players.py": (["--quick"], ["10 players: fold without mail", "1,000 players: fold without mail",
                                 "10 players: fold with mail", "1,000 players: fold with mail",
                                 "ratio without mail (1,000 / 10 players, CPU an entry)",
                                 "ratio with mail (1,000 / 10 players, CPU an entry)",
                                 "growth exponent of CPU an entry without mail, 10 to 1,000 players",
                                 "growth exponent of CPU an entry with mail, 10 to 1,000 players",
                                 "within 1.2x", "ms CPU each", "load average"]),
    "process.py": (["--n", "20,40", "--players", "10"], ["fold with mail composed and queued", "ratio (with mail / without)",
                                                         "ratio (game / stdlib)", "growth exponent of CPU, 20 to 40",
                                                         "10 (10 list members)", "CPU an entry with mail, 40 / 20"]),
    "site.py": (["--submissions", "40,80", "--players", "10", "--days", "20,40"],
                ["full build", "bare Jinja", "rebuild after one", "growth exponent of the rebuild's CPU, 40 to 80",
                 "process 1: full build, bare Jinja", "ratio (full build / bare Jinja), by CPU, median",
                 "growth exponent of rebuild / reference, 40 to 80", "median of 5 pairs of processes",
                 "the same pages as one bundle", "search index again after one new Proposal",
                 "growth exponent of the search re-index's CPU", "20 days of events and list posts",
                 "growth exponent of the rebuild's CPU, 20 to 40 days"]),
    "fanout.py": (["--n", "500"], ["500 deliveries", "bare bulk INSERT", "s CPU)", "by CPU)", "load average"]),
    "drain.py": (["--n", "30", "--rounds", "1"], ["ratio, one connection (run_once / bare loop)",
                                                  "ratio, four connections (run_once / 4 bare loops)",
                                                  "run_once, four connections", "ms CPU each"]),
    "blognomic.py": (["--players", "50", "--ballots", "200", "--votes", "20"],
                     ["a message with no command", "a new vote, folded", "ratio (vote / no command)", "ms CPU)",
                      "by CPU)", "load average"]),
    "bnomic.py": (["--players", "50", "--proposals", "20", "--runs", "1"],
                  ["a message with no command", "the end of Voting (7 steps, scoring)", "ratio (end of Voting",
                   "one C pass counting every vote", "load average"]),
    "host.py": (["--games", "3", "--messages", "30", "--rounds", "2", "--week", "7"],
                ["nomic serve, one game", "ratio (host / one game)", "memory per idle game (a week of play)",
                 "start of a host", "medians of 2 rounds", "server CPU each"]),
    "hostile.py": (["--fuzz", "20", "--runs", "1", "--cfjs", "100", "--votes", "5"],
                   ["nested lists, 12,000 deep", "worst of 20 fuzz messages", "the worst fuzz message",
                    "a 99,000-character 'On' line, then 'wrote:'", "worst message: journal + fold + answer",
                    "a vote among 100 pending CfJs: apply + next_due",
                    "a vote among 100 pending CfJs: journal + fold + answer", "ms CPU)", "x by CPU)",
                    "load average"]),
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
