"""game.toml: reading it, its defaults, and the engine's view of it."""
from __future__ import annotations

import logging
import re
import tomllib
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.context import EngineConfig
from engine.ruleset import listed, names
from storage.settings import Invalid, check, model_for

if TYPE_CHECKING:
    from storage.settings.common import CommonSettings

log = logging.getLogger("nomic.auth")

CONFIG_NAME = "game.toml"
DEFAULT_RULESET = "imperial"
COMMON = "common"  # storage/defaults/common.toml: the keys of every game
_TABLE = re.compile(r"^\[(\w+)\][ \t]*$", re.M)


class ConfigError(Exception):
    """game.toml is missing, unreadable or wrong."""
    code = 1  # the command line's exit status


class SecretError(ConfigError):
    """A secret of game.toml is one anyone can read (exit status 2, as for a bad argument)."""
    code = 2


# Seeds anyone can read: the defaults' and the contract's placeholders, and every demo's
PLACEHOLDER_SEEDS = frozenset({"", "change-me", "...", "demo-seed-not-secret"})


class SettingsError(ConfigError):
    """game.toml has a value, key or section the game cannot run with: refused by every command
    before it does anything (the CLI's exit status 2), in one line naming the file and the key."""
    code = 2


def _bundled(package: str, name: str) -> str:
    return resources.files(package).joinpath(name).read_text()


def defaults(name: str) -> str:
    """storage/defaults/NAME.toml: a ruleset's own keys, or (``COMMON``) those of every game."""
    return _bundled("storage" if name == COMMON else listed(name).files, f"defaults/{name}.toml")


def default_text(ruleset: str = DEFAULT_RULESET) -> str:
    """The commented defaults of a game of ``ruleset``: its own file (storage/defaults/RULESET.toml),
    each of its tables followed by the keys every game has there (storage/defaults/common.toml), then
    common's other tables. ``nomic init`` writes it; ``Config.load`` fills in a game.toml with it."""
    head, own = _tables(defaults(ruleset))
    common = _tables(defaults(COMMON))[1]
    merged = {name: own.get(name, "").rstrip("\n") + common.get(name, "") for name in {**own, **common}}
    return head + "\n".join(f"[{name}]{body.rstrip()}\n" for name, body in merged.items())


def _tables(text: str) -> tuple[str, dict[str, str]]:
    """A TOML file of plain ``[table]`` headers cut into what comes before the first and each table's body."""
    head, *rest = _TABLE.split(text)
    return head, dict(zip(rest[::2], rest[1::2]))


def _ruleset_of(data: dict[str, Any]) -> str:
    """The ruleset a game.toml names (``[game] ruleset``; Imperial when it names none)."""
    game = data.get("game")
    name = game.get("ruleset", DEFAULT_RULESET) if isinstance(game, dict) else DEFAULT_RULESET
    if not isinstance(name, str) or name not in names():
        raise ConfigError(f"[game] ruleset must be one of {', '.join(map(repr, sorted(names())))}, not {name!r}")
    return name


