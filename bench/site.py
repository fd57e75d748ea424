"""Site: a full build of a game with S submissions (default 5,000 and 20,000) and P players (default
1,000); the Pagefind search index of that site (``nomic build`` makes it after the pages), its time and
CPU (Pagefind's too) against the build's and against the same pages indexed as one bundle (the index
before shards), and its size; then the rebuild after one new Proposal (only changed pages are rendered
and written; the median of three, after a first that opens a new block of numbers), and the search
index's re-index after one new Proposal (only the shards with a page written: the median of three,
each against a fixed Pagefind run just before it: most of a re-index is Pagefind's own process, whose
CPU moves by 30% from run to run), with the growth exponents of both CPUs (and of the re-index against
its reference) from the smallest game to the largest. A shard holds a block of 1,000 submissions: sizes
just under a multiple of 1,000 (1,980, 7,980) put the new Proposals in a full block, the dearest
re-index. The rebuilds run in fresh processes, each game's in turn with the others' (``Processes``);
in the processes of the games of S submissions, the full build is set against bare Jinja rendering and
writing as many pages of the same mean size with no game logic, both by CPU in the same process, half
of bare Jinja just before the build and half just after it: the median of three processes' ratios is
judged. The rebuild's growth is taken pair by pair, the two games' processes of a round run one after
the other. Then the same rebuild in games of the fewest submissions with D days of play before
(default 1,000 and 4,000; each day a chime, a temperature change, a draw and a list post, archived as
the list sent it), with the growth exponent of its CPU from the fewest days to the most.
``--quick``: 1,000 submissions and 100 players, 250 and 1,000 days; ``--rebuilds``: the rebuilds alone
(no bare Jinja, no search index). Every build runs as the daemon runs it, in ``nomic.tuning.no_collection()``.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from common import (LIST, Conditions, children_cpu_seconds, growth, mail, new_game, player, report, sizes, timed,
                    verdict)
from jinja2 import Environment
from sqlmodel import Session

from engine.state import LedgerEntry
from engine.imperial.state import ImperialPlayer, ImperialState, Submission
from nomic import site, tuning
from nomic.game import Game
from nomic.website.memory import SiteMemory
from nomic.website.search import INDEX, SearchIndex, index, mark
from nomic.website.writer import Manifest, WriteReport, manifest_pages
from storage import Journal, iso, set_meta
from storage.derived import add_events
from storage.tables import OutboxMessage, Snapshot

BARE = Environment(autoescape=True).from_string(
    "<!doctype html><html><head><title>{{ title }}</title></head><body><h1>{{ title }}</h1>"
    "<table>{% for r in rows %}<tr><td>{{ r.n }}</td><td>{{ r.name }}</td><td>{{ r.score }}</td></tr>"
    "{% endfor %}</table></body></html>")
BARE_PROCESSES = 3  # processes of each game of S submissions that time bare Jinja too (``Processes``)


def long_game(state: ImperialState, players: int, submissions: int, days: int = 50) -> None:
    """P players; S judged submissions spread over ``days`` days, each accepted one scoring."""
    state.players = [ImperialPlayer(email=player(i), name=f"Player {i}", score=(i * 7) % 40,
                            profile=(i * 2654435761) % 65536) for i in range(players)]
    subs, ledger = [], []
    for n in range(1, submissions + 1):
        day = 1 + (n - 1) * days // submissions
        at = state.day_started + timedelta(days=day - 1, hours=1)
        accepted = n % 3 != 0
        subs.append(Submission(number=n, kind="proposal", author=player(n % players), title=f"Order {n}",
                               text="Be it resolved that the realm be orderly.\n" * 3,
                               status="accepted" if accepted else "rejected", received_at=at, day=day,
                               judged_at=at, judged_day=day, message_id=f"<s{n}@players.test>"))
        if accepted:
            ledger.append(LedgerEntry(n=len(ledger) + 1, at=at, day=day, player=player(n % players), delta=3,
                                      score=3, cause="accepted", rule=3, submission=n))
    state.submissions, state.ledger = subs, ledger
    state.game_day = days + 1
    state.day_started += timedelta(days=days)


def list_post(i: int) -> bytes:
    """List post ``i``: a reply to the one before it, but every fifth starts a thread."""
    reply = f"In-Reply-To: <post-{i - 1}@players.test>\r\nReferences: <post-{i - 1}@players.test>\r\n" \
        if i % 5 else ""
    return (f"From: Player {i % 100} <{player(i % 100)}>\r\nTo: {LIST}\r\nSubject: Re: the realm ({i // 5})\r\n"
            f"Message-ID: <post-{i}@players.test>\r\n{reply}Date: Mon, 05 Jan 2026 01:00:00 +0000\r\n"
            f"Content-Type: text/plain; charset=\"utf-8\"\r\n\r\nOn the order of the realm, post {i}.\r\n").encode()


def history(g: Game, state: ImperialState, days: int) -> None:
    """Journal ``days`` past days, each a clock step with its chime, a temperature change and a draw,
    and as many list posts, archived as the list sent them; the state, as folded up to then, is
    ``state``. Written straight into the database: folding them would take minutes."""
    start = state.day_started - timedelta(days=days)
    items: list = []
    for d in range(days):
        at = start + timedelta(days=d)
        items += [("clock", at, f"clock:{iso(at)}", None, {}),
                  ("mail", at + timedelta(hours=1), f"post-{d}", list_post(d), {})]
    seqs = Journal(g.db).append(items)
    events, outbox = [], []
    for d in range(days):
        clock, post = seqs[2 * d], seqs[2 * d + 1]
        at = start + timedelta(days=d)
        events += [{"seq": clock, "kind": "temperature", "data": json.dumps(
                        {"old": d % 40, "new": (d + 1) % 40, "cause": "the day ends", "culprit": None})},
                   {"seq": clock, "kind": "draw", "data": json.dumps(
                        {"label": f"day {d}", "low": 1, "high": 6, "result": 1 + d % 6})},
                   {"seq": clock, "kind": "day_end", "data": json.dumps(
                        {"day": d + 1, "new_day": d + 2, "at": at.isoformat(), "chime": True,
                         "summary": {"notes": [f"{player(d % 100)} scored"], "temperature": (d + 1) % 40,
                                     "scores": {player(d % 100): d % 40}}})},
                   {"seq": post, "kind": "list_post", "data": json.dumps(
                        {"sender": player(d % 100), "subject": f"Re: the realm ({d // 5})",
                         "message_id": f"<post-{d}@players.test>", "accepted": True, "reason": None})}]
        outbox.append(OutboxMessage(seq=post, kind="list", recipients="[]", mail_from=LIST, status="sent",
                                    subject=f"Re: the realm ({d // 5})", message_id=f"<post-{d}@players.test>",
                                    raw=list_post(d), created=iso(at + timedelta(hours=1))))
    with Session(g.db) as s:
        add_events(s.connection(), [{**e, "cause_what": None, "cause_number": None} for e in events])
        s.add_all(outbox)
        s.add(Snapshot(seq=seqs[-1], state=state.model_dump_json()))
        set_meta(s, "processed_seq", str(seqs[-1]))
        s.commit()


def bare_jinja(out: Path, pages: range, size: int) -> list[float]:
    """Wall and CPU seconds to render and write the pages numbered ``pages``, of about ``size`` bytes each,
    with bare Jinja."""
    rows = [{"n": i, "name": f"Player {i}", "score": i % 40} for i in range(max(1, size // 60))]
    out.mkdir(exist_ok=True)
    with tuning.no_collection(), timed() as t:  # as every site build runs: the same conditions for both
        for i in pages:
            (out / f"{i}.html").write_text(BARE.render(title=f"Page {i}", rows=rows))
    return t


def indexed(run: Callable[[], SearchIndex]) -> tuple[float, float, SearchIndex]:
    """Wall and CPU seconds (this process's, and Pagefind's) of ``run()``, and what it indexed."""
    child = children_cpu_seconds()
    with timed() as t:
        done = run()
    return t[0], t[1] + children_cpu_seconds() - child, done


def disk(folder: Path) -> tuple[int, int]:
    """Files and bytes under ``folder``, each file once however many hard links it has."""
    seen = {(f.stat().st_ino, f.stat().st_size) for f in folder.rglob("*") if f.is_file()}
    return len(seen), sum(size for _, size in seen)


def one_bundle(out: Path, root: Path) -> tuple[float, float, SearchIndex]:
    """Index every indexed page of ``out`` as one bundle (one shard of them all: the index before shards)."""
    manifest = Manifest.of(manifest_pages(out))
    pages = sorted(p for members in manifest.shards.values() for p in members)
    for page in pages:
        (root / page).parent.mkdir(parents=True, exist_ok=True)
        (root / page).hardlink_to(out / page)
    mark(root, {"all": pages})
    return indexed(lambda: index(root))


def reindexes(g: Game, out: Path, memory: SiteMemory, at: datetime, root: Path) -> tuple[list[tuple[str, str]], float,
                                                                                      float]:
    """The search index again after each of three new Proposals (only the shards with a page written),
    each just after ``pagefind_reference``: its rows, the median CPU seconds, and the median ratio of
    each re-index's CPU to its reference's."""
    runs, ratios = [], []
    for k in (13, 16, 19):
        g.inbox.receive(mail(k, sender=player(1)), at)
        g.process(send=False)
        with tuning.no_collection():
            mark(out, site.build(g, out, memory=memory).shards)
        before = pagefind_reference(root / "pagefind-reference")
        runs.append(indexed(lambda: index(out)))
        ratios.append(runs[-1][1] / before)
    cpu = statistics.median(r[1] for r in runs)
    return [*[("  search index again after one new Proposal", f"{wall:.2f} s ({cpu_s:.2f} s CPU): "
               f"{done.shards} shards, {done.pages:,} pages") for wall, cpu_s, done in runs],
            ("  its CPU, median of three", f"{cpu * 1000:.0f} ms; against the Pagefind reference "
             f"{statistics.median(ratios):.2f}")], cpu, statistics.median(ratios)


def pagefind_reference(folder: Path) -> float:
    """CPU seconds (this process's and Pagefind's) of indexing the same seven small pages as one shard.
    Timed just before each re-index, it shows how fast the machine was then: most of a re-index is
    Pagefind's own process, whose CPU moves by 30% from run to run on this machine."""
    pages = [f"p{i}.html" for i in range(7)]
    if not folder.is_dir():
        (folder / INDEX).mkdir(parents=True)
        (folder / INDEX / "shards.json").write_text("[]")  # an index in place: only the marked shard is indexed
        for i, name in enumerate(pages):
            (folder / name).write_text(f"<html><body><main data-pagefind-body><h1>Proposal {i}</h1>"
                                       f"<p>{'Every player shall bake a cake on each Tuesday. ' * 80}</p></main></body></html>")
    mark(folder, {"reference": pages})
    return indexed(lambda: index(folder))[1]


