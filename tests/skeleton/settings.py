"""A Counting Nomic game.toml (tests/skeleton/defaults/skeleton.toml)."""
from storage.settings.common import CommonSettings, Count, Section


class SkeletonSection(Section):
    step: Count


class Settings(CommonSettings):
    skeleton: SkeletonSection
