"""Players: the same stream of ordinary messages folded in games of 10 and 1,000 players (issue 33:
a message's cost flat in the number of players).

Each game starts from a stored state whose players joined before the timed part (written directly,
as `bench/fanout.py` writes its subscribers: no other history, so the games differ in their players
alone). In both games the stream comes from 10 of the players, spread over the whole list of
players (the last, the 100th from last, ...; in the game of 10, all ten), so a look-up that walks
the list is not hidden by senders at its head: the same messages (``common.mail``: two in three
Proposals, one in three list posts), the same senders' histories. Those 10 are the list's members
in both games, so the mail does not depend on the number of players either: each Proposal's answer
and its announcement to the Emperor and the list, each list post's copies, all to the same 10
members. Rule 4's queue limit is lifted in both games, so every Proposal is pending, not ignored.
The messages come a minute apart: each sender sends 6 an hour, under the answers' hourly limit.

Timed: the first fold of the stream (`Game.process`, as `nomic serve`'s processor folds), without
mail (``send=False``) and with it composed and queued, each in a fresh game; CPU per entry, the
median of ``--rounds`` rounds that alternate the order of the games (each ratio taken within its
round, the median of those printed), after a warm-up fold. Target:
CPU per entry in the game of 1,000 within 1.2x of the game of 10, with and without mail.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from common import Conditions, Game, growth, mail, new_game, player, rate, report, sizes, timed, verdict
from sqlmodel import Session

from engine.imperial.profiles import profile_from_email
from engine.imperial.state import ImperialPlayer, ImperialState
from engine.state import Subscriber
from storage.tables import Snapshot

AT = datetime(2026, 1, 5, 1, tzinfo=timezone.utc)
SENDERS = 10
TARGET = 1.2


def senders(players: int) -> list[str]:
    """The stream's senders: ``SENDERS`` players spread over the list, its last one first."""
    step = max(1, players // SENDERS)
    return [player(players - 1 - k * step) for k in range(min(SENDERS, players))]


def seated(state: ImperialState, players: int) -> None:
    """``players`` players joined on day 1 (as rule 2 seats them), the senders the list's members."""
    for i in range(players):
        email = player(i)
        state.players.append(ImperialPlayer(email=email, name=state.name_for(email, f"Player {i}"),
                                            profile=profile_from_email(email), joined_day=state.game_day))
    state.subscribers += [Subscriber(email=e, since=AT.replace(hour=0)) for e in senders(players)]
    state.variables["queue_limit"] = 10**6  # rule 4: no Proposal ignored for its author's queue


def game_of(root: Path, name: str, players: int, n: int) -> Game:
    """A game of ``players`` players with the stream of ``n`` messages journaled, not yet folded."""
    game = new_game(root, name)
    state = game.state()
    assert isinstance(state, ImperialState)
    seated(state, players)
    with Session(game.db) as s:
        s.merge(Snapshot(seq=0, state=state.model_dump_json()))
        s.commit()
    game = Game(game.config.dir)  # loads the stored state, its index built from it as after a restart
    who = senders(players)
    for start in range(0, n, 500):
        game.inbox.receive_many([game.inbox.prepare(mail(i, who[i % len(who)]), AT + timedelta(minutes=i), "bench",
                                                     "bench@players.test", [])
                                 for i in range(start, min(n, start + 500))])
    return game


def fold(root: Path, name: str, players: int, n: int, send: bool) -> tuple[float, float]:
    """(seconds, CPU seconds) of the first fold of the stream in a fresh game of ``players``."""
    game = game_of(root, name, players, n)
    state = game.state()
    if len(state.players) < players or state.player(player(players - 1)) is None:  # the look-ups built, untimed
        raise SystemExit(f"the game of {players} players has {len(state.players)}")
    with timed() as t:
        game.process(send=send)
    if game.journal_length() != n or not game.state().submissions:
        raise SystemExit(f"the fold of {n} messages in the game of {players} players recorded no Proposal")
    return t[0], t[1]


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=sizes, default=[10, 1_000], help="players in each game, e.g. 10,1000")
    ap.add_argument("--n", type=int, default=2_000, help="messages in the stream")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, alternating the order of the games")
    ap.add_argument("--quick", action="store_true", help="200 messages, one round")
    args = ap.parse_args(argv)
    n, rounds = (200, 1) if args.quick else (args.n, args.rounds)
    since = Conditions()
    times: dict[tuple[int, bool], list[tuple[float, float]]] = {(p, m): [] for p in args.players for m in (False, True)}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for send in (False, True):  # warm-up: imports, templates compiled, caches filled
            fold(root, f"warm{send}", args.players[0], 30, send)
        for rnd in range(rounds):
            for p in (args.players if rnd % 2 == 0 else args.players[::-1]):
                for send in (False, True):
                    times[p, send].append(fold(root, f"r{rnd}p{p}{send}", p, n, send))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in times.items()}
    small, big = args.players[0], args.players[-1]
    rows = []
    for send, what in ((False, "without mail"), (True, "with mail (answers, announcements, list copies)")):
        for p in args.players:
            rows.append((f"{p:,} players: fold {what}", rate(n, *med[p, send], "entries")))
    r: dict[str, float] = {}
    for send, what in ((False, "without mail"), (True, "with mail")):
        ratio = statistics.median(b[1] / a[1] for a, b in zip(times[small, send], times[big, send]))
        exponent = growth([small, big], [1.0, ratio])
        r |= {f"ratio_{what.replace(' ', '_')}": ratio, f"growth_{what.replace(' ', '_')}": exponent}
        rows += [(f"ratio {what} ({big:,} / {small:,} players, CPU an entry)",
                  f"{ratio:.2f}  {verdict(ratio <= TARGET)} (within {TARGET}x)"),
                 (f"growth exponent of CPU an entry {what}, {small:,} to {big:,} players",
                  f"{exponent:.3f} (0.000: flat; within {TARGET}x is <= {growth([small, big], [1, TARGET]):.3f})")]
    report(f"the same {n:,} messages from {SENDERS} senders folded in games of "
           f"{' and '.join(f'{p:,}' for p in args.players)} players, medians of {rounds} round(s)", rows, since)
    return r


if __name__ == "__main__":
    main()
