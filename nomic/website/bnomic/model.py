"""A B Nomic game as the site sees it: its state (the Ministries are in it, not in game.toml)."""
from __future__ import annotations

from dataclasses import dataclass

from engine.bnomic.state import BNomicState
from nomic.website.memory import SiteMemory
from nomic.website.model import SiteModel, people
from nomic.website.reader import SiteData


@dataclass
class BNomicModel(SiteModel):
    @property
    def state(self) -> BNomicState:
        return self.data.state  # type: ignore[return-value]


def build_model(data: SiteData, memory: SiteMemory) -> BNomicModel:
    return BNomicModel(data=data, people=people(data, {}), memory=memory)  # no office in game.toml
