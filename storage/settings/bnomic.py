"""A B Nomic game.toml (storage/defaults/bnomic.toml): no offices (its Ministries are held in play)."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from storage.settings.common import CommonSettings, Count, Section


class BNomicSection(Section):
    players: list[str]
    nweek: Count  # 2-1: a positive integer
    nday: Annotated[int, Field(ge=1, le=12)]  # 2-1: Breakday (1) to Thirnight (12)
    clock_on: bool
    number_proposals: Literal["auto", "chairman"]
    daily_mail: bool


class Settings(CommonSettings):
    bnomic: BNomicSection
