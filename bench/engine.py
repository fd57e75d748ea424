"""Engine: the end of a game day with P players (default 10,000) and S submissions (default 1,000)
judged that day. The state is built directly with the engine's models, then the day-end clock step
is timed (engine.apply: rules 9-22 at day end, pure, no database). Baseline, same run: a JSON round
trip of the same state (what storing and loading one snapshot costs).
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from common import Conditions, new_game, player, report, timed, took, verdict

import engine as rules
from engine.inputs import ClockStep
from engine.imperial.state import ImperialPlayer, ImperialState, Submission


def busy_day(state: ImperialState, players: int, submissions: int) -> None:
    """P players with varied scores and profiles; S submissions judged today, two in three accepted."""
    at = state.day_started
    state.players = [ImperialPlayer(email=player(i), name=f"Player {i}", score=(i * 7) % 40,
                            profile=(i * 2654435761) % 65536) for i in range(players)]
    state.submissions = [Submission(number=n + 1, kind="proposal", author=player(n % players),
                                    title=f"Order {n + 1}", text="Be it resolved.",
                                    status="accepted" if n % 3 else "rejected", received_at=at,
                                    judged_at=at, judged_day=state.game_day, day=state.game_day)
                         for n in range(submissions)]


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--submissions", type=int, default=1_000)
    args = ap.parse_args(argv)
    since = Conditions()
    with tempfile.TemporaryDirectory() as tmp:
        g = new_game(Path(tmp), day_mode="fixed")
    state = g.new_state()
    busy_day(state, args.players, args.submissions)
    due = rules.next_due(state, g.engine_config)
    if due is None:
        raise SystemExit("no day end is due")
    with timed() as t_base:
        ImperialState.model_validate_json(state.model_dump_json())
    with timed() as t_day:
        events = rules.apply(state, ClockStep(at=due), g.engine_config)
    if not any(e.kind == "day_end" for e in events):
        raise SystemExit(f"the clock step did not end the day: {[e.kind for e in events]}")
    r = {"day_s": t_day[0], "base_s": t_base[0], "day_cpu": t_day[1], "base_cpu": t_base[1]}
    report(f"day end with {args.players:,} players, {args.submissions:,} submissions judged", [
        ("day-end clock step (engine.apply)", f"{took(t_day[0], t_day[1])}, {len(events)} events  "
         f"{verdict(t_day[0] < 1)} (< 1 s)"),
        ("baseline: JSON round trip of the state", took(t_base[0], t_base[1])),
        ("ratio (day end / round trip)", f"{t_day[0] / t_base[0]:.2f} ({t_day[1] / max(1e-9, t_base[1]):.2f} by CPU)"),
    ], since)
    return r


if __name__ == "__main__":
    main()
