"""The site's view of the game: who is who, which events belong to which submission, rule pages.

Built once per build from ``SiteData`` and shared by every generator.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from engine.state import Rule
from nomic.website.describe import People
from nomic.website.reader import EventRecord, SiteData
from nomic.website.text import slug

# Events that close a group of effects in one journal entry: what came before belongs to them.
_CLOSERS = ("judged", "submitted")
# Events that name their submission in ``data.number``.
_NUMBERED = (*_CLOSERS, "rewritten")


@dataclass
class SiteModel:
    data: SiteData
    people: People
    effects: dict[int, list[EventRecord]] = field(default_factory=dict)
    rule_slugs: list[str] = field(default_factory=list)  # parallel to state.rules

    @property
    def state(self):
        return self.data.state

    def rule_pages(self) -> list[tuple[str, Rule]]:
        return list(zip(self.rule_slugs, self.state.rules))


def build_model(data: SiteData) -> SiteModel:
    return SiteModel(data=data, people=_people(data), effects=_effects(data.events),
                     rule_slugs=_rule_slugs(data.state.rules))


def _people(data: SiteData) -> People:
    slugs: dict[str, str] = {}
    taken: set[str] = set()
    for p in data.state.players:
        base = slug(p.name or p.email.split("@")[0])
        s, n = base, 1
        while s in taken or s == "index":
            n += 1
            s = f"{base}-{n}"
        taken.add(s)
        slugs[p.email] = s
    offices = {str(data.offices.get("scribe", "")).lower(): "THS",
               str(data.offices.get("emperor", "")).lower(): "TIE"}
    return People(names={p.email: p.name for p in data.state.players}, slugs=slugs, offices=offices)


def _rule_slugs(rules: list[Rule]) -> list[str]:
    """'8' for the first rule 8, '8-2' for the second (the ruleset has two; docs/rulings.md)."""
    seen: dict[int, int] = defaultdict(int)
    out = []
    for r in rules:
        seen[r.number] += 1
        out.append(str(r.number) if seen[r.number] == 1 else f"{r.number}-{seen[r.number]}")
    return out


def _effects(events: list[EventRecord]) -> dict[int, list[EventRecord]]:
    """Every event that a submission caused, in order.

    An event names its submission in ``data.submission``; otherwise the events
    of one journal entry that come before a ``judged``/``submitted`` event (and
    after the previous one) are that judgment's effects: the engine emits the
    score and temperature changes of a judgment before the ``judged`` event,
    and a day's end (which may open a message's processing) before ``day_end``.
    """
    out: dict[int, list[EventRecord]] = defaultdict(list)
    pending: list[EventRecord] = []
    seq = None
    for e in events:
        if e.seq != seq:
            pending, seq = [], e.seq
        explicit = e.data.get("number") if e.kind in _NUMBERED else e.data.get("submission")
        if e.kind == "day_end":  # a day's end with its dice and cooling belongs to no submission
            pending = []
        elif isinstance(explicit, int) and e.kind not in _CLOSERS:
            out[explicit].append(e)
        elif isinstance(explicit, int):
            out[explicit].extend(x for x in pending if x not in out[explicit])
            out[explicit].append(e)
            pending = []
        else:
            pending.append(e)
    for n in out:
        out[n].sort(key=lambda e: e.id)
    return dict(out)
