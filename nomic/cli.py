"""``nomic``: the command line of docs/contract.md."""
from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer
from typer.core import TyperArgument, TyperCommand

from engine.ruleset import listed, names
from storage.config import DEFAULT_RULESET, ConfigError, parse_time
from nomic.sources import SourceError, check_mail, read_messages



class Command(TyperCommand):
    """A usage line as the contract writes commands: ``nomic init [OPTIONS] DIR`` (Typer writes ``{directory}``)."""

    def collect_usage_pieces(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]  # typer.Context is what it gets
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = (param.metavar or param.name or "").upper() + ("..." if param.nargs != 1 else "")
                pieces.append(name if param.required else f"[{name}]")
        return pieces


# rich_markup_mode=None: help as plain text, so "[outbox]" is shown (not read as markup) and flags carry no "<bool>".
app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, help="The Humble Scribe: run a game of Nomic by email.")
command = partial(app.command, cls=Command)

GameOpt = Annotated[Optional[Path], typer.Option("--game", metavar="DIR",
                                                 help="the game directory (default: $NOMIC_GAME, else ./game)")]
AtOpt = Annotated[Optional[str], typer.Option("--at", metavar="TIME", help="ISO 8601 time with a zone (default: now)")]


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"nomic: {message}", err=True)
    raise typer.Exit(code)


def game_dir(game: Path | None) -> Path:
    return game or Path(os.environ.get("NOMIC_GAME", "game"))


def refuse(exc: ConfigError) -> NoReturn:
    """A game that cannot be opened: a bad game.toml or a known secret exits 2, a missing or unreadable one 1."""
    fail(str(exc), exc.code)


def open_game(game: Path | None):
    from nomic.game import Game
    try:
        return Game(game_dir(game))
    except ConfigError as exc:
        refuse(exc)


def open_intake(game: Path | None):
    """The game, for a command that takes mail: refused while ``[auth]`` cannot tell forged mail
    from genuine (a verdict is journaled for good, so a wrong one is never undone)."""
    g = open_game(game)
    try:
        g.config.check_auth()
    except ConfigError as exc:
        refuse(exc)
    return g


def when(at: str | None) -> datetime:
    if at is None:
        return datetime.now(timezone.utc).replace(microsecond=0)
    try:
        return parse_time(at)
    except ConfigError as exc:
        fail(str(exc), 2)
    raise AssertionError


def rulesets_help() -> str:
    """``--ruleset``'s help: every ruleset of the one list (engine/ruleset.RULESETS), the default marked."""
    shown = [f"{n} (the default)" if n == DEFAULT_RULESET else n for n in names()]
    return (f"{', '.join(shown[:-1])} or {shown[-1]}: game.toml gets that ruleset's defaults, "
            "and the game its rules text")


@command()
def init(directory: Annotated[Path, typer.Argument(metavar="DIR", help="where to create the game")],
         config: Annotated[Optional[Path], typer.Option("--config", metavar="FILE", help="game.toml to start from")] = None,
         ruleset: Annotated[Optional[str], typer.Option(
             "--ruleset", metavar="NAME", help=rulesets_help())] = None,
         start: Annotated[Optional[str], typer.Option(
             "--start", metavar="TIME", help="when the game begins (default: FILE's start, else the next "
             "00:00 UTC)")] = None) -> None:
    """Create a game: DIR/game.toml and its database."""
    from nomic.create import create
    if config is not None and not config.is_file():
        fail(f"cannot read {config}", 2)
    if ruleset is not None and config is not None:
        fail("--ruleset or --config, not both: FILE's [game] ruleset chooses the game", 2)
    if ruleset is not None:
        try:
            listed(ruleset)  # an unknown name: refused before anything is made
        except ValueError as exc:
            fail(str(exc), 2)
    try:
        create(directory, config, ruleset or DEFAULT_RULESET, when(start) if start else None)
    except ConfigError as exc:
        refuse(exc)
    typer.echo(f"created a game in {directory}")


@command()
def check(game: GameOpt = None) -> None:
    """Check game.toml: "ok", or the one line saying what is wrong (exit 2).

    The same checks every command makes before it does anything, and those of the
    commands that take mail (an [auth] that cannot tell forged mail from genuine).
    """
    from storage.config import Config
    try:
        Config.load(game_dir(game)).check_auth()
    except ConfigError as exc:
        refuse(exc)
    typer.echo("ok")


@command()
def upgrade(game: GameOpt = None) -> None:
    """Bring a game an older release wrote up to this one: migrate its database, fold its journal
    again if a migration asks for it; one line per step done. Other commands refuse such a game
    until this has run; serve runs it at start."""
    from nomic.upgrade import upgrade as upgrade_game
    directory = game_dir(game)
    try:
        done = upgrade_game(directory)
    except ConfigError as exc:
        refuse(exc)
    typer.echo("\n".join(f"{directory}: {line}" for line in done) or f"{directory}: up to date; nothing to do")


