"""Ministries (6-1 to 6-5, 6-8): held in the game state, taken when Vacant, resigned, usurped (a
dependent action, actions.py), paid m50 and vacated at the end of each nweek.

MINISTRY in a command: ``Ministry of Society``, ``Minister of Society`` or ``Registrar`` (and so
for each), ``Ministry``/``Ministries``/``MetaMin``/``MoM`` for the Ministry of Ministry, a
MiniMinistry by its name; ``the`` optional.
"""
from __future__ import annotations

import re
from decimal import Decimal

from engine.bnomic import mechanics, numbering, priests
from engine.bnomic.commands import ResignCmd, TakeCmd
from engine.bnomic.events import MinistryChanged
from engine.bnomic.state import MINISTRIES, BNomicState, Ministry
from engine.context import Context
from engine.inputs import Message
from engine.refusal import Refusal

_ALIASES = {"metamin": "ministry", "mom": "ministry", "ministries": "ministry", "metaministry": "ministry"}


def defined() -> list[Ministry]:
    return [Ministry(name=name, minister=minister, key=key) for name, minister, key in MINISTRIES]


def named(state: BNomicState, text: str) -> Ministry | None:
    """The Ministry ``text`` names, or None."""
    words = re.sub(r"^the\s+", "", " ".join(text.split()), flags=re.I).lower()
    words = re.sub(r"^minist(?:ry|er)\s+of\s+(?:the\s+)?", "", words)
    for name, minister, key in MINISTRIES:
        if words in (name.lower().removeprefix("ministry of "), minister.lower()):
            return state.ministry(key)
    if words in _ALIASES:
        return state.ministry(_ALIASES[words])
    return next((m for m in state.ministries if m.mini and m.name.lower() == words), None)


def assign(state: BNomicState, ministry: Ministry, holder: str | None, how: str, ctx: Context) -> None:
    ministry.holder = holder
    if ministry.key == "ministry" and holder is not None:
        state.last_metamin = holder
    ctx.emit(MinistryChanged(ministry=ministry.name, holder=holder, how=how))  # type: ignore[arg-type]
    if ministry.key == "change" and holder is not None and numbering.automatic(ctx):
        numbering.number_all(state, ctx)  # Reading 14: "as soon as he can"
    if ministry.key == "questions" and holder is not None:
        priests.oracle_taken(state, ctx)  # the design's Reading 48: the Consultations that waited for an Oracle


def take(state: BNomicState, msg: Message, cmd: TakeCmd, ctx: Context) -> None:
    m = named(state, cmd.ministry)
    if m is None:
        ctx.refuse(cmd.line, Refusal(f"there is no Ministry {cmd.ministry}", ruleless="no such"))
    elif m.holder is not None:
        ctx.refuse(cmd.line, Refusal(f"the {m.name} is held by {m.holder}: only a Vacant Ministry may be taken "
                                     "('Usurp' it instead)", "6-2"))
    else:
        assign(state, m, msg.sender, "taken", ctx)
        ctx.say(cmd.line, f"you hold the {m.name}" + (f" (the {m.minister})" if m.minister else ""))


def resign(state: BNomicState, msg: Message, cmd: ResignCmd, ctx: Context) -> None:
    m = named(state, cmd.ministry)
    if m is None:
        ctx.refuse(cmd.line, Refusal(f"there is no Ministry {cmd.ministry}", ruleless="no such"))
    elif m.holder != msg.sender:
        ctx.refuse(cmd.line, Refusal(f"you do not hold the {m.name}", "6-3"))
    else:
        assign(state, m, None, "resigned", ctx)
        ctx.say(cmd.line, f"you resigned the {m.name}: it is Vacant")


def vacant(state: BNomicState) -> list[Ministry]:
    return [m for m in state.ministries if m.holder is None]


def end_of_nweek(state: BNomicState, ctx: Context) -> None:
    """6-5: each Player who is a Minister gains m50 (the parameter minister_pay; once, Reading 25); then
    all Ministries are Vacant."""
    pay = Decimal(mechanics.value(state, "minister_pay"))
    ministers = {m.holder for m in state.ministries if m.holder is not None}
    for p in state.players:
        if p.email in ministers:
            p.mackerel = str(Decimal(p.mackerel) + pay)
    for m in state.ministries:
        if m.holder is not None:
            assign(state, m, None, "vacated", ctx)
