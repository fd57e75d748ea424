"""A BlogNomic game.toml (storage/defaults/blognomic.toml)."""
from __future__ import annotations

from typing import Literal

from storage.settings.common import CommonSettings, Count, Holders, Section


class BlogNomicOffices(Section):
    admins: Holders
    seraphims: Holders
    admins_passphrase: str


class BlogNomicSection(Section):
    auto_resolve: bool
    admission: Literal["admin", "auto"]
    daily_mail: bool
    max_pending_cfjs: Count  # at least 1: refused at load, not a fault at every CfJ or DoV
    max_pending_dovs: Count


class Settings(CommonSettings):
    offices: BlogNomicOffices
    blognomic: BlogNomicSection
