"""Commands to their handlers, for every ruleset: who may send each, and whether it still works.

A ruleset calls ``admitted`` first (unauthenticated and automatic mail change nothing), then
``run`` with its declarations; both say every refusal in the answer.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.commands import Cmd, Declaration
from engine.context import Context, EngineConfig
from engine.events import Automatic, Unauthenticated
from engine.inputs import Message


def admitted(msg: Message, ctx: Context) -> bool:
    """Whether the message may act at all: it is authenticated and written by a person."""
    if not msg.authenticated:
        ctx.emit(Unauthenticated(sender=msg.sender, message_id=msg.message_id))
        return False
    if msg.automatic:  # RFC 3834: a bounce, an auto-reply or bulk mail speaks for no one
        ctx.emit(Automatic(sender=msg.sender, message_id=msg.message_id))
        return False
    return True


def may_send(decl: Declaration, sender: str, config: EngineConfig) -> bool:
    return not decl.offices or any(config.holds(sender, office) for office in decl.offices)


def run(state: Any, msg: Message, ctx: Context, declared: dict[str, Declaration], *,
        ended: Callable[[], str | None], refusal: Callable[[str, str], str | None]) -> None:
    """Say the lines not understood, then run each command the sender may give.

    ``ended()`` says why the game takes no more commands (None while it goes on): then only
    those declared ``after_end`` run. ``refusal(sender, kind)`` is the ruleset's own reason to
    refuse a command (Imperial rule 22: It), or None.
    """
    for line in msg.not_understood:
        ctx.say(line, "not understood; nothing done", ok=False)
    for cmd in msg.commands:
        one(state, msg, cmd, ctx, declared, ended=ended, refusal=refusal)


def one(state: Any, msg: Message, cmd: Cmd, ctx: Context, declared: dict[str, Declaration], *,
        ended: Callable[[], str | None], refusal: Callable[[str, str], str | None]) -> None:
    """Run one command of ``msg`` if its sender may give it (a command that runs others calls this)."""
    decl = declared.get(cmd.kind)
    if decl is None or decl.handler is None:
        ctx.say(cmd.line, "understood, but not yet automated: nothing done", ok=False)
        return
    if not may_send(decl, msg.sender, ctx.config):
        ctx.say(cmd.line, "only the office that holds this power may do that", ok=False)
        return
    why = None if decl.after_end else ended()
    if why is None:
        why = refusal(msg.sender, cmd.kind)
    if why is not None:
        ctx.say(cmd.line, why, ok=False)
        return
    decl.handler(state, msg, cmd, ctx)
