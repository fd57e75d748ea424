"""An Imperial Nomic game.toml (storage/defaults/imperial.toml)."""
from __future__ import annotations

from typing import Literal

from storage.settings.common import CommonSettings, GameSection, Holders, Section


class ImperialGame(GameSection):
    day_mode: Literal["emperor", "fixed"]


class ImperialOffices(Section):
    emperor: Holders
    scribe: Holders
    first_it: str
    emperor_passphrase: str
    scribe_passphrase: str


class Settings(CommonSettings):
    game: ImperialGame
    offices: ImperialOffices
