"""An Imperial game as the site sees it: which events belong to which submission, rule pages,
the keys of submission and player rows.

Built once per build from ``SiteData`` and shared by every generator.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter, itemgetter

from engine.imperial.state import ImperialState
from engine.state import LedgerEntry, Rule
from nomic.website.absence import away
from nomic.website.memory import SiteMemory
from nomic.website.model import SiteModel, group, people
from nomic.website.reader import EventRecord, SiteData

OFFICES = {"scribe": "THS", "emperor": "TIE"}  # the offices' holders by name, TIE over THS where one holds both


# The number and the status in a submission's row key (ImperialModel.row_keys).
ROW_NUMBER, ROW_STATUS = itemgetter(0), itemgetter(4)


@dataclass
class ImperialModel(SiteModel):
    effects: dict[int, list[EventRecord]] = field(default_factory=dict)
    rule_slugs: list[str] = field(default_factory=list)  # parallel to state.rules
    rows: dict[tuple[int, str], dict] = field(default_factory=dict)  # submission rows, made once

    @property
    def state(self) -> ImperialState:
        return self.data.state  # type: ignore[return-value]

    def rule_pages(self) -> list[tuple[str, Rule]]:
        return list(zip(self.rule_slugs, self.state.rules))

    # Indexes, so that no page scans the whole game (large games have 10,000s of submissions).

    @cached_property
    def ledger_by_submission(self) -> dict[int | None, list[LedgerEntry]]:
        return group(self.state.ledger, attrgetter("submission"))

    @cached_property
    def history_marks(self) -> dict[int, tuple]:
        """For each submission with effects or ledger entries: how many of each, and the last one's
        id and number. Both are only ever added to, so this tells whether either changed."""
        marks = {n: (len(found), found[-1].id, 0, None) for n, found in self.effects.items()}
        for n, entries in self.ledger_by_submission.items():
            if n is not None:
                marks[n] = (*marks.get(n, (0, None))[:2], len(entries), entries[-1].n)
        return marks

    @cached_property
    def player_keys(self) -> dict[str, tuple]:
        """What each player's row, and the head of their page, are made from."""
        it, slugs = self.state.it, self.people.slugs
        return {p.email: (p.email, p.name, slugs[p.email], p.score, p.category, p.profile, p.probation, p.active,
                          p.sealed, p.sealed_from, p.sealed_until, p.joined_day, it == p.email,
                          away(self.state, p.email))
                for p in self.state.players}

    @cached_property
    def row_keys(self) -> list[tuple]:
        """What each submission's row in a list is made from (its author as linked: name and page),
        parallel to state.submissions (which holds them by number: submission n is at n - 1)."""
        links = {p.email: self.people.link(p.email, "../") for p in self.state.players}
        link = self.people.link
        return [(s.number, s.kind, s.title, links.get(s.author) or link(s.author, "../"), s.status, s.reason, s.day)
                for s in self.state.submissions]

    @cached_property
    def row_keys_by_author(self) -> dict[str, tuple]:
        out: dict[str, list[tuple]] = defaultdict(list)
        for s, k in zip(self.state.submissions, self.row_keys):
            out[s.author].append(k)
        return {a: tuple(keys) for a, keys in out.items()}

    @cached_property
    def events_by_player(self) -> dict[str, list[EventRecord]]:
        """Events about a player (as ``player`` or ``target``), score changes and dice aside."""
        out: dict[str, list[EventRecord]] = defaultdict(list)
        for e in self.data.events:
            if e.kind in ("score", "draw"):
                continue
            for who in {e.data.get("player"), e.data.get("target")}:
                if isinstance(who, str):
                    out[who].append(e)
        return out


def build_model(data: SiteData, memory: SiteMemory) -> ImperialModel:
    return ImperialModel(data=data, people=people(data, OFFICES), memory=memory, effects=_effects(data.events),
                         rule_slugs=_rule_slugs(data.state.rules))


def _rule_slugs(rules: list[Rule]) -> list[str]:
    """'8' for the first rule 8, '8-2' for the second (the ruleset has two; docs/rulings.md)."""
    seen: dict[int, int] = defaultdict(int)
    out = []
    for r in rules:
        seen[r.number] += 1
        out.append(str(r.number) if seen[r.number] == 1 else f"{r.number}-{seen[r.number]}")
    return out


def _effects(events: list[EventRecord]) -> dict[int, list[EventRecord]]:
    """Every event that a submission caused (the engine says so: ``EventRecord.cause``), in order."""
    out: dict[int, list[EventRecord]] = defaultdict(list)
    for e in events:
        if e.cause is not None and e.cause.what == "submission":
            out[e.cause.number].append(e)
    return dict(out)


def day_summary(e: EventRecord) -> tuple[dict, dict, list]:
    """A ``day_end`` event's summary, its scores and its notes (each empty where absent or malformed)."""
    summary = e.data.get("summary")
    summary = summary if isinstance(summary, dict) else {}
    scores, notes = summary.get("scores"), summary.get("notes")
    return summary, scores if isinstance(scores, dict) else {}, notes if isinstance(notes, list) else []
