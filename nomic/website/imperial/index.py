"""What the builds of one Imperial game state remember of its submissions, so that a rebuild
costs what changed, not what the game holds.

The engine changes a submission only in a step caused by it: its arrival (a new number), its
judgment and a rewrite emit events with ``Cause("submission", n)``, and its ledger entries name
it. So a rebuild finds the submissions whose rows and pages may differ from the last build's
in what is new since then: new numbers (and the last old one, whose page gains a "next" link),
new events and ledger entries, and authors whose link (name, page) changed; it computes the
keys of those alone. ``SiteMemory`` keeps one index per state object, weakly: a state loaded
or folded afresh (a restart, ``nomic rebuild``) starts a new index, as does a read of events
or a ledger that no longer extends what was read before.
"""
from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter

from engine.imperial.state import ImperialState, Submission
from engine.state import LedgerEntry
from nomic.website.describe import People
from nomic.website.imperial.drawing import TemperatureChange, TemperatureHistory
from nomic.website.imperial.listing import ROW_NUMBER, Listing
from nomic.website.reader import EventRecord

ROW_STATUS = itemgetter(4)  # the status in a submission's row key (``SubmissionIndex.row_keys``)

_PAGE_FIELDS = attrgetter("received_at", "text", "area", "judged_at", "judged_day", "changes", "preview")


