"""``nomic host serve``: one daemon for every game of a host (host.toml, nomic/host_config.py).

Each game runs as it would under ``nomic serve`` (nomic/daemon.py ``GameService``: its
own journal writer, processor, clock and outbox sender, its own database), and shares
only the listeners: one SMTP/LMTP listener whose ``Routes`` give each recipient to
the game that owns its address, and one HTTP server with each game's site under
``/SLUG/`` and the list of games at ``/``.

SIGHUP reads host.toml again: games added start, games removed stop (what they had
accepted is played first), the others are not touched. A game that cannot be opened
(its game.toml is wrong, its directory gone) is left out with an error line naming it
and the problem, its mail answered 451 (``Routes.held``), and the other games are
served; a host.toml that cannot be served (two games owning one address) is refused
and the games go on as before. SIGTERM or SIGINT stops every game as ``nomic serve``
does, the games sharing the entries folded while stopping (``FINAL_LIMIT``).
"""
from __future__ import annotations

import asyncio
import logging
import signal
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mailer.http_server import Site, make_host_server
from mailer.inbox import Addresses
from mailer.intake import IntakeHandler, Routes, Traffic
from nomic import host_config, summary, tuning
from nomic.daemon import (CHUNK, FINAL_LIMIT, GameService, Turns, check_addresses, close, host_port, listen,
                          quiet_logging, start_http, stop_http, stop_signal, upgrade_logged, wait_for_signal)
from nomic.game import Game
from nomic.host_config import HostConfig, HostError
from nomic.hold import held
from nomic.wiring import site
from nomic.host_index import listing, page
from rendering import Renderer
from storage.config import CONFIG_NAME, ConfigError, filled

log = logging.getLogger("nomic.host")
STOPPERS = 8  # games stopped at once