def game(root: Path, submissions: int, players: int, days: int = 0,
         around: Callable[[], object] = lambda: None) -> tuple[Game, ImperialState, Path, SiteMemory, list[float],
                                                               WriteReport]:
    """A game of ``submissions`` and ``players`` (with ``days`` of events and list posts before:
    ``history``) built in full as the daemon builds it at its start, ``around()`` just before the build
    and just after it: the game, its state, the site's folder and memory, the build's wall and CPU
    seconds and its report."""
    g = new_game(root, f"s{submissions}-d{days}")
    state = g.new_state()
    long_game(state, players, submissions)
    if days:
        history(g, state, days)
    else:
        with Session(g.db) as s:
            s.add(Snapshot(seq=0, state=state.model_dump_json()))
            s.commit()
    out = root / f"site{submissions}-d{days}"
    memory = SiteMemory()  # kept across builds, as the daemon keeps its game's
    g._state = None  # the state loaded as the daemon loads it, and kept by the rebuilds (the site's memory
    # keeps its index of submissions by the state object: a state loaded again costs a first rebuild that
    # reads every submission, which the daemon pays at a restart only, with its full build)
    around()
    with tuning.no_collection(), timed() as t_full:
        full = site.build(g, out, memory=memory)
    around()
    return g, state, out, memory, t_full, full


