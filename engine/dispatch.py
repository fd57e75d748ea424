"""Commands to their handlers, for every ruleset: who may send each, and whether it still works.

A ruleset calls ``admitted`` first (unauthenticated and automatic mail change nothing), then
``run`` with its declarations; both say every refusal in the answer.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.commands import Cmd, Declaration
from engine.context import Context, EngineConfig
from engine.events import Automatic, Unauthenticated
from engine.inputs import Message
from engine.refusal import Refusal


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


def office_refusal(decl: Declaration, line: str, cite: Callable[[str], str] = str) -> Refusal:
    """Why a command is refused to one who holds none of its offices, naming them and the rule:
    "only the Admins may do that (rule Enacting and Failing)". The rule is that of the help row
    whose body line starts with the same word as the command (``Fail N`` for ``Fail 1``), as
    ``cite`` names it in this game (an edition may title the rule otherwise)."""
    holders = " or ".join(f"the {office.capitalize()}" for office in sorted(decl.offices))
    rows = [row for row in decl.help if row.rule]
    word = _first_word(line)
    row = next((r for r in rows if word in (_first_word(r.line), _first_word(r.subject))), rows[0] if rows else None)
    why = f"only {holders} may do that"
    if row is None:
        return Refusal(why, ruleless="service")
    return Refusal(why, cite(re.sub(r"^rules? ", "", row.rule, flags=re.I)))


def _first_word(text: str) -> str:
    return next(iter(text.replace(":", " ").lower().split()), "")


def run(state: Any, msg: Message, ctx: Context, declared: dict[str, Declaration], *,
        ended: Callable[[], Refusal | None], refusal: Callable[[str, str], Refusal | None],
        cite: Callable[[str], str] = str) -> None:
    """Say the lines not understood, then run each command the sender may give.

    ``ended()`` says why the game takes no more commands (None while it goes on): then only
    those declared ``after_end`` run. ``refusal(sender, kind)`` is the ruleset's own reason to
    refuse a command (Imperial rule 22: It), or None; ``cite`` the rule of an office refusal as this
    game names it.
    """
    for line in msg.not_understood:
        ctx.refuse(line, Refusal("not understood", ruleless="form"))
    for cmd in msg.commands:
        one(state, msg, cmd, ctx, declared, ended=ended, refusal=refusal, cite=cite)


def one(state: Any, msg: Message, cmd: Cmd, ctx: Context, declared: dict[str, Declaration], *,
        ended: Callable[[], Refusal | None], refusal: Callable[[str, str], Refusal | None],
        cite: Callable[[str], str] = str) -> None:
    """Run one command of ``msg`` if its sender may give it (a command that runs others calls this)."""
    decl = declared.get(cmd.kind)
    if decl is None or decl.handler is None:
        ctx.refuse(cmd.line, Refusal("understood, but not yet automated: nothing done", ruleless="service"), "")
        return
    if not may_send(decl, msg.sender, ctx.config):
        ctx.refuse(cmd.line, office_refusal(decl, cmd.line, cite), "")
        return
    why = None if decl.after_end else ended()
    if why is None:
        why = refusal(msg.sender, cmd.kind)
    if why is not None:
        ctx.refuse(cmd.line, why)
        return
    decl.handler(state, msg, cmd, ctx)
