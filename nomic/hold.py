"""A daemon's hold on a game: ``nomic serve`` (and ``nomic host serve``, for each of its games)
keeps an exclusive lock on ``DIR/serve.lock`` while it runs: one daemon per game, a second one is
refused (two would each tick the clock and fold, and answer every mail twice).

Other commands ask whether a daemon holds the game (``held``): ``nomic tick --at`` a later time
than now is refused then, since the daemon's clock and its stamps on arriving mail go by the wall
clock and would fall behind the game's. The lock is the kernel's (flock): it ends with the process,
however the process ends, so there is never a stale one to remove. It sees daemons on this machine
only, which is where a game directory is served from.
"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

LOCK_NAME = "serve.lock"


class Held(Exception):
    """Another daemon holds the game (one line for the operator)."""


class Hold:
    """A daemon's hold on the game in ``game_dir``, from ``acquire`` to ``release``."""

    def __init__(self, game_dir: Path):
        self.path = game_dir / LOCK_NAME
        self._file: IO[bytes] | None = None

    def acquire(self) -> None:
        """Take the hold (once: again is nothing), or raise ``Held`` if another daemon has it."""
        if self._file is not None:
            return
        file = open(self.path, "ab")
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            file.close()
            raise Held(f"another daemon (nomic serve or nomic host serve) holds the game in {self.path.parent} "
                       f"({LOCK_NAME}): one daemon per game") from None
        self._file = file

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file ends the lock
            self._file = None


def held(game_dir: Path) -> bool:
    """Does a running daemon hold the game in ``game_dir``?"""
    path = game_dir / LOCK_NAME
    if not path.exists():
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # shared: two askers at once do not see each other
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # also ends the lock just taken
    return False