@command()
def ingest(paths: Annotated[list[str], typer.Argument(metavar="PATH", help=".eml files, Maildirs, mboxes, or - for stdin")],
           at: AtOpt = None, game: GameOpt = None) -> None:
    """Feed mail through the daemon's code path; one line of outcome per message.

    Every message is read and checked before the first is journaled: input that
    is not mail is refused and nothing at all is journaled.
    """
    g = open_intake(game)
    t = when(at)
    try:
        messages = [m for p in paths for m in read_messages(p)]
        for label, raw in messages:
            check_mail(label, raw)
    except SourceError as exc:
        fail(f"{exc}; nothing journaled")
    for label, raw in messages:
        receipt = g.inbox.receive(raw, t, source="cli")
        if receipt.status == "duplicate":
            typer.echo(f"{label}: duplicate of journal entry {receipt.seq} ({receipt.key}); nothing done")
            continue
        for entry, events in g.process():
            if entry.kind != "skip":  # the record of a fault, told with the entry it is about
                typer.echo(f"{label}: journal entry {entry.seq}: {summarise(events)}")


def summarise(events) -> str:
    faults = [e.data["error"] for e in events if e.kind == "fault"]
    if faults:
        return f"could not be played; recorded as a fault and skipped ({faults[0]})"
    outcomes = [e.data["result"] for e in events if e.kind == "outcome"]
    if any(e.kind == "unauthenticated" for e in events):
        return "not authenticated; nothing done"
    return "; ".join(outcomes) or "nothing to do"


@command()
def tick(at: AtOpt = None, game: GameOpt = None) -> None:
    """Run every clock-driven step due by TIME."""
    from nomic.hold import held
    g = open_game(game)
    t = when(at)
    if t > datetime.now(timezone.utc) and held(g.config.dir):
        fail("a daemon (nomic serve) holds this game and runs its clock: tick --at a time later than now "
             "is refused (stop the daemon first)")
    receipt = g.tick(t)
    if receipt is None:
        typer.echo("nothing due")
        return
    for entry, events in g.process():
        kinds = sorted({e.kind for e in events} - {"draw"})
        typer.echo(f"clock step {entry.at}: journal entry {entry.seq}: {', '.join(kinds) or 'nothing changed'}")


@command()
def state(as_json: Annotated[bool, typer.Option("--json", help="print the state as JSON")] = False,
          game: GameOpt = None) -> None:
    """The game state (as JSON with --json)."""
    g = open_game(game)
    st = g.state()
    if as_json:
        typer.echo(json.dumps(st.public_json(), indent=2))
        return
    typer.echo("\n".join(st.summary()))


@command()
def replay(verify: Annotated[bool, typer.Option("--verify", help="only check; exit 1 if the stored state differs")] = False,
           reparse: Annotated[bool, typer.Option("--reparse", help="with --verify: parse every stored mail again "
                                                 "instead of reading the commands cached when it was first played "
                                                 "(a replay without --verify always parses again)")] = False,
           game: GameOpt = None) -> None:
    """Rebuild the state from the journal of received mail and clock steps."""
    g = open_game(game)
    with _progress(g, "verifying" if verify else "replaying") as progress:
        if verify:
            ok, message = g.verify(reparse=reparse, progress=progress)
        else:
            g.rebuild(progress=progress)
            ok, message = True, "state and events rebuilt from the journal"
    typer.echo(message)
    if not ok:
        raise typer.Exit(1)


@contextmanager
def _progress(g, what: str) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar on a terminal (a long journal takes a while); nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import Progress
    with Progress(transient=True) as bar:
        task = bar.add_task(what, total=g.journal_length())
        yield lambda seq: bar.update(task, completed=seq)


@command()
def build(out: Annotated[Optional[Path], typer.Option("--out", metavar="DIR", help="output directory (default: GAME/site)")] = None,
          game: GameOpt = None) -> None:
    """Render the static website."""
    from nomic import tuning
    from nomic.site import build as build_website
    from nomic.website.search import SearchError
    g = open_game(game)
    target = out or g.config.dir / "site"
    try:
        with tuning.no_collection():
            report = build_website(g, target, search=True)  # creates target and its parents
    except OSError as exc:  # a file where a folder must be, no permission, disk full
        fail(f"cannot write the site to {target}: {exc.strerror or exc} ({exc.filename})")
    except SearchError as exc:
        fail(f"the site is written, its search index is not: {exc}")
    typer.echo(f"{target}: {report.pages} pages and files; {report.written} written, "
               f"{report.removed} removed, {report.pages - report.written} unchanged")
    if report.search:
        typer.echo(f"{target / 'pagefind'}: search index of {report.search.files} files, {report.search.bytes:,} bytes "
                   f"({report.search.shards} shards indexed again, {report.search.pages} pages)")


