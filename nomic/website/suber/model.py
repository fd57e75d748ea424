"""A Suber's Nomic game as the site sees it: its state, and its ledger by proposal."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from engine.state import LedgerEntry
from engine.suber.state import SuberState
from nomic.website.memory import SiteMemory
from nomic.website.model import SiteModel, group, people
from nomic.website.reader import SiteData


@dataclass
class SuberModel(SiteModel):
    @property
    def state(self) -> SuberState:
        return self.data.state  # type: ignore[return-value]

    @cached_property
    def ledger_by_proposal(self) -> dict[int | None, list[LedgerEntry]]:
        return group(self.state.ledger, lambda e: e.submission)


def build_model(data: SiteData, memory: SiteMemory) -> SuberModel:
    return SuberModel(data=data, people=people(data, {}), memory=memory)  # Suber has no offices
