"""game.toml: reading it, its defaults, and the engine's view of it."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Any

from engine.context import EngineConfig

CONFIG_NAME = "game.toml"


class ConfigError(Exception):
    """game.toml is missing, unreadable or wrong."""


def default_text() -> str:
    return resources.files("storage").joinpath("default_game.toml").read_text()


def parse_time(value: str) -> datetime:
    """ISO 8601 with a zone (a trailing Z allowed); always returned in UTC."""
    try:
        t = datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ConfigError(f"not an ISO 8601 time: {value!r}") from None
    if t.tzinfo is None:
        raise ConfigError(f"time has no zone: {value!r} (add Z or +HH:MM)")
    return t.astimezone(timezone.utc)


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        out[key] = _merge(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return out


@dataclass
class Config:
    """The whole game.toml (defaults filled in) for the game in ``dir``."""
    dir: Path
    data: dict[str, Any]

    @classmethod
    def load(cls, game_dir: Path) -> "Config":
        path = game_dir / CONFIG_NAME
        if not path.is_file():
            raise ConfigError(f"no game at {game_dir} (missing {CONFIG_NAME}); create one with 'nomic init'")
        try:
            data = tomllib.loads(path.read_text())
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read {path}: {exc}") from None
        return cls(game_dir, _merge(tomllib.loads(default_text()), data))

    def section(self, name: str) -> dict[str, Any]:
        return self.data.get(name, {})

    @property
    def game(self) -> dict[str, Any]:
        return self.data["game"]

    @property
    def database_url(self) -> str:
        return self.game.get("database_url") or f"sqlite:///{(self.dir / 'game.db').resolve()}"

    def check_auth(self) -> None:
        """Refuse a game whose ``[auth]`` cannot tell forged mail from genuine (serve, poll and ingest
        call this before taking mail: a verdict is journaled for good, so a wrong one is never undone)."""
        auth = self.section("auth")
        mode, topmost = auth.get("mode", "authres"), auth.get("trust_topmost_header", False)
        if mode not in ("authres", "dkim", "none"):
            raise ConfigError(f'[auth] mode must be "authres", "dkim" or "none", not {mode!r}')
        if not isinstance(topmost, bool):
            raise ConfigError(f"[auth] trust_topmost_header must be true or false, not {topmost!r}")
        if mode == "authres" and not str(auth.get("authserv_id", "")).strip() and not topmost:
            raise ConfigError('[auth] mode = "authres" needs authserv_id = "<your MTA\'s authserv-id>" '
                              "(or trust_topmost_header = true if your MTA adds Authentication-Results "
                              "to every message); until then no mail would be believed")

    def rules_text(self) -> str:
        name = self.game.get("rules_file", "")
        if name:
            return (self.dir / name).read_text()
        return resources.files("nomic").joinpath("rulesets/imperial-nomic.txt").read_text()

    def engine(self) -> EngineConfig:
        g, o = self.game, self.section("offices")
        return EngineConfig(
            start=parse_time(str(g["start"])), seed=str(g["seed"]),
            address=g["address"].lower(), list_address=g["list_address"].lower(),
            offices=offices(o), first_it=o.get("first_it", "").lower(),
            day_mode=g.get("day_mode", "emperor"), ruleset=g.get("ruleset", "imperial"),
            edition=str(g.get("edition", "")),
            variables={k: int(v) for k, v in self.section("variables").items()},
            options=dict(self.section(g.get("ruleset", "imperial"))))


def offices(section: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """``[offices]``: each key names an office held by one address or a list of them; ``NAME_passphrase``
    is that office's passphrase (mailer/auth.py), and ``first_it`` Imperial's setting of rule 22."""
    held = {k: [v] if isinstance(v, str) else list(v) for k, v in section.items()
            if k != "first_it" and not k.endswith("_passphrase")}
    return {k: tuple(dict.fromkeys(a.strip().lower() for a in v if a.strip())) for k, v in held.items()}
