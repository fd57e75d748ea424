"""What the mailer is given of a game: values made here, so the mailer never takes the game itself.

The intake's is the game's inbox (``Game.inbox``); the outgoing mail's a ``Mailing`` (made by
``Game`` for each entry it folds); the sender's an ``Outlet``; the web forms' ``Forms``, and the
preview server's a ``Site`` of those.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from mailer.http_server import Site
from mailer.sender import Outlet
from mailer.web import Forms

if TYPE_CHECKING:
    from nomic.game import Game


def outlet(game: "Game") -> Outlet:
    return Outlet(game.db, game.list_settings, game.config.settings.outbox, game.config.dir)


def forms(game: "Game") -> Forms:
    return Forms(game.inbox, game.db, game.list_settings, game.config.settings.http, game.state)


def site(game: "Game", lock: threading.Lock, after_post: Callable[[], None]) -> Site:
    """The preview server's view of the game: its built site and its forms."""
    return Site(forms(game), game.config.dir / "site", lock, after_post)
