"""``nomic init``: a new game, its game.toml written and its database made."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from nomic import game_secrets
from nomic.clock import with_start
from nomic.game import Game
from storage.config import CONFIG_NAME, DEFAULT_RULESET, Config, ConfigError, default_text


def create(game_dir: Path, config_file: Path | None = None, ruleset: str = DEFAULT_RULESET,
           start: datetime | None = None) -> Game:
    """A new game; it starts at ``start``, else at the config file's start, else at the next 00:00 UTC."""
    if (game_dir / CONFIG_NAME).exists():
        raise ConfigError(f"{game_dir} already holds a game; not overwriting it")
    text = config_file.read_text() if config_file else default_text(ruleset)
    Config.read(game_dir, text, config_file)  # a game.toml that cannot run: refused before anything is written
    text = game_secrets.fill(text)  # then a random seed and token secret where it has none of its own
    text = with_start(text, start, datetime.now(timezone.utc), own=config_file is not None)
    game_dir.mkdir(parents=True, exist_ok=True)
    (game_dir / CONFIG_NAME).write_text(text)
    try:
        game = Game(game_dir)
    except Exception:
        (game_dir / CONFIG_NAME).unlink()
        raise
    return game