def filled(text: str) -> dict[str, Any]:
    """A game.toml's ``text`` with its ruleset's defaults filled in, not checked (``Config.read`` checks)."""
    data = tomllib.loads(text)
    return _merge(tomllib.loads(default_text(_ruleset_of(data))), data)


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
    """The whole game.toml (defaults filled in) for the game in ``dir``; ``file``: where it was read
    from, when not DIR/game.toml (``nomic init --config FILE``), for naming it in an error."""
    dir: Path
    data: dict[str, Any]
    file: Path | None = None

    @property
    def path(self) -> Path:
        return self.file or self.dir / CONFIG_NAME

    @classmethod
    def load(cls, game_dir: Path) -> "Config":
        path = game_dir / CONFIG_NAME
        if not path.is_file():
            raise ConfigError(f"no game at {game_dir} (missing {CONFIG_NAME}); create one with 'nomic init'")
        try:
            text = path.read_text()
        except OSError as exc:
            raise ConfigError(f"cannot read {path}: {exc}") from None
        return cls.read(game_dir, text)

    @classmethod
    def read(cls, game_dir: Path, text: str, file: Path | None = None) -> "Config":
        """The game in ``game_dir`` with ``text`` (read from ``file``) as its game.toml, checked whole: a key,
        section or value the game cannot run with is refused now (SettingsError), not at the first mail."""
        path = file or game_dir / CONFIG_NAME
        try:
            config = cls(game_dir, filled(text), file)
            config.settings  # noqa: B018  (checks every section)
            config.bundled_rules()  # an edition the ruleset does not have is refused now, not at the first fold
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"{path}: not TOML: {exc}") from None
        except SettingsError:
            raise
        except ConfigError as exc:
            raise SettingsError(f"{path}: {exc}") from None
        return config

    @cached_property
    def settings(self) -> "CommonSettings":
        """game.toml typed, per its ruleset's model (storage/settings/)."""
        try:
            return check(model_for(self.game["ruleset"]), self.data)  # type: ignore[return-value]
        except Invalid as exc:
            raise SettingsError(f"{self.path}: {exc}") from None

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
        auth = self.settings.auth
        if auth.mode == "none":  # the game named: a host serves several
            log.warning('%s (%s): [auth] mode = "none": every From address is believed; for tests and demos only',
                        self.game.get("name") or self.dir.name, self.dir)
        if auth.mode == "authres" and not auth.authserv_id.strip() and not auth.trust_topmost_header:
            raise SettingsError(f'{self.path}: [auth] mode = "authres" needs authserv_id = "<your MTA\'s authserv-id>" '
                              "(or trust_topmost_header = true if your MTA adds Authentication-Results "
                              "to every message); until then no mail would be believed")

    def rules_text(self) -> str:
        """The rules a new game begins with: ``[game] rules_file`` (in the game directory), else the
        ruleset's bundled text for its edition."""
        name = self.game.get("rules_file", "")
        if name:
            return (self.dir / name).read_text()
        return _bundled(listed(self.game["ruleset"]).files, f"rulesets/{self.bundled_rules()}")

    def bundled_rules(self) -> str:
        """The name of the bundled text of ``[game] ruleset`` and ``edition`` (storage/rulesets/; its
        editions are its entry's ``texts`` in the one list, engine/ruleset.RULESETS)."""
        ruleset, edition = self.game["ruleset"], str(self.game.get("edition", ""))
        texts = listed(ruleset).texts
        if edition not in texts:
            known = [repr(e) for e in texts if e]
            raise ConfigError(f"[game] edition of {ruleset} must be {' or '.join(known)}, not {edition!r}" if known
                              else f"[game] edition: {ruleset} has no editions; leave it out (not {edition!r})")
        return texts[edition]

    def engine(self) -> EngineConfig:
        s, g, o = self.settings, self.game, self.section("offices")
        return EngineConfig(
            start=s.game.start, seed=s.game.seed,
            address=s.game.address.lower(), list_address=s.game.list_address.lower(),
            offices=offices(o), first_it=o.get("first_it", "").lower(),  # Imperial's; others have none
            day_mode=g.get("day_mode", EngineConfig.day_mode), ruleset=s.game.ruleset, edition=s.game.edition,
            variables=dict(s.variables), options=dict(self.section(s.game.ruleset)),
            subscribe_players=s.list_.subscribe_players, remind_hours=s.list_.remind_hours)


def check_secrets(path: Path, data: dict[str, Any]) -> None:
    """Refuse (SecretError) a game whose ``[game] seed`` or ``[list] token_secret`` is a known placeholder,
    or whose seed keys the list's tokens (no token_secret: a game begun before it existed) while
    ``reveal_seed`` publishes it. ``[game] accept_known_seed = true`` lets a game begun by an older
    release with a placeholder seed finish (docs/operating.md, "Secrets")."""
    game, token = data.get("game", {}), str(data.get("list", {}).get("token_secret", ""))
    seed = str(game.get("seed", ""))
    if seed.strip().lower() in PLACEHOLDER_SEEDS and game.get("accept_known_seed") is not True:
        raise SecretError(f"{path}: [game] seed is the placeholder {seed!r}, which anyone can read; set it to a "
                          "random secret (docs/operating.md, \"Secrets\")")
    if token and token.strip().lower() in PLACEHOLDER_SEEDS:
        raise SecretError(f"{path}: [list] token_secret is the placeholder {token!r}; set it to a random secret")
    if token and token == seed:
        raise SecretError(f"{path}: [list] token_secret is the seed, which the site publishes at the end of the game; "
                          "set it to a random secret of its own")
    if not token and game.get("reveal_seed") is True:
        raise SecretError(f"{path}: [game] reveal_seed = true would publish the seed, which keys the list's links "
                          "while [list] token_secret is empty; set token_secret to a random secret first")
    if seed.strip().lower() in PLACEHOLDER_SEEDS:
        log.warning("%s: [game] seed is the placeholder %r: every draw can be foretold", path, seed)


def offices(section: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """``[offices]``: each key names an office held by one address or a list of them; ``NAME_passphrase``
    is that office's passphrase (mailer/auth.py), and ``first_it`` Imperial's setting of rule 22."""
    held = {k: [v] if isinstance(v, str) else v for k, v in section.items()
            if k != "first_it" and not k.endswith("_passphrase")}
    return {k: tuple(dict.fromkeys(a.strip().lower() for a in v if a.strip())) for k, v in held.items()}
