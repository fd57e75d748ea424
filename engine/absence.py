"""Absence, for any player in every ruleset: ``Away until DATE [because ...]`` and ``Back``.

An absent player gets no reminder and no personal daily mail (engine/reminders.py,
mailer/personal.py); the roster and the player's page say so. The absence covers the whole of
DATE (UTC) and ends by itself after it (``expire``, at every step) or at ``Back``. Absence means
nothing more to the rules: where a ruleset gives it a meaning (BlogNomic's Idle) the answer offers
that command (``offer``) rather than doing it silently.
"""
from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any, Literal

from engine.commands import Cmd, Declaration, Help, Line, pattern
from engine.context import Context
from engine.inputs import Message
from engine.state import Absence, GameState
from engine.refusal import Refusal

REASON_LIMIT = 200  # characters of a reason kept; the rest is cut


class AwayCmd(Cmd):
    kind: Literal["away"] = "away"
    until: str  # as written: checked by the handler, so that a bad date gets its own answer
    because: str = ""


class BackCmd(Cmd):
    kind: Literal["back"] = "back"


def today(at: datetime) -> date:
    return at.astimezone(timezone.utc).date()


def is_away(state: GameState[Any], address: str, at: datetime) -> bool:
    """Whether ``address`` is away on ``at``'s UTC day."""
    absence = state.away.get(address)
    return absence is not None and today(at) <= absence.until


def away_until(state: GameState[Any], address: str) -> str | None:
    """``nomic state --json``'s ``away_until``: the date, or None."""
    absence = state.away.get(address)
    return None if absence is None else absence.until.isoformat()


def expire(state: GameState[Any], at: datetime) -> None:
    """Forget the absences whose last day is over (a cheap no-op while nobody is away)."""
    if state.away:
        ended = [a for a, absence in state.away.items() if absence.until < today(at)]
        for address in ended:
            del state.away[address]


def _date(text: str) -> date | None:
    try:
        return date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        return None


def away(state: GameState[Any], msg: Message, cmd: AwayCmd, ctx: Context, *, offer: str = "") -> None:
    """``offer``: what the ruleset's own command for absence is, said after the answer
    ("; to be Idle under the rules as well, send Idle")."""
    if state.player(msg.sender) is None:
        ctx.refuse(cmd.line, Refusal("only a player can be away", ruleless="service"), "nothing changed")
        return
    until = _date(cmd.until)
    if until is None:
        ctx.refuse(cmd.line, Refusal(f"{cmd.until!r} is no date: write it as YYYY-MM-DD, like "
                                     f"{today(ctx.at).isoformat()}", ruleless="service"), "nothing changed")
        return
    if until < today(ctx.at):
        ctx.refuse(cmd.line, Refusal(f"{until.isoformat()} is already past (today is {today(ctx.at).isoformat()}, UTC)",
                                     ruleless="service"), "nothing changed")
        return
    because = " ".join(cmd.because.split())[:REASON_LIMIT]
    state.away[msg.sender] = Absence(until=until, because=because, since=ctx.at)
    ctx.say(cmd.line, f"{msg.sender} is away until {until.isoformat()} (the whole day, UTC): no reminders and "
                      f"no personal daily mail until then; send Back to end it sooner{offer}")


def back(state: GameState[Any], msg: Message, cmd: BackCmd, ctx: Context) -> None:
    if state.away.pop(msg.sender, None) is None:
        ctx.refuse(cmd.line, Refusal(f"{msg.sender} is not away", ruleless="already"), "nothing changed")
        return
    ctx.say(cmd.line, f"{msg.sender} is back: reminders and the personal daily mail start again")


def _away_cmd(m: Any) -> AwayCmd:
    return AwayCmd(until=m[1], because=m[2] or "")


ABSENCE_COMMANDS: tuple[Declaration, ...] = (
    Declaration("away", AwayCmd, (Line(pattern(r"^away\s+until\s+(\S+)(?:\s+because\s+(.*))?$"), _away_cmd),),
                away, help=(Help("Be away through a date (UTC): no reminders, no personal daily mail.",
                                 "Away until 2026-02-01 because holiday"),)),
    Declaration("back", BackCmd, (Line(pattern(r"^back$"), lambda m: BackCmd()),), back,
                help=(Help("Be back before the date you gave.", "Back"),)),
)
