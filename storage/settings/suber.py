"""A Suber's Nomic game.toml (storage/defaults/suber.toml): no offices."""
from __future__ import annotations

from storage.settings.common import CommonSettings, Section


class SuberSection(Section):
    players: list[str]
    call_for_action: bool
    daily_mail: bool


class Settings(CommonSettings):
    suber: SuberSection
