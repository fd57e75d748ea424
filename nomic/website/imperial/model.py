"""An Imperial game as the site sees it: which events belong to which submission, rule pages,
the keys of submission and player rows.

Built once per build from ``SiteData`` and shared by every generator.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from engine.imperial.state import ImperialState
from engine.state import LedgerEntry, Rule
from nomic.website.absence import away
from nomic.website.describe import People
from nomic.website.imperial.index import SubmissionIndex
from nomic.website.memory import SiteMemory
from nomic.website.model import SiteModel, people
from nomic.website.reader import EventRecord, SiteData

OFFICES = {"scribe": "THS", "emperor": "TIE"}  # the offices' holders by name, TIE over THS where one holds both


@dataclass
class ImperialModel(SiteModel):
    index: SubmissionIndex = field(default_factory=SubmissionIndex)
    rule_slugs: list[str] = field(default_factory=list)  # parallel to state.rules
    rows: dict[tuple[int, str], dict] = field(default_factory=dict)  # submission rows, made once

    @property
    def state(self) -> ImperialState:
        return self.data.state  # type: ignore[return-value]

    @property
    def effects(self) -> dict[int, list[EventRecord]]:
        """Every event that a submission caused (the engine says so: ``EventRecord.cause``), in order."""
        return self.index.effects

    def rule_pages(self) -> list[tuple[str, Rule]]:
        return list(zip(self.rule_slugs, self.state.rules))

    # Indexes, so that no page scans the whole game (large games have 10,000s of submissions):
    # kept from build to build (index.py), so that a rebuild computes the keys of what changed.

    @property
    def ledger_by_submission(self) -> dict[int | None, list[LedgerEntry]]:
        return self.index.ledger_by_submission

    @property
    def ledger_by_player(self) -> dict[str, list[LedgerEntry]]:  # type: ignore[override]
        return self.index.ledger_by_player

    @property
    def events_by_player(self) -> dict[str, list[EventRecord]]:
        """Events about a player (as ``player`` or ``target``), score changes and dice aside."""
        return self.index.events_by_player

    @property
    def row_keys(self) -> list[tuple]:
        """What each submission's row in a list is made from, by number (index.py)."""
        return self.index.row_keys

    @property
    def row_keys_by_author(self) -> dict[str, tuple]:
        return self.index.by_author

    @cached_property
    def player_keys(self) -> dict[str, tuple]:
        """What each player's row, and the head of their page, are made from."""
        it, slugs = self.state.it, self.people.slugs
        return {p.email: (p.email, p.name, slugs[p.email], p.score, p.category, p.profile, p.probation, p.active,
                          p.sealed, p.sealed_from, p.sealed_until, p.joined_day, it == p.email,
                          away(self.state, p.email))
                for p in self.state.players}


def build_model(data: SiteData, memory: SiteMemory) -> ImperialModel:
    who = people(data, OFFICES)
    return ImperialModel(data=data, people=who, memory=memory, index=_index(data, who, memory),
                         rule_slugs=_rule_slugs(data.state.rules))


def _index(data: SiteData, who: People, memory: SiteMemory) -> SubmissionIndex:
    """The state's index as the last build left it (a new one for a new state), brought up to date."""
    state: ImperialState = data.state  # type: ignore[assignment]
    index = memory.of_state(state)
    if not isinstance(index, SubmissionIndex) or not index.extends(state, data.events):
        index = SubmissionIndex()
        memory.keep(state, index)
    index.update(state, who, data.events)
    return index


def _rule_slugs(rules: list[Rule]) -> list[str]:
    """'8' for the first rule 8, '8-2' for the second (the ruleset has two; docs/rulings.md)."""
    seen: dict[int, int] = defaultdict(int)
    out = []
    for r in rules:
        seen[r.number] += 1
        out.append(str(r.number) if seen[r.number] == 1 else f"{r.number}-{seen[r.number]}")
    return out


def day_summary(e: EventRecord) -> tuple[dict, dict, list]:
    """A ``day_end`` event's summary, its scores and its notes (each empty where absent or malformed)."""
    summary = e.data.get("summary")
    summary = summary if isinstance(summary, dict) else {}
    scores, notes = summary.get("scores"), summary.get("notes")
    return summary, scores if isinstance(scores, dict) else {}, notes if isinstance(notes, list) else []