def reference() -> float:
    """CPU seconds of a fixed piece of work: bare Jinja rendering 30 pages of 84 rows (about 5 KB each,
    the site's mean page) in memory. Timed just before each rebuild in the same process, it shows how
    fast the machine was then: the CPU of the same work moves by up to 2x over seconds to minutes on this
    machine, in step for the rebuild and this reference (docs/performance.md)."""
    rows = [{"n": i, "name": f"Player {i}", "score": i % 40} for i in range(84)]
    with tuning.no_collection(), timed() as t:
        for i in range(30):
            BARE.render(title=f"Page {i}", rows=rows)
    return t[1]


def rebuilds(g: Game, state: ImperialState, out: Path, memory: SiteMemory) -> list[tuple[list[float], WriteReport, float]]:
    """Four rebuilds after one new Proposal each (the first may open a new block of 100 numbers: the list
    pages near it change): the wall and CPU seconds and the report of each, and the CPU seconds of the
    ``reference`` just before it."""
    done = []
    for k in (1, 4, 7, 10):
        g.inbox.receive(mail(k, sender=player(1)), state.day_started + timedelta(hours=2))
        g.process(send=False)
        before = reference()
        with tuning.no_collection(), timed() as t_re:
            again = site.build(g, out, memory=memory)
        done.append((t_re, again, before))
    return done


