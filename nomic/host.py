"""``nomic host``: several games in one installation, served by one daemon (docs/contract.md).

``init`` writes an empty HOSTDIR/host.toml, ``add`` puts an existing game in it under a
slug (refusing a slug taken or an address another game owns), ``serve`` runs every
game in one process (nomic/host_serve.py). The heavy imports wait for the command.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

if TYPE_CHECKING:
    from nomic.host_config import HostError
    from storage.config import ConfigError

host_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                       help="Several games in one installation, served by one daemon.")
HostDir = Annotated[Path, typer.Argument(metavar="HOSTDIR", help="the host directory (holds host.toml)")]
Listen = Optional[str]


def _fail(message: str, code: int = 1) -> None:
    typer.echo(f"nomic: {message}", err=True)
    raise typer.Exit(code)


def _refuse(exc: "HostError | ConfigError") -> None:
    """A bad value, key or section in host.toml or a game's game.toml, or a known secret, exits 2; any other
    refusal 1 (each error's ``code``)."""
    _fail(str(exc), exc.code)


@host_app.command()
def init(host_dir: HostDir) -> None:
    """An empty host: HOSTDIR/host.toml."""
    from nomic.host_config import HostError, init as init_host
    try:
        init_host(host_dir)
    except HostError as exc:
        _fail(str(exc))
    typer.echo(f"created a host in {host_dir}")


@host_app.command()
def add(host_dir: HostDir,
        game_dir: Annotated[Path, typer.Argument(metavar="GAMEDIR", help="an existing game (nomic init)")],
        slug: Annotated[str, typer.Option("--slug", metavar="SLUG", help="its path on the site: /SLUG/")]) -> None:
    """Serve an existing game (any ruleset) under SLUG.

    A running host takes it on SIGHUP (systemctl reload), without stopping the other games.
    """
    from nomic.game import Game
    from nomic.host_config import HostError, add as add_game, load
    from storage.config import ConfigError
    try:
        host = load(host_dir)
        games = {**host.games, slug: game_dir}
        addresses = {s: Game(d).inbox.addresses for s, d in games.items()}
        add_game(host, game_dir, slug, addresses)
    except (HostError, ConfigError) as exc:
        _refuse(exc)
    typer.echo(f"{game_dir} is served as {slug}; a running host takes it on SIGHUP")


@host_app.command()
def serve(host_dir: HostDir,
          smtp: Annotated[Listen, typer.Option(metavar="HOST:PORT", help="HOST:PORT for SMTP intake")] = None,
          lmtp: Annotated[Listen, typer.Option(metavar="HOST:PORT", help="HOST:PORT for LMTP intake")] = None,
          http: Annotated[Listen, typer.Option(metavar="HOST:PORT", help="HOST:PORT for the sites, each at /SLUG/")] = None,
          ) -> None:
    """One daemon for every game: intake routed by address, each game's clock, outbox and site."""
    from nomic.daemon import DaemonError
    from nomic.host_config import HostError
    from nomic.host_serve import run
    try:
        run(host_dir, smtp=smtp, lmtp=lmtp, http=http)
    except DaemonError as exc:
        _fail(str(exc), 2)
    except HostError as exc:
        _refuse(exc)
    except OSError as exc:  # e.g. the address is in use
        _fail(f"cannot listen: {exc.strerror or exc}")
