"""A BlogNomic game.toml (storage/defaults/blognomic.toml)."""
from __future__ import annotations

from storage.settings.common import CommonSettings, Holders, Section


class BlogNomicOffices(Section):
    admins: Holders
    seraphims: Holders
    admins_passphrase: str


class BlogNomicSection(Section):
    auto_resolve: bool
    daily_mail: bool


class Settings(CommonSettings):
    offices: BlogNomicOffices
    blognomic: BlogNomicSection
