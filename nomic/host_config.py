"""host.toml: the games one ``nomic host`` serves, each under a slug, and the listeners' limits.

::

    # [smtp], [lmtp] and [http] here set the listeners' limits, as in game.toml
    [games.league]
    dir = "/srv/nomic/league"

A game stays an ordinary game directory (every other command works on it with
``--game``). No two games may own the same address: ``check`` refuses a game
whose address, list address or VERP bounce addresses another game owns.
"""
from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from mailer.inbox import Addresses
from storage.settings import Invalid
from storage.settings.common import HostSettings, host_settings

HOST_NAME = "host.toml"
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
HEADER = """\
# nomic host: the games this host serves, each at /SLUG/ on its site (nomic host add HOSTDIR GAMEDIR --slug SLUG).
# [smtp], [lmtp] and [http] sections here set the listeners' limits, as in game.toml.
"""


class HostError(Exception):
    """host.toml is missing or wrong, or a game cannot join the host (one line for the operator)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code  # the command line's exit status


class HostSettingsError(HostError):
    """host.toml has a value, key or section the host cannot run with (the CLI's exit status 2)."""

    def __init__(self, message: str):
        super().__init__(message, 2)


@dataclass(frozen=True)
class HostConfig:
    dir: Path
    data: dict[str, Any]

    @property
    def path(self) -> Path:
        return self.dir / HOST_NAME

    @property
    def games(self) -> dict[str, Path]:
        """Slug -> game directory, in the order they were added."""
        return {slug: Path(entry["dir"]) for slug, entry in self.data.get("games", {}).items()}

    @cached_property
    def settings(self) -> HostSettings:
        """The listeners' limits (game.toml's defaults where host.toml says nothing); Invalid if wrong."""
        return host_settings(self.data)


def init(host_dir: Path) -> None:
    path = host_dir / HOST_NAME
    if path.exists():
        raise HostError(f"{host_dir} already holds a host; not overwriting it")
    host_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER)


def load(host_dir: Path) -> HostConfig:
    path = host_dir / HOST_NAME
    if not path.is_file():
        raise HostError(f"no host at {host_dir} (missing {HOST_NAME}); create one with 'nomic host init'")
    try:
        data = tomllib.loads(path.read_text())
    except OSError as exc:
        raise HostError(f"cannot read {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise HostSettingsError(f"{path}: not TOML: {exc}") from None
    host = HostConfig(host_dir, data)
    try:
        host.settings  # noqa: B018  (checks [smtp], [lmtp] and [http])
    except Invalid as exc:
        raise HostSettingsError(f"{path}: {exc}") from None
    for slug, entry in data.get("games", {}).items():
        if not SLUG.fullmatch(slug) or not isinstance(entry, dict) or not isinstance(entry.get("dir"), str):
            raise HostSettingsError(f'{path}: [games.{slug}] needs a slug of a-z, 0-9 and - and dir = "GAMEDIR"')
    return host


def check(addresses: dict[str, Addresses]) -> None:
    """Refuse (HostError) two games that own the same address."""
    seen: list[tuple[str, Addresses]] = []
    for slug, mine in addresses.items():
        for other, theirs in seen:
            clash = mine.clash(theirs)
            if clash:
                raise HostError(f"games {other} and {slug} both own {clash}; an address must belong to one game")
        seen.append((slug, mine))


def add(host: HostConfig, game_dir: Path, slug: str, addresses: dict[str, Addresses]) -> None:
    """Append the game to host.toml; ``addresses`` holds every game's, the new one's under ``slug``."""
    if not SLUG.fullmatch(slug):
        raise HostError(f"a slug is 1 to 63 of a-z, 0-9 and - (not starting with -), not {slug!r}")
    if slug in host.games:
        raise HostError(f"the slug {slug} is taken (by {host.games[slug]})")
    game_dir = game_dir.resolve()
    taken = next((s for s, d in host.games.items() if d.resolve() == game_dir), None)
    if taken:
        raise HostError(f"{game_dir} is already served as {taken}")
    check(addresses)
    with host.path.open("a") as f:
        f.write(f"\n[games.{slug}]\ndir = {json.dumps(str(game_dir), ensure_ascii=False)}\n")
