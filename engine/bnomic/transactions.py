"""Commands that run other commands: Transactions (1-16) and repetition (1-10).

``perform`` runs one command as a message's command runs (the ruleset's checks and handler);
``load`` reads a wrapped command back from its JSON. A transaction tries its lines on a copy of
the state, and runs them for real only when every one was done and every assertion true
(Readings 11, 43); repetitions are each their own action (Readings 9, 44).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.bnomic import assertions
from engine.bnomic.commands import AssertCmd, RepeatCmd, TransactionCmd
from engine.bnomic.state import BNomicState
from engine.commands import Cmd
from engine.context import Context
from engine.inputs import Message
from engine.wording import counted
from engine.refusal import Refusal

Perform = Callable[[BNomicState, Message, Cmd, Context], None]
Load = Callable[[dict[str, Any]], Cmd]
MAX_REPEAT = 20  # repetitions of one line: a message's work stays bounded


def transaction(state: BNomicState, msg: Message, cmd: TransactionCmd, ctx: Context, perform: Perform,
                load: Load) -> None:
    if cmd.unread:
        ctx.refuse(cmd.line, Refusal(f"the line {cmd.unread[0]!r} is no Game Action nor assertion, so the "
                                     "transaction cannot be determined with finality: it failed", "1-16"))
        return
    lines = [load(data) for data in cmd.lines]
    if not lines:
        ctx.refuse(cmd.line, Refusal("the transaction has no line", "1-16"))
        return
    trial, scratch = state.copy_deep(), Context(config=ctx.config, at=ctx.at)
    for n, line in enumerate(lines, 1):
        why = _tried(trial, msg, line, scratch, perform)
        if why is not None:
            ctx.refuse(cmd.line, Refusal(f"line {n}, {line.line!r}, failed: {why}; the transaction failed", "1-16"))
            return
    for line in lines:
        if not isinstance(line, AssertCmd):
            perform(state, msg, line, ctx)
    ctx.say(cmd.line, f"{'all ' * (len(lines) != 1)}{counted(len(lines), 'line')} done (1-16)")


def _tried(trial: BNomicState, msg: Message, line: Cmd, scratch: Context, perform: Perform) -> str | None:
    """Why ``line`` fails on the trial state (None: it was done, or it is a true assertion)."""
    if isinstance(line, AssertCmd):
        return assertions.false_because(trial, line)
    first = len(scratch.events)
    perform(trial, msg, line, scratch)
    refused = [e.data["result"] for e in scratch.events[first:] if e.kind == "outcome" and not e.data["ok"]]
    return refused[0] if refused else None


def repeat(state: BNomicState, msg: Message, cmd: RepeatCmd, ctx: Context, perform: Perform, load: Load) -> None:
    if cmd.command is None:
        ctx.refuse(cmd.line, Refusal(f"{cmd.text!r} is no Game Action", "1-10"))
        return
    if not 1 <= cmd.times <= MAX_REPEAT:
        ctx.refuse(cmd.line, Refusal(f"a line is repeated 1 to {MAX_REPEAT} times", ruleless="service"))
        return
    for n in range(1, cmd.times + 1):
        line = load(cmd.command)
        line.line = f"{cmd.line} ({n} of {cmd.times})"
        perform(state, msg, line, ctx)
