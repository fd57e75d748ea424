"""Actions announced for a later moment (1-10): ``At TIME: LINE``.

TIME is an absolute time (``2026-01-09T12:00:00Z``) or ``the start|end of nday N [of nweek W]``
(without ``of nweek W``: the next such moment, Reading 10). The action is kept as its command and
judged when it runs, as if its announcer sent it then (Reading 44); it runs at its moment in the
midnight's order (CONTRACT.md: 1.5 the ends of ndays, 3.5 the starts, 4 absolute times), or at its
absolute time between midnights.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from engine.bnomic.citing import cited
from engine.bnomic import mechanics
from engine.bnomic.commands import AtCmd
from engine.bnomic.events import Scheduled, ScheduledDropped, ScheduledRan
from engine.bnomic.state import LAST_NDAY, BNomicState, ScheduledAction
from engine.commands import Cmd
from engine.context import Context
from engine.events import Cause
from engine.inputs import Message
from engine.refusal import Refusal

WHEN = re.compile(r"^(?:(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)|the\s+(start|end)\s+of\s+nday\s+(\d{1,2})"
                  r"(?:\s+of\s+nweek\s+(\d{1,9}))?)$", re.I)
MAX_PENDING = 20  # actions one Player may have announced and not yet run


@dataclass(frozen=True)
class Runner:
    """How the ruleset runs a command (its checks and its handler) and reads one back from JSON."""
    perform: Callable[[BNomicState, Message, Cmd, Context], None]
    load: Callable[[dict[str, Any]], Cmd]

    def run(self, state: BNomicState, s: ScheduledAction, at: datetime, ctx: Context) -> None:
        """Run ``s`` now, as if its announcer sent it at ``at``; its answer's lines go in the event.
        With rule 1-10 repealed it is dropped at its moment, refused naming the rule."""
        state.scheduled.remove(s)
        cmd = self.load(s.command)
        msg = Message(at=at, message_id=f"{s.message_id}#S{s.number}", sender=s.by, authenticated=True,
                      commands=[cmd])
        with ctx.because(Cause("scheduled", s.number)):
            first = len(ctx.events)
            why = mechanics.refusal(state, "at", cmd)
            if why is None:
                self.perform(state, msg, cmd, ctx)
            else:
                ctx.refuse(s.line, why)
            lines = [("  " if e.data["ok"] else "! ") + f'"{e.data["command"]}": {e.data["result"]}'
                     for e in ctx.events[first:] if e.kind == "outcome"]
            ctx.emit(ScheduledRan(number=s.number, by=s.by, line=s.line, lines=lines, message_id=s.message_id))


def announce(state: BNomicState, msg: Message, cmd: AtCmd, ctx: Context) -> None:
    m = WHEN.match(" ".join(cmd.when.split()))
    c = state.clock
    why = None
    if cmd.command is None:
        why = f"{cmd.text!r} is no Game Action"
    elif m is None:
        why = ("TIME is like 2026-01-09T12:00:00Z, 'the start of nday N [of nweek W]' or 'the end of nday N "
               "[of nweek W]'")
    elif sum(s.by == msg.sender for s in state.scheduled) >= MAX_PENDING:
        why = f"you have {MAX_PENDING} actions waiting already"
    if why is not None:
        ctx.refuse(cmd.line, cited(why, "1-10"))
        return
    assert m is not None and cmd.command is not None  # else ``why`` says so
    item = ScheduledAction(number=state.scheduled_count + 1, by=msg.sender, line=cmd.line, command=cmd.command,
                           message_id=msg.message_id)
    if m[1]:
        item.at = datetime.strptime(m[1], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
        why = "that time has passed" if item.at <= msg.at else None
    else:
        item.edge, item.nday, item.nweek = m[2].lower(), int(m[3]), int(m[4]) if m[4] else None  # type: ignore[assignment]
        why = _nday_refusal(item, c.nweek, c.nday)
    if why is not None:
        ctx.refuse(cmd.line, cited(why, "1-10"))
        return
    state.scheduled_count += 1
    state.scheduled.append(item)
    ctx.emit(Scheduled(number=item.number, by=item.by, when=cmd.when, line=cmd.line))
    ctx.say(cmd.line, f"S{item.number}: {cmd.text!r} runs at {cmd.when}, judged then (1-10)")


def _nday_refusal(item: ScheduledAction, nweek: int, nday: int) -> str | None:
    assert item.nday is not None
    if not 1 <= item.nday <= LAST_NDAY:
        return f"an nweek has ndays 1 to {LAST_NDAY}"
    if item.nweek is None:
        return None
    passed = (item.nweek, item.nday) <= (nweek, nday) if item.edge == "start" else (item.nweek, item.nday) < (nweek, nday)
    return "that moment has passed" if passed else None


def at_edge(state: BNomicState, edge: str, at: datetime, ctx: Context, runner: Runner) -> None:
    """Run the actions announced for the ``edge`` of the current nday (called only at an nday change)."""
    c = state.clock
    for s in [s for s in state.scheduled if s.edge == edge and s.nday == c.nday and s.nweek in (None, c.nweek)]:
        runner.run(state, s, at, ctx)


def next_at(state: BNomicState) -> datetime | None:
    """The earliest absolute time an action waits for."""
    return min((s.at for s in state.scheduled if s.at is not None), default=None)


def at_time(state: BNomicState, at: datetime, ctx: Context, runner: Runner) -> None:
    """Run the actions announced for absolute times at or before ``at``, in time then announcement order."""
    for s in sorted((s for s in state.scheduled if s.at is not None and s.at <= at), key=lambda s: (s.at, s.number)):
        runner.run(state, s, s.at or at, ctx)


def drop(state: BNomicState, at: datetime, ctx: Context) -> None:
    """Rule 0, step 1: in a State of Emergency, actions due at absolute times at or before ``at`` do not occur."""
    for s in sorted((s for s in state.scheduled if s.at is not None and s.at <= at), key=lambda s: (s.at, s.number)):
        state.scheduled.remove(s)
        with ctx.because(Cause("scheduled", s.number)):
            ctx.emit(ScheduledDropped(number=s.number, by=s.by, line=s.line, message_id=s.message_id,
                                      lines=[f'! "{s.line}": its time fell in a State of Emergency: it does '
                                             "not occur (Rule 0); nothing done"]))
