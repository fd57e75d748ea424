"""Shared helpers for the benchmarks: a game directory, ordinary mail, timing, the machine."""
from __future__ import annotations

import math
import os
import platform
import resource
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

# the repository first: the scripts import nomic/engine/mailer from it (and bench/engine.py must not
# shadow the engine package)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nomic.create import create  # noqa: E402
from nomic.game import Game  # noqa: E402
from storage import iso  # noqa: E402
from storage.config import default_text  # noqa: E402

GAME = "ths@imperial.test"
LIST = "players@imperial.test"
EMPEROR = "tie@imperial.test"
START = "2026-01-05T00:00:00Z"
PARAGRAPH = ("Whereas the Empire thrives on order, and order on clear rules, this Proposal asks "
             "that every citizen be heard before the Emperor speaks, and that the Scribe keep "
             "the record faithfully. ")
BODY = "\r\n".join([PARAGRAPH.strip()] * 6) + "\r\n"


def game_toml(seed: str = "bench-seed", database_url: str = "", day_mode: str = "emperor") -> str:
    """The default game with authentication off (benchmark mail carries no DKIM or Authentication-Results)."""
    text = default_text()
    text = text.replace('mode = "authres"', 'mode = "none"', 1)
    text = text.replace('seed = "change-me"', f'seed = "{seed}"', 1)
    text = text.replace('day_mode = "emperor"', f'day_mode = "{day_mode}"', 1)
    return text.replace('database_url = ""', f'database_url = "{database_url}"', 1)


def new_game(root: Path, name: str = "game", day_mode: str = "emperor") -> Game:
    cfg = root / f"{name}.toml"
    cfg.write_text(game_toml(database_url=os.environ.get("NOMIC_BENCH_DB", ""), day_mode=day_mode))
    return create(root / name, cfg)


def player(i: int) -> str:
    return f"p{i}@players.test"


def mail(i: int, sender: str | None = None) -> bytes:
    """Message ``i``: a Proposal (two in three) or a list post, about 1.5 KB like ordinary mail."""
    who = sender or player(i % 1000)
    to, subject = (GAME, f"Proposal: Order of the realm number {i}") if i % 3 else \
        (LIST, f"Re: on the order of the realm ({i})")
    return (f"From: Player {i % 1000} <{who}>\r\nTo: {to}\r\nSubject: {subject}\r\n"
            f"Message-ID: <bench-{i}@players.test>\r\nDate: Mon, 05 Jan 2026 01:00:00 +0000\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=\"utf-8\"\r\n"
            f"Content-Transfer-Encoding: 7bit\r\n\r\n{BODY}").encode()


@contextmanager
def timed() -> Iterator[list[float]]:
    """``with timed() as t: ...`` then t[0] is the wall time in seconds, t[1] this process's CPU
    seconds meanwhile (all its threads)."""
    box: list[float] = []
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        yield box
    finally:
        box += [time.perf_counter() - t0, time.process_time() - c0]


def proc_cpu_seconds(pid: int) -> float:
    """The user and system CPU another process has used so far (Linux: /proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds() -> float:
    """CPU of the waited-for child processes so far (take the difference around a subprocess.run)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def rate(n: int, seconds: float, cpu: float, unit: str = "msgs") -> str:
    """"1,234 msgs/s (0.81 ms CPU each)": a rate with its CPU per unit beside it, which the
    machine's load sways far less than the rate."""
    return f"{n / seconds:,.0f} {unit}/s ({cpu / max(1, n) * 1000:.2f} ms CPU each)"


def took(seconds: float, cpu: float, digits: int = 1, unit: str = "ms") -> str:
    """"21.3 ms (20.9 ms CPU)": a time (in ``unit``, "ms" or "s") with this process's CPU meanwhile
    beside it."""
    scale = 1000 if unit == "ms" else 1
    return f"{seconds * scale:,.{digits}f} {unit} ({cpu * scale:,.{digits}f} {unit} CPU)"


def growth(sizes: list[int], costs: list[float]) -> float:
    """The growth exponent from the smallest size to the largest: log(cost ratio) / log(size ratio).
    For a total cost, 1.0 is a flat cost per unit and 2.0 a quadratic one; for a per-unit
    cost, 0.0 is flat."""
    if len(sizes) < 2 or sizes[0] == sizes[-1] or min(costs[0], costs[-1]) <= 0:
        return float("nan")
    return math.log(costs[-1] / costs[0]) / math.log(sizes[-1] / sizes[0])


def sizes(text: str) -> list[int]:
    """``--n 10000,50000`` as [10000, 50000], smallest first."""
    return sorted(int(v) for v in text.split(","))


@dataclass
class Conditions:
    """The machine and its load when a benchmark started, to print beside its figures."""
    load_before: float = field(default_factory=lambda: os.getloadavg()[0])

    def line(self) -> str:
        return f"{machine()}; load average {self.load_before:.1f} before, {os.getloadavg()[0]:.1f} after"


def peak_rss_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident memory (Linux reports KiB)."""
    return resource.getrusage(who).ru_maxrss / 1024


def machine() -> str:
    """The CPU model and the number of cores."""
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor() or "unknown CPU")
    return f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()}, {platform.system()}"


def report(title: str, rows: list[tuple[str, str]], since: Conditions) -> None:
    """The figures of one benchmark, under the machine and its load average before and after."""
    print(f"== {title}\n  [{since.line()}]")
    for label, value in rows:
        print(f"  {label:<52} {value}")


def verdict(ok: bool) -> str:
    return "meets target" if ok else "MISSES target"


__all__ = ["Game", "create", "iso", "GAME", "LIST", "EMPEROR", "START", "game_toml", "new_game", "player", "mail",
           "timed", "peak_rss_mb", "machine", "report", "verdict", "proc_cpu_seconds", "children_cpu_seconds",
           "rate", "took", "growth", "sizes", "Conditions"]