@dataclass
class SubmissionIndex:
    """Keys and indexes of one state's submissions, brought up to date by ``update``.

    - ``row_keys``: what each submission's row in a list is made from (its author as linked:
      name and page), by number (submission n at n - 1); ``by_status``: the same by status,
      in order of number; ``by_author``: each author's, in order of number;
    - ``page_keys``: what each submission's page is made from, by number;
    - ``changed``: the numbers whose keys the last ``update`` computed again; ``version``: a new
      object at each ``update``, ``since``: the one before (``Family.changes``);
    - ``temperature``: every temperature change with its game day, as the chart draws them;
    - ``listings``: the lists of submissions by blocks of numbers, by name (listing.py);
    - ``effects``, ``ledger_by_submission``, ``ledger_by_player``, ``events_by_player``: the
      events and ledger entries read so far, grouped (both are only ever added to);
    - ``player_marks``: what each player's page shows besides their row: how many ledger entries and
      events, the last of each, and their submissions' row keys (made again for the players the
      new entries, events and submissions name, not for every player at every build).
    """
    row_keys: list[tuple] = field(default_factory=list)
    page_keys: list[tuple] = field(default_factory=list)
    by_status: dict[str, list[tuple]] = field(default_factory=dict)
    by_author: dict[str, tuple] = field(default_factory=dict)
    changed: set[int] = field(default_factory=set)
    version: object = field(default_factory=object)
    since: object = None
    effects: dict[int, list[EventRecord]] = field(default_factory=lambda: defaultdict(list))
    ledger_by_submission: dict[int | None, list[LedgerEntry]] = field(default_factory=lambda: defaultdict(list))
    ledger_by_player: dict[str, list[LedgerEntry]] = field(default_factory=lambda: defaultdict(list))
    events_by_player: dict[str, list[EventRecord]] = field(default_factory=lambda: defaultdict(list))
    player_marks: dict[str, tuple] = field(default_factory=dict)
    listings: dict[str, Listing] = field(default_factory=dict)
    temperature: TemperatureHistory = field(default_factory=TemperatureHistory)
    _day: int = 1  # the game day of the next temperature change, as the ``day_end`` events read tell
    _events: tuple[int, int] = (0, 0)  # how many events were read in, and the last one's id
    _ledger: tuple[int, LedgerEntry | None] = (0, None)  # how many ledger entries, and the last
    _numbers: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))  # by author
    _links: dict[str, str] = field(default_factory=dict)  # each author's link as their rows show it

    def extends(self, state: ImperialState, events: list[EventRecord]) -> bool:
        """Whether ``state``'s ledger and ``events`` extend what was read in before."""
        (n_events, last_id), (n_ledger, last_entry) = self._events, self._ledger
        return (len(events) >= n_events and (n_events == 0 or events[n_events - 1].id == last_id)
                and len(state.ledger) >= n_ledger and (n_ledger == 0 or state.ledger[n_ledger - 1] is last_entry)
                and len(state.submissions) >= len(self.row_keys))

    def update(self, state: ImperialState, people: People, events: list[EventRecord]) -> None:
        """Read in what is new in ``state`` and ``events`` (which ``extends`` must accept), and
        compute again the keys of every submission it may have changed."""
        subs, known = state.submissions, len(self.row_keys)
        # the new ones, and the last old one (its page gains a "next" link)
        dirty = set(range(max(1, known), len(subs) + 1)) if len(subs) > known else set()
        players: set[str] = set()
        dirty |= self._read_events(events[self._events[0]:], players)
        dirty |= self._read_ledger(state.ledger[self._ledger[0]:], players)
        for author, link in self._author_links(state, people).items():
            if self._links.get(author) != link:
                self._links[author] = link
                dirty.update(self._numbers.get(author, ()))
        self.row_keys.extend([()] * (len(subs) - known))
        self.page_keys.extend([()] * (len(subs) - known))
        authors = set()
        for n in sorted(dirty):
            if 1 <= n <= len(subs):
                authors.add(self._refresh(subs[n - 1], n > known, len(subs)))
        for author in authors:
            self.by_author[author] = tuple(self.row_keys[n - 1] for n in self._numbers[author])
        for who in players | authors:
            self.player_marks[who] = self._player_mark(who)
        self.changed = {n for n in dirty if 1 <= n <= len(subs)}
        self.since, self.version = self.version, object()

    def listing(self, name: str, heading: str, rows: list[tuple], block: int) -> Listing:
        """The list ``name`` of ``rows`` (``row_keys`` or one of ``by_status``) by blocks of
        ``block`` numbers, brought up to this index's last ``update``: the blocks of the numbers
        it changed are read again (every block, if the list missed an update)."""
        kept = self.listings.setdefault(name, Listing(name, heading))
        if kept.seen is not self.version:
            same = kept.seen is self.since and kept.heading == heading
            kept.heading, kept.seen = heading, self.version  # (before the update: a new heading titles every page)
            kept.update(rows, self.changed if same else None, block)
        return kept

    def _author_links(self, state: ImperialState, people: People) -> dict[str, str]:
        """Each author's link (and each player's, who may yet author one)."""
        authors = {*self._numbers, *(s.author for s in state.submissions[len(self.row_keys):]),
                   *(p.email for p in state.players)}
        return {a: people.link(a, "../") for a in authors}

    def _player_mark(self, who: str) -> tuple:
        ledger, events = self.ledger_by_player.get(who, ()), self.events_by_player.get(who, ())
        return (len(ledger), ledger[-1].n if ledger else None, len(events), events[-1].id if events else None,
                self.by_author.get(who, ()))

    def _read_events(self, new: list[EventRecord], players: set[str]) -> set[int]:
        touched = set()
        for e in new:
            if e.kind == "day_end":  # a day's closing cooling is that day's
                self._day = int(e.data.get("new_day", self._day + 1))
            elif e.kind == "temperature":
                self.temperature.add(TemperatureChange(int(e.data.get("old", 0)), int(e.data.get("new", 0)),
                                                       str(e.data.get("cause", "")), self._day))
            if e.cause is not None and e.cause.what == "submission":
                self.effects[e.cause.number].append(e)
                touched.add(e.cause.number)
            if e.kind not in ("score", "draw"):  # a player's history: score changes and dice aside
                for who in {e.data.get("player"), e.data.get("target")}:
                    if isinstance(who, str):
                        self.events_by_player[who].append(e)
                        players.add(who)
        if new:
            self._events = (self._events[0] + len(new), new[-1].id)
        return touched

    def _read_ledger(self, new: list[LedgerEntry], players: set[str]) -> set[int]:
        touched = set()
        for e in new:
            self.ledger_by_submission[e.submission].append(e)
            self.ledger_by_player[e.player].append(e)
            players.add(e.player)
            if e.submission is not None:
                touched.add(e.submission)
        if new:
            self._ledger = (self._ledger[0] + len(new), new[-1])
        return touched

    def _refresh(self, s: Submission, new: bool, last: int) -> str:
        """Compute submission ``s``'s keys again, moving its row between statuses; returns its author."""
        n = s.number
        old = self.row_keys[n - 1]
        row = (n, s.kind, s.title, self._links[s.author], s.status, s.reason, s.day)
        if new:
            self._numbers[s.author].append(n)
        else:
            _remove(self.by_status[ROW_STATUS(old)], n)
        _insert(self.by_status.setdefault(s.status, []), row)
        self.row_keys[n - 1] = row
        mark = _mark(self.effects.get(n), self.ledger_by_submission.get(n))
        self.page_keys[n - 1] = (row, _PAGE_FIELDS(s), n < last, mark,
                                 _requests_etc(s) if s.requests or s.claims or s.revisions else None)
        return s.author


def _mark(effects: list[EventRecord] | None, ledger: list[LedgerEntry] | None) -> tuple | None:
    """How many effects and ledger entries a submission has, and the last one's id and number
    (both are only ever added to, so this tells whether either changed)."""
    if not effects and not ledger:
        return None
    return (len(effects or ()), effects[-1].id if effects else None,
            len(ledger or ()), ledger[-1].n if ledger else None)


def _requests_etc(s: Submission) -> tuple:
    return ([(r.kind, r.section, r.direction, r.target) for r in s.requests],
            [(c.get("player"), c.get("score")) for c in s.claims], [(r.text, r.at, r.by) for r in s.revisions])


def _remove(rows: list[tuple], n: int) -> None:
    i = bisect_left(rows, n, key=ROW_NUMBER)
    del rows[i]


def _insert(rows: list[tuple], row: tuple) -> None:
    rows.insert(bisect_left(rows, ROW_NUMBER(row), key=ROW_NUMBER), row)