class Host:
    """The games a running host serves; ``update`` makes them what host.toml says.

    Their processors share one ``Turns``, giving way to the mail arriving for any of them.
    """

    def __init__(self, host_dir: Path):
        self.dir = host_dir
        self.traffic = Traffic()
        self.turns = Turns(self.traffic.busy)
        self.config = HostConfig(host_dir, {})
        self.services: dict[str, GameService] = {}
        self.sites: dict[str, Site] = {}
        self.held: list[Addresses] = []  # the addresses of the games left out: their mail gets 451
        self.refused: dict[str, ConfigError] = {}  # the games left out at the last update, and why
        self.renderer = Renderer()  # the list of games' template, compiled once

    def update(self) -> list[GameService]:
        """Read host.toml; start the games it adds. Returns the services of the games it
        removed, for the caller to stop once no mail is routed to them."""
        config = host_config.load(self.dir)
        self.refused = {}
        opened = {slug: self._game(slug, path) for slug, path in config.games.items()}
        games = {slug: game for slug, game in opened.items() if isinstance(game, Game)}
        host_config.check({slug: g.inbox.addresses for slug, g in games.items()})
        self.held = [a for a in opened.values() if isinstance(a, Addresses)]
        kept = {slug: svc for slug, svc in self.services.items() if games.get(slug) is svc.game}
        gone = [svc for slug, svc in self.services.items() if slug not in kept]
        share = max(CHUNK, FINAL_LIMIT // max(1, len(games)))  # a stop folds about as much as one game's
        services = {slug: kept.get(slug) or GameService(g, slug, self.turns, share).start() for slug, g in games.items()}
        self.config, self.services = config, services
        self.sites = {slug: site(s.game, s.lock, s.processor.wake.set) for slug, s in services.items()}
        return gone

    def _game(self, slug: str, path: Path) -> Game | Addresses | None:
        """The game served as ``slug``: the running one if it is still the same directory, else opened.
        If it cannot be (logged, naming the game and the problem), the other games go on, and its mail
        is held (451) when its addresses can still be read from its game.toml (else None)."""
        running = self.services.get(slug)
        if running is not None and running.game.config.dir.resolve() == path.resolve():
            return running.game
        try:
            upgrade_logged(path, slug)
            game = Game(path)
            game.config.check_auth()
            if held(path):  # one daemon per game (nomic.hold)
                raise ConfigError(f"{path}: another daemon (nomic serve or nomic host serve) holds this game")
        except ConfigError as exc:
            log.error("game %s not served: %s", slug, exc)
            self.refused[slug] = exc
            return _addresses(path)
        return game

    def routes(self) -> Routes:
        return Routes([s.mailbox for s in self.services.values()], self.held)

    def index(self) -> str:
        """The list of games, from their published summaries: a busy or stuck game holds up no one."""
        rows = []
        for slug, svc in list(self.services.items()):
            game = svc.game
            try:
                rows.append(listing(slug, game.config.settings.game.name, game.engine_config.ruleset,
                                    summary.read(game.config.dir), address=game.config.settings.game.address))
            except Exception:
                log.exception("game %s left out of the index: its summary cannot be read", slug)
        return page(rows, self.renderer)


def _addresses(path: Path) -> Addresses | None:
    """What a game that cannot be opened would own, read from its game.toml unchecked; None if unreadable."""
    try:
        data = filled((path / CONFIG_NAME).read_text())
        addresses = (data["game"]["address"], data["game"]["list_address"], data["smtp"]["bounce_prefix"])
    except (OSError, ValueError, ConfigError, KeyError, TypeError):
        return None
    if not all(isinstance(a, str) for a in addresses):
        return None
    return Addresses.of(*addresses)


def stop_all(services: list[GameService]) -> None:
    """Stop several games at once: each commits its queue and plays what it accepted."""
    with ThreadPoolExecutor(STOPPERS) as pool:
        list(pool.map(GameService.stop, services))


async def _serve(host: Host, smtp: str | None, lmtp: str | None, http: str | None) -> None:
    loop = asyncio.get_running_loop()
    cfg = host.config
    handler = IntakeHandler(host.routes(), cfg.settings, host.traffic)
    stopped = stop_signal()  # before listening: once mail can arrive, a stop signal is a clean stop
    servers = await listen(handler, smtp, lmtp)
    httpd = None
    if http:
        httpd = start_http(make_host_server(host_port(http, "http"), cfg.settings.http,
                                            lambda: host.sites, host.index))
    reloading = asyncio.Lock()

    async def reload() -> None:
        async with reloading:
            try:
                gone = await loop.run_in_executor(None, host.update)
            except HostError as exc:
                log.error("host.toml not applied: %s; the games are served as before", exc)
                return
            handler.routes = host.routes()
            await loop.run_in_executor(None, stop_all, gone)
            log.info("host.toml applied: serving %s", ", ".join(host.services) or "no game")

    tasks: set[asyncio.Task] = set()

    def on_hangup() -> None:
        task = loop.create_task(reload())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    loop.add_signal_handler(signal.SIGHUP, on_hangup)
    tuning.settle_heap()
    await wait_for_signal(stopped)
    await close(servers)
    async with reloading:
        await loop.run_in_executor(None, stop_all, list(host.services.values()))
    stop_http(httpd)
    log.info("stopped")


def run(host_dir: Path, smtp: str | None = None, lmtp: str | None = None, http: str | None = None) -> None:
    """``nomic host serve``: run until SIGTERM or SIGINT; HostError if host.toml cannot be served."""
    quiet_logging("%(asctime)s nomic: %(threadName)s: %(levelname)s: %(message)s")  # threads are named for their game
    check_addresses(smtp, lmtp, http)
    host = Host(host_dir)
    host.update()
    if not host.services and host.refused:  # nothing to serve: refuse as a single game's serve does
        slug, exc = next(iter(host.refused.items()))
        raise HostError(f"game {slug}: {exc}", exc.code)
    log.info("serving %d games: %s", len(host.services), ", ".join(host.services))
    asyncio.run(_serve(host, smtp, lmtp, http))