def child(spec: str) -> None:
    """``--child S,P,D,N,B``: a game of S submissions, P players and D days built in full, then its four
    rebuilds; their wall and CPU seconds, pages rendered and written and references, as JSON on stdout.
    With N pages (not 0): bare Jinja rendering and writing N pages of B bytes too, half of them just
    before the full build and half just after it (a change of the machine's speed during the build falls
    on both sides alike), and the CPU seconds of the build and of bare Jinja's two halves."""
    submissions, players, days, pages, size = (int(v) for v in spec.split(","))
    bare: list[list[float]] = []
    halves = iter((range(pages // 2), range(pages // 2, pages)))
    with tempfile.TemporaryDirectory() as tmp:
        g, state, out, memory, t_full, full = game(
            Path(tmp), submissions, players, days,
            (lambda: bare.append(bare_jinja(Path(tmp) / "bare", next(halves), size))) if pages else lambda: None)
        done = rebuilds(g, state, out, memory)
    print(json.dumps({"pages": full.rendered, "wall": [t[0] for t, _, _ in done], "cpu": [t[1] for t, _, _ in done],
                      "rendered": [w.rendered for _, w, _ in done], "written": [w.written for _, w, _ in done],
                      "reference": [r for _, _, r in done], "build_cpu": t_full[1],
                      "bare_cpu": [t[1] for t in bare]}))


@dataclass
class Processes:
    """One game's rebuilds, each set of four in a fresh process (``child``). The CPU of the same rebuild
    moves by up to 2x from one process to the next, with the machine's speed (``reference``), so one
    process a game cannot resolve 1.2x: the median of several, taken in turn with the other games, and
    each rebuild against the reference timed just before it in the same process. With ``bare`` (the
    pages of the full build and their mean size), the first ``BARE_PROCESSES`` processes time bare Jinja
    making as many pages of that size as well, by CPU as the full build, half just before it and half
    just after it: the full build / bare Jinja of each of them, whose median is judged (three, not
    every process: the bench's time, as much again as the builds)."""
    submissions: int
    days: int
    bare: tuple[int, int] | None = None
    runs: list[dict] = field(default_factory=list)

    def run(self, players: int) -> None:
        pages, size = self.bare if self.bare and len(self.runs) < BARE_PROCESSES else (0, 0)
        spec = f"{self.submissions},{players},{self.days},{pages},{size}"
        out = subprocess.run([sys.executable, __file__, "--child", spec], capture_output=True, text=True, check=True)
        self.runs.append(json.loads(out.stdout.splitlines()[-1]))

    def cpu(self) -> list[float]:
        """Each process's median CPU seconds of its last three rebuilds (the first may open a block)."""
        return [statistics.median(r["cpu"][1:]) for r in self.runs]

    def ratios(self) -> list[float]:
        """Each process's median of its last three rebuilds' CPU over the reference's just before each."""
        return [statistics.median(c / ref for c, ref in zip(r["cpu"][1:], r["reference"][1:])) for r in self.runs]

    def rows(self) -> list[tuple[str, str]]:
        game = f"{self.submissions:,} submissions" + (f", {self.days:,} days of events and list posts"
                                                      if self.days else "")
        cpu, ratios = self.cpu(), self.ratios()
        median, ratio, wall = statistics.median(cpu), statistics.median(ratios), max(w for r in self.runs for w in r["wall"])
        return [(game, f"{self.runs[0]['pages']:,} pages; rebuild after one new Proposal, in {len(self.runs)} "
                       "fresh processes taken in turn with the other games"),
                *self.build_rows(),
                *[(f"  process {i}", _process_row(r)) for i, r in enumerate(self.runs, 1)],
                ("  rebuild's CPU, median of the processes", f"{median * 1000:.1f} ms (processes {min(cpu) * 1000:.1f}-"
                 f"{max(cpu) * 1000:.1f} ms, {min(cpu) / median:.2f}-{max(cpu) / median:.2f}x); slowest wall "
                 f"{wall:.3f} s  {verdict(wall < 0.2)} (< 0.2 s)"),
                ("  rebuild / reference, median of the processes", f"{ratio:.2f} (processes {min(ratios):.2f}-"
                 f"{max(ratios):.2f}, {min(ratios) / ratio:.2f}-{max(ratios) / ratio:.2f}x)")]

    def build_rows(self) -> list[tuple[str, str]]:
        """Each process's full build and bare Jinja by CPU (the first ``BARE_PROCESSES``), and the median
        of their ratios (full build / bare Jinja as rates of pages: bare Jinja's CPU over the build's), judged."""
        timed = [(i, r, sum(r["bare_cpu"]) / r["build_cpu"]) for i, r in enumerate(self.runs, 1) if r["bare_cpu"]]
        if not timed:
            return []
        ratios = [ratio for _, _, ratio in timed]
        median = statistics.median(ratios)
        return [*[(f"  process {i}: full build, bare Jinja", f"{r['build_cpu']:.2f} s CPU, {sum(r['bare_cpu']):.2f} s "
                   f"CPU (halves before and after the build: {r['bare_cpu'][0]:.2f}, {r['bare_cpu'][1]:.2f} s): "
                   f"{ratio:.2f}") for i, r, ratio in timed],
                ("  ratio (full build / bare Jinja), by CPU, median", f"{median:.2f} (processes {min(ratios):.2f}-"
                 f"{max(ratios):.2f}, {min(ratios) / median:.2f}-{max(ratios) / median:.2f}x)  "
                 f"{verdict(median >= 0.7)} (>= 0.70)")]


def _process_row(run: dict) -> str:
    """One process's rebuilds: the first's wall, CPU and pages, then the others' CPU and their median,
    and the reference's median."""
    ms, ref = [c * 1000 for c in run["cpu"]], statistics.median(run["reference"][1:]) * 1000
    return (f"opens a block {run['wall'][0]:.3f} s ({ms[0]:.1f} ms CPU, {run['written'][0]} written); then "
            f"{', '.join(f'{c:.1f}' for c in ms[1:])} ms CPU ({', '.join(str(w) for w in run['written'][1:])} "
            f"written): median {statistics.median(ms[1:]):.1f} ms; reference {ref:.1f} ms")


def one_game(root: Path, submissions: int, players: int) -> tuple[list[tuple[str, str]], float, float,
                                                                 tuple[int, int]]:
    """The rows of one game's full build and search index figures, the CPU seconds of its search index's
    re-index after one new Proposal, and their ratio to the Pagefind reference; the pages its full build
    rendered and their mean size (bare Jinja makes as many in the processes of the rebuilds)."""
    g, state, out, memory, t_full, full = game(root, submissions, players)
    html = [f for f in out.rglob("*.html")]
    size = sum(f.stat().st_size for f in html) // max(1, len(html))
    rebuilds(g, state, out, memory)  # as in the processes of the rebuilds: the re-index's Proposals come after
    index_wall, index_cpu, search = indexed(lambda: index(out))  # every shard: there is no index yet
    one_wall, one_cpu, _ = one_bundle(out, root / f"one{submissions}")
    (files, index_bytes), (one_files, one_bytes) = disk(out / "pagefind"), disk(root / f"one{submissions}" / "pagefind")
    more, reindex_cpu, reindex_ratio = reindexes(g, out, memory, state.day_started + timedelta(hours=3), root)
    t_index = [index_wall]
    return [
        (f"{submissions:,} submissions: full build", f"{t_full[0]:.1f} s ({t_full[1]:.1f} s CPU), {full.rendered:,} "
         f"pages rendered, mean {size:,} B: {full.rendered / t_full[1]:,.0f} pages/s by CPU (against bare Jinja: "
         "below, in the processes of the rebuilds)"),
        ("  search index (Pagefind, the pages of texts)", f"{t_index[0]:.1f} s ({index_cpu:.1f} s CPU), "
         f"{search.shards} shards, {search.pages:,} pages; {files:,} files, {index_bytes / 1e6:.1f} MB"),
        ("  the same pages as one bundle (before shards)", f"{one_wall:.1f} s ({one_cpu:.1f} s CPU), "
         f"{one_files:,} files, {one_bytes / 1e6:.1f} MB; shards / one: {index_cpu / one_cpu:.2f} by CPU"),
        ("  full build with its index / without", f"{(t_full[0] + t_index[0]) / t_full[0]:.2f} "
         f"({(t_full[1] + index_cpu) / t_full[1]:.2f} by CPU)  {verdict(t_full[1] + index_cpu <= 1.3 * t_full[1])}"
         " (<= 1.30 by CPU)"),
        *more,
    ], reindex_cpu, reindex_ratio, (full.rendered, size)


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--submissions", type=sizes, default=[5_000, 20_000], help="e.g. 5000,20000")
    ap.add_argument("--players", type=int, default=1_000)
    ap.add_argument("--quick", action="store_true", help="1,000 submissions and 100 players")
    ap.add_argument("--rebuilds", action="store_true", help="the rebuilds alone (no bare Jinja, no search index)")
    ap.add_argument("--days", type=sizes, default=[1_000, 4_000],
                    help="then the rebuild in games of the fewest submissions with this many days of events "
                         "(a chime, a temperature change and a draw a day) and list posts before, e.g. 1000,4000")
    ap.add_argument("--processes", type=int, default=5,
                    help="fresh processes per game for the rebuilds, taken in turn across the games (3 with --quick)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child)
        return {}
    if args.quick:
        args.submissions, args.players, args.days, args.processes = [1_000], 100, [250, 1_000], min(args.processes, 3)
    since = Conditions()
    rows, reindex_cpu, reindex_ratio, bare = [], [], [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in [] if args.rebuilds else args.submissions:
            more, again, ratio, bare[n] = one_game(Path(tmp), n, args.players)
            rows += more
            reindex_cpu.append(again)
            reindex_ratio.append(ratio)
    if not args.rebuilds:
        rows += _growth_row(args.submissions, reindex_cpu, "the search re-index's CPU", "submissions")
        rows += _growth_row(args.submissions, reindex_ratio, "search re-index / Pagefind reference", "submissions")
    by_size = [Processes(n, 0, bare.get(n)) for n in args.submissions]
    by_days = [Processes(args.submissions[0], d) for d in args.days]
    for _ in range(args.processes):  # in turn (A B C D, A B C D, ...): a change of the machine's speed falls on
        for games in (*by_size, *by_days):  # every game alike, and on the two games of a pair (A B) together
            games.run(args.players)
    growths = {}
    for games, of in ((by_size, "submissions"), (by_days, "days of events and list posts")):
        for p in games:
            rows += p.rows()
        more, growths[of] = _paired_growth_rows(games, of)
        rows += more
    report(f"site of {', '.join(f'{n:,}' for n in args.submissions)} submissions, {args.players:,} players", rows, since)
    return {"rebuild_cpu_s": statistics.median(by_size[-1].cpu()), "rebuild_growth": growths["submissions"],
            "rebuild_days_growth": growths["days of events and list posts"]}


def _paired_growth_rows(games: list[Processes], of: str) -> tuple[list[tuple[str, str]], float]:
    """The growth of the rebuild's CPU from the first game to the last, pair by pair: the two games'
    processes of a round ran one just after the other, so each pair saw the machine at about the same
    speed. Each pair's ratio, raw and against each process's own reference, and the median of the pairs,
    judged both ways; and the raw exponent (none for one game)."""
    if len(games) < 2:
        return [], float("nan")
    first, last = games[0], games[-1]
    at = [first.days or first.submissions, last.days or last.submissions]
    goal, rows, exponents = growth(at, [1, 1.2]), [], []
    for what, a, b in (("the rebuild's CPU", first.cpu(), last.cpu()),
                       ("rebuild / reference", first.ratios(), last.ratios())):
        pairs = [y / x for x, y in zip(a, b)]
        ratio = statistics.median(pairs)
        exponent = growth(at, [1, ratio])
        exponents.append(exponent)
        rows.append((f"growth exponent of {what}, {at[0]:,} to {at[1]:,} {of}",
                     f"{exponent:.2f}, {ratio:.2f}x: median of {len(pairs)} pairs of processes run one after the "
                     f"other (pairs {', '.join(f'{p:.2f}' for p in pairs)}x; 0.00: constant; the goal, within 1.2x, "
                     f"is <= {goal:.2f})  {verdict(exponent <= goal)}"))
    return rows, exponents[0]


def _growth_row(sizes: list[int], cpu: list[float], what: str, of: str) -> list[tuple[str, str]]:
    """The growth exponent of ``what`` (a median of the processes) from the smallest size to the largest
    (none for one size)."""
    if len(sizes) < 2:
        return []
    exponent, goal = growth(sizes, cpu), growth(sizes, [1, 1.2])
    return [(f"growth exponent of {what}, {sizes[0]:,} to {sizes[-1]:,} {of}",
             f"{exponent:.2f}, {cpu[-1] / cpu[0]:.2f}x (0.00: constant; the goal, within "
             f"1.2x, is <= {goal:.2f})  {verdict(exponent <= goal)}")]


if __name__ == "__main__":
    main()
