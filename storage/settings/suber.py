"""A Suber's Nomic game.toml (storage/defaults/suber.toml): no offices."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from storage.settings.common import CommonSettings, Count, Section


class SuberSection(Section):
    players: list[str]
    call_for_action: bool
    vote_days: Annotated[int, Field(ge=0)]  # 0: never
    rule_213_from_circuit: Count
    daily_mail: bool


class Settings(CommonSettings):
    suber: SuberSection
