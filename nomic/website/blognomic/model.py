"""A BlogNomic game as the site sees it: each matter's vote board, and when the rules let it resolve.

The board is read off the engine's own count (engine/blognomic/votes.py) while a matter is
pending, and off its frozen tally once resolved, so the site never counts a vote differently
from the game. "Now" is the moment the game was last brought up to (``settled_until``: the
latest message or clock step), so a page says the same whenever it is built.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from engine.blognomic.conditions import edges, label, oldest_proposal, verdict, windows
from engine.blognomic.state import BlogState, VotableMatter
from engine.blognomic.votes import VALID, count_matter
from nomic.website.memory import SiteMemory
from nomic.website.model import SiteModel, group, people
from nomic.website.reader import EventRecord, SiteData

OFFICES = {"admins": "Admin"}  # an Admin who has not joined is still named so


@dataclass(frozen=True)
class Board:
    """Who stands where on a matter: names by column, in player-list order."""
    columns: list[tuple[str, list[str]]]  # ("FOR", [...]), ("DEF→FOR", [...]), ...
    waiting: list[str] | None  # the Pactmakers who have not voted (None once resolved)
    for_: int
    against: int
    quorum: int | None  # None once resolved (the tally line says it)
    author_for: str | None = None  # the author, when their Vote is FOR only because they used no valid icon


@dataclass(frozen=True)
class Outlook:
    """A pending matter's prospects with the votes it has: what the rules say now, and from when
    they allow Enacting and Failing it (None: not with these votes; or queued behind ``after``)."""
    enact_now: str | None  # None: it may be Enacted now; else why not
    fail_now: str | None
    enactable_from: datetime | None
    failable_from: datetime | None
    after: str | None  # "Proposal 3": the oldest pending Proposal, which resolves first


@dataclass
class BlogModel(SiteModel):
    @property
    def state(self) -> BlogState:
        return self.data.state  # type: ignore[return-value]

    @property
    def now(self) -> datetime:
        return self.state.settled_until

    @cached_property
    def order(self) -> dict[str, int]:
        return {p.email: i for i, p in enumerate(self.state.players)}

    @cached_property
    def events_by_matter(self) -> dict[int, list[EventRecord]]:
        return group((e for e in self.data.events if isinstance(e.data.get("number"), int)
                      and e.kind in ("matter_opened", "resolved", "amended")), lambda e: e.data["number"])

    @cached_property
    def live(self) -> tuple:
        """What every pending matter's board and outlook depend on besides its own ballots."""
        st = self.state
        return (st.settled_until, st.hiatus, st.edition, st.dynasty.number, st.seraphims(),
                [(p.email, p.idle) for p in st.players], [m.number for m in st.pending("proposal")])

    def board(self, m: VotableMatter) -> Board:
        if m.final is None:
            c = count_matter(self.state, m)
            icons, deferred_to, seraphims = c.icons, c.resolved_to, set(self.state.seraphims())
            waiting: list[str] | None = self._sorted(p.email for p in self.state.active() if p.email not in icons)
            quorum: int | None = c.quorum
            for_, against = c.for_, c.against
        else:
            icons, for_, against = m.final.votes, m.final.for_, m.final.against
            deferred_to, seraphims = m.final.deferred_to, set(m.final.seraphims)
            waiting, quorum = None, None
        implicit = icons.get(m.author) == "FOR" and not any(b.voter == m.author and b.icon in VALID for b in m.ballots)
        return Board(self._columns(m, icons, deferred_to, seraphims), waiting, for_, against, quorum,
                     m.author if implicit else None)

    def _columns(self, m: VotableMatter, icons: dict[str, str], deferred_to: str | None,
                 seraphims: set[str]) -> list[tuple[str, list[str]]]:
        """A DEFERENTIAL counts as the Seraphims' Vote once they have one (DEF→), except a Seraphim's own."""
        followed = {v for v, icon in icons.items() if icon == "DEFERENTIAL" and v not in seraphims and deferred_to}
        return [
            ("FOR", self._sorted(v for v, icon in icons.items() if icon == "FOR")),
            (f"DEF→{deferred_to or ''}", self._sorted(followed)),
            ("AGAINST", self._sorted(v for v, icon in icons.items() if icon == "AGAINST")),
            ("DEFERENTIAL", self._sorted(v for v, icon in icons.items() if icon == "DEFERENTIAL" and v not in followed)),
            ("VETO", self._sorted({b.voter for b in m.ballots if b.icon == "VETO"})),
        ]

    def _sorted(self, voters: Iterable[str]) -> list[str]:
        """In player-list order; anyone no longer a player last, by address."""
        return sorted(voters, key=lambda v: (self.order.get(v, len(self.order)), v))

    def outlook(self, m: VotableMatter) -> Outlook:
        """From ``now``, the first window edge at which the rules allow each resolution."""
        now = verdict(self.state, m, self.now)
        oldest = oldest_proposal(self.state, self.now)
        if m.kind == "proposal" and oldest is not None and oldest is not m:
            return Outlook(now.enact, now.fail, None, None, label(oldest))
        moments = [self.now, *sorted(e for e in set(edges(m, windows(self.state))) if e > self.now)]
        verdicts = [(at, verdict(self.state, m, at)) for at in moments]
        return Outlook(now.enact, now.fail, next((at for at, v in verdicts if v.enact is None), None),
                       next((at for at, v in verdicts if v.fail is None), None), None)


def build_model(data: SiteData, memory: SiteMemory) -> BlogModel:
    return BlogModel(data=data, people=people(data, OFFICES), memory=memory)
