"""``nomic upgrade``: bring a game an older release wrote up to this release, saying what was done.

Two steps, each only when due: the database schema is migrated to the newest revision
(storage.migrate), and, where a migration asked for it (storage.REFOLD), the journal is folded
again into fresh derived rows (``Game.rebuild``: the same state, no mail sent again). Opening a
game never does either (``Game`` refuses a game that needs them); ``nomic serve`` and ``nomic host
serve`` run this at start and write what it did to their log.
"""
from __future__ import annotations

from pathlib import Path

from sqlmodel import Session

import storage
from nomic.game import Game
from nomic.hold import held
from storage.config import CONFIG_NAME, Config, ConfigError, check_secrets


def upgrade(game_dir: Path, serving: bool = False) -> list[str]:
    """Upgrade the game in ``game_dir``; one line per step done (none: it was up to date).

    Refused (ConfigError) while a daemon holds the game, unless ``serving``: the daemon about
    to serve it upgrades it itself, before it takes its hold."""
    config = Config.load(game_dir)
    check_secrets(game_dir / CONFIG_NAME, config.data)
    if not serving and held(game_dir):
        raise ConfigError(f"{game_dir}: a daemon (nomic serve) holds this game: stop it first "
                          "(nomic serve upgrades the game when it starts)")
    db, migrated = storage.upgrade_database(config.database_url)
    done = [] if migrated is None else [f"schema {migrated[0] or 'from before migrations'} -> {migrated[1]}"]
    reason = storage.refold_reason(db)
    if reason:
        game = Game(game_dir, db=db)
        game.rebuild()
        with Session(db) as s:
            folded = int(storage.get_meta(s, "processed_seq", "0"))
        done.append(f"refolded {folded} journal {'entry' if folded == 1 else 'entries'} ({reason})")
    db.dispose()
    return done