@command()
def export(out: Annotated[Path, typer.Argument(metavar="OUT", help="where to write the export")],
           public: Annotated[bool, typer.Option("--public", help="the public record: no raw mail, no envelope, "
                                                "nothing the players did not show (docs/checking.md)")] = False,
           game: GameOpt = None) -> None:
    """Write what a stranger needs to check the game with `nomic verify OUT`."""
    from nomic.public_record import export as export_record
    if not public:
        fail("only the public export is made: give --public", 2)
    g = open_game(game)
    try:
        head = export_record(g, out)
    except OSError as exc:
        fail(f"cannot write the export to {out}: {exc.strerror or exc} ({exc.filename})")
    typer.echo(f"{out}: {head.count} entries, head {head.hash}")


@command()
def verify(directory: Annotated[Path, typer.Argument(metavar="DIR", help="a public export (nomic export --public)")],
           head: Annotated[Optional[str], typer.Option("--head", metavar="HASH", help="a head hash a page's "
                                                       "footer or the daily mail named: the record must pass through it")] = None) -> None:
    """Check a public export: its hash chain, and that replaying it reaches its published state."""
    from nomic.verify import Failed, verify as check
    try:
        typer.echo(check(directory, head))
    except Failed as exc:
        fail(str(exc))


@command()
def serve(smtp: Annotated[Optional[str], typer.Option(metavar="HOST:PORT", help="HOST:PORT for SMTP intake")] = None,
          lmtp: Annotated[Optional[str], typer.Option(metavar="HOST:PORT", help="HOST:PORT for LMTP intake")] = None,
          http: Annotated[Optional[str], typer.Option(metavar="HOST:PORT", help="HOST:PORT for the site preview and one-click unsubscribe")] = None,
          game: GameOpt = None) -> None:
    """The daemon: SMTP and LMTP intake, the clock, the outbox sender, site rebuilds."""
    from nomic.daemon import DaemonError, quiet_logging, run, upgrade_logged
    quiet_logging()
    try:
        upgrade_logged(game_dir(game))
    except ConfigError as exc:
        refuse(exc)
    try:
        run(open_intake(game), smtp=smtp, lmtp=lmtp, http=http)
    except DaemonError as exc:
        fail(str(exc), 2)
    except OSError as exc:  # e.g. the address is in use
        fail(f"cannot listen: {exc.strerror or exc}")


@command()
def poll(once: Annotated[bool, typer.Option("--once", help="one round: journal and process what is waiting, then exit")] = False,
         game: GameOpt = None) -> None:
    """Intake from an IMAP mailbox (IDLE where the server offers it)."""
    from mailer.imap_poll import PollError, run
    g = open_intake(game)
    try:
        n = run(g.inbox, g.config.settings.imap, g.config.dir, g.process, once=once)
    except PollError as exc:
        fail(str(exc))
    typer.echo(f"{n} new message(s) journaled")


@command()
def outbox(as_json: Annotated[bool, typer.Option("--json", help="print as JSON, each mail with its text")] = False,
           show: Annotated[Optional[int], typer.Option("--show", metavar="N",
                                                       help="print mail N (the first column) as text: "
                                                            "its headers and decoded body")] = None,
           game: GameOpt = None) -> None:
    """Outgoing mail, oldest first."""
    from sqlmodel import Session, select

    from mailer.display import mail_text
    from mailer.outbox import OutboxMessage, listing
    g = open_game(game)
    with Session(g.db) as s:
        if show is not None:
            row = s.get(OutboxMessage, show)
            if row is None:
                fail(f"no outgoing mail {show} (nomic outbox lists them)")
            typer.echo(mail_text(row.raw), nl=False)
            return
        rows = listing(s)
        if as_json:
            raws = dict(s.exec(select(OutboxMessage.id, OutboxMessage.raw)).all())
            typer.echo(json.dumps([r | {"text": mail_text(raws[r["id"]])} for r in rows], indent=2))
            return
    for r in rows:
        typer.echo(f"{r['id']:>5} {r['status']:<7} {r['kind']:<12} {', '.join(r['to']) or '(no recipients)'}: "
                   f"{r['subject']}")


@command()
def send(at: AtOpt = None, game: GameOpt = None) -> None:
    """One pass of the outbox sender: hand every due delivery to the [outbox] relay."""
    from mailer.sender import run_once
    from nomic.wiring import outlet
    g = open_game(game)
    n = run_once(outlet(g), when(at) if at else None)
    typer.echo(f"sent {n} deliveries")


from nomic.host import host_app  # noqa: E402  (nomic host: several games, one daemon)
app.add_typer(host_app, name="host")


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="nomic: %(levelname)s: %(message)s")
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
    except (ConfigError, SourceError) as exc:
        typer.echo(f"nomic: {exc}", err=True)
        sys.exit(exc.code if isinstance(exc, ConfigError) else 1)
    except Exception as exc:  # one clear line, never a traceback (NOMIC_DEBUG=1 shows it)
        if os.environ.get("NOMIC_DEBUG"):
            raise
        typer.echo(f"nomic: {type(exc).__name__}: {exc}".splitlines()[0], err=True)
        sys.exit(1)
