"""Dependent actions (2-8, 2-9), numbered A1, A2 ...: Expel (1-4: 3 supporters, 2 ndays), Usurp
(6-4: fewer than 2 objections in 2 rdays), the Artisan's blueprints and prices (3-14: fewer than 2
objections in 2 ndays), a Tidiness List (3-9: without objection, 5 ndays), the Message of the
nweek (3-16: 1 supporter, 2 ndays) and the Ambassador's foreign action (2-10: 2 supporters and
without objection, 2 ndays).

A support-only action occurs at its last needed support, else fails when its window closes; one
"without N objections" fails at its N-th objector (Reading 29), else occurs when its window
closes; one that needs both fails at its objection, else is decided when its window closes: it
occurs if it has its supporters then (the design's Reading 46). The office or the standing is
checked at the attempt, the rest again when it occurs. A window of X ndays closes at the (X+1)-th
nday change after the attempt, one of X rdays at the X-th midnight (CONTRACT.md, Windows).
"""
from __future__ import annotations

from engine.bnomic.citing import cited
from engine.bnomic import blueprints, mechanics, ministries, motnw, players, tidiness
from engine.bnomic.amounts import mackerel_text
from engine.bnomic.commands import (
    BlueprintCmd, ExpelCmd, ForeignCmd, MessageCmd, PriceCmd, SupportCmd, TidinessCmd, UsurpCmd)
from engine.bnomic.events import ActionAttempted, ActionClosed
from engine.bnomic.state import Action, Blueprint, BNomicState
from engine.context import Context
from engine.events import Cause
from engine.inputs import Message
from engine.wording import counted
from engine.refusal import Refusal

EXPEL_WINDOW = 2  # ndays (2-9)
USURP_WINDOW = 2  # rdays (6-4)
GOODS_WINDOW = 2  # ndays (3-14)
GOODS_OBJECTIONS = 2
TIDINESS_WINDOW = 5  # ndays (3-9)
MOTNW_WINDOW = 2  # ndays (2-9)
FOREIGN_WINDOW = 2  # ndays (2-8, 2-9)
FOREIGN_SUPPORT = 2  # 2-10


def _attempt(state: BNomicState, action: Action, ctx: Context) -> Action:
    state.actions.append(action)
    ctx.emit(ActionAttempted(number=action.number, kind=action.kind, by=action.by, target=action.target,
                             reason=action.reason), Cause("action", action.number))
    return action


def expel(state: BNomicState, msg: Message, cmd: ExpelCmd, ctx: Context) -> None:
    target, recent = players.find(state, cmd.player), mechanics.value(state, "expel_recent_ndays")
    if target is None:
        ctx.refuse(cmd.line, Refusal(f"there is no Player {cmd.player}", ruleless="no such"))
    elif target.email == msg.sender:
        ctx.refuse(cmd.line, Refusal("to leave, send 'Forfeit'", "1-4"))
    elif state.clock.nday_changes - target.joined_nday_changes > recent:
        ctx.refuse(cmd.line, Refusal(f"{target.name} has been a Player for more than {recent} ndays", "1-4"))
    else:
        support = mechanics.value(state, "expel_supporters")  # 1-4, Reading 7
        a = _attempt(state, Action(number=len(state.actions) + 1, kind="expel", by=msg.sender, target=target.email,
                                   reason=cmd.reason.strip(), needs_support=support,
                                   closes=state.clock.nday_changes + EXPEL_WINDOW + 1, at=ctx.at), ctx)
        ctx.say(cmd.line, f"A{a.number}: {target.name} is expelled with {support} supporters by the end of "
                f"the nday {EXPEL_WINDOW} ndays from now (1-4, 2-9)")


def usurp(state: BNomicState, msg: Message, cmd: UsurpCmd, ctx: Context) -> None:
    m = ministries.named(state, cmd.ministry)
    if m is None:
        ctx.refuse(cmd.line, Refusal(f"there is no Ministry {cmd.ministry}", ruleless="no such"))
    elif m.holder is None:
        ctx.refuse(cmd.line, Refusal(f"the {m.name} is Vacant: 'Take' it", "6-2"))
    elif m.holder == msg.sender:
        ctx.refuse(cmd.line, Refusal(f"you hold the {m.name} already", ruleless="already"))
    else:
        objections = mechanics.value(state, "usurp_objections")
        a = _attempt(state, Action(number=len(state.actions) + 1, kind="usurp", by=msg.sender, target=m.key,
                                   fails_at_objections=objections, counter="rdays",
                                   closes=state.clock.rdays + USURP_WINDOW, at=ctx.at), ctx)
        ctx.say(cmd.line, f"A{a.number}: you take the {m.name} unless {objections} Players object within "
                f"{USURP_WINDOW} rdays (6-4)")


def blueprint(state: BNomicState, msg: Message, cmd: BlueprintCmd, ctx: Context) -> None:
    """3-14: the Artisan creates a blueprint without 2 objections within 2 ndays."""
    new = blueprints.draft(state, cmd)
    if isinstance(new, str):
        ctx.refuse(cmd.line, cited(new, "3-14"))
        return
    a = _goods(state, msg, "blueprint", new, ctx)
    ctx.say(cmd.line, f"A{a.number}: the blueprint {new.name} ({'unique' if new.unique else 'non-unique'}, "
            f"{mackerel_text(new.price)}) exists unless {GOODS_OBJECTIONS} Players object within {GOODS_WINDOW} "
            "ndays (3-14)")


def set_price(state: BNomicState, msg: Message, cmd: PriceCmd, ctx: Context) -> None:
    """3-14: the Artisan alters a non-unique blueprint's price without 2 objections within 2 ndays."""
    new = blueprints.repriced(state, cmd)
    if isinstance(new, str):
        ctx.refuse(cmd.line, cited(new, "3-14"))
        return
    a = _goods(state, msg, "price", new, ctx)
    ctx.say(cmd.line, f"A{a.number}: the price of {new.name} is {mackerel_text(new.price)} unless "
            f"{GOODS_OBJECTIONS} Players object within {GOODS_WINDOW} ndays (3-14)")


def tidiness_list(state: BNomicState, msg: Message, cmd: TidinessCmd, ctx: Context) -> None:
    """3-9: a Player posts a Tidiness List, which takes place without objection within five ndays."""
    corrections = tidiness.read(state, cmd.text)
    if isinstance(corrections, str):
        ctx.refuse(cmd.line, cited(corrections, "3-9"))
        return
    a = _attempt(state, Action(number=len(state.actions) + 1, kind="tidiness", by=msg.sender, target="the rules",
                               fails_at_objections=1, closes=state.clock.nday_changes + TIDINESS_WINDOW + 1,
                               at=ctx.at, corrections=corrections), ctx)
    ctx.say(cmd.line, f"A{a.number}: the Tidiness List ({counted(len(corrections), 'correction')}) takes place unless a "
            f"Player objects within {TIDINESS_WINDOW} ndays (3-9)")


def message(state: BNomicState, msg: Message, cmd: MessageCmd, ctx: Context) -> None:
    """3-16: the Registrar changes the Message of the nweek with Support (1 supporter)."""
    text = " ".join(cmd.text.split())
    why = motnw.refusal(state, text)
    if why is not None:
        ctx.refuse(cmd.line, cited(why, "3-16"))
        return
    a = _attempt(state, Action(number=len(state.actions) + 1, kind="motnw", by=msg.sender,
                               target="the Message of the nweek", reason=text, needs_support=1,
                               closes=state.clock.nday_changes + MOTNW_WINDOW + 1, at=ctx.at), ctx)
    ctx.say(cmd.line, f"A{a.number}: the Message of the nweek becomes {text!r} once a Player supports it, within "
            f"{MOTNW_WINDOW} ndays (3-16)")


def foreign(state: BNomicState, msg: Message, cmd: ForeignCmd, ctx: Context) -> None:
    """2-10: the Ambassador records a relation with another Nomic, or acts for B Nomic in one "with 2
    supporters and without objection" (the act itself happens there: the program records whether B
    Nomic may take it)."""
    text = " ".join(cmd.text.split())
    if cmd.nomic:
        nomic = " ".join(cmd.nomic.split())
        state.relations[nomic] = text
        ctx.say(cmd.line, f"B Nomic's relation with {nomic} is recorded (2-10)")
        return
    a = _attempt(state, Action(number=len(state.actions) + 1, kind="foreign", by=msg.sender,
                               target="another Nomic", reason=text, needs_support=FOREIGN_SUPPORT,
                               fails_at_objections=1, closes=state.clock.nday_changes + FOREIGN_WINDOW + 1,
                               at=ctx.at), ctx)
    ctx.say(cmd.line, f"A{a.number}: B Nomic may take this foreign action if {FOREIGN_SUPPORT} Players support it "
            f"and none objects within {FOREIGN_WINDOW} ndays (2-10)")


def _goods(state: BNomicState, msg: Message, kind: str, new: Blueprint, ctx: Context) -> Action:
    return _attempt(state, Action.model_validate({
        "number": len(state.actions) + 1, "kind": kind, "by": msg.sender, "target": new.name,
        "fails_at_objections": GOODS_OBJECTIONS, "closes": state.clock.nday_changes + GOODS_WINDOW + 1,
        "at": ctx.at, "blueprint": new}), ctx)


def support(state: BNomicState, msg: Message, cmd: SupportCmd, ctx: Context) -> None:
    a = state.actions[cmd.number - 1] if 1 <= cmd.number <= len(state.actions) else None
    word = "support" if cmd.support else "objection"
    if a is None:
        ctx.refuse(cmd.line, Refusal(f"there is no action A{cmd.number}", ruleless="no such"))
    elif a.status != "pending":
        ctx.refuse(cmd.line, Refusal(f"A{a.number} has {a.status}: it takes no {word}", "2-8, 2-9"))
    elif a.by == msg.sender:
        ctx.refuse(cmd.line, Refusal(f"you attempted A{a.number}: no {word} of your own", "2-8, 2-9"))
    elif msg.sender in a.supporters or msg.sender in a.objectors:
        ctx.refuse(cmd.line, Refusal(f"you have already supported or objected to A{a.number}", ruleless="already"))
    else:
        (a.supporters if cmd.support else a.objectors).append(msg.sender)
        ctx.say(cmd.line, f"your {word} of A{a.number} is recorded ({len(a.supporters)} supporting, "
                f"{len(a.objectors)} objecting)")
        with ctx.because(Cause("action", a.number)):
            if a.fails_at_objections and len(a.objectors) >= a.fails_at_objections:
                _close(a, "failed", counted(len(a.objectors), "objection"), ctx)
            elif a.needs_support and not a.fails_at_objections and len(a.supporters) >= a.needs_support:
                _occur(state, a, ctx)  # support-only: at its last needed support


def close_windows(state: BNomicState, ctx: Context) -> None:
    """At a midnight, before the Clock changes: each pending action whose window closes now."""
    c = state.clock
    after = {"nday_changes": c.nday_changes + c.on, "rdays": c.rdays + 1}
    for a in state.actions:
        if a.status == "pending" and after[a.counter] >= a.closes:
            with ctx.because(Cause("action", a.number)):
                if len(a.supporters) < a.needs_support:
                    _close(a, "failed", f"{len(a.supporters)} of {a.needs_support} supporters", ctx)
                else:
                    _occur(state, a, ctx)


def _occur(state: BNomicState, a: Action, ctx: Context) -> None:
    """The action takes effect if it still can (the target still exists, its rule is in force), else it fails."""
    rule = _RULE[a.kind]
    if not mechanics.on(state, rule):
        _close(a, "failed", f"rule {rule} is repealed", ctx)
        return
    if a.kind == "expel":
        target = state.player(a.target)
        if target is None:
            _close(a, "failed", "the Player has left already", ctx)
            return
        _close(a, "occurred", f"{target.name} is expelled: {a.reason}", ctx)
        players.remove(state, target, "expelled", ctx)
    elif a.kind == "usurp":
        m = state.ministry(a.target)
        if m is None or state.player(a.by) is None:
            _close(a, "failed", "the Usurper is no longer a Player", ctx)
            return
        _close(a, "occurred", f"{a.by} holds the {m.name} (Reading 27)", ctx)
        ministries.assign(state, m, a.by, "usurped", ctx)
    elif a.kind in ("blueprint", "price"):
        try:
            _close(a, "occurred", blueprints.occur(state, a), ctx)
        except ValueError as why:
            _close(a, "failed", str(why), ctx)
    elif a.kind == "motnw":
        try:
            _close(a, "occurred", motnw.occur(state, a), ctx)
        except ValueError as why:
            _close(a, "failed", str(why), ctx)
    elif a.kind == "tidiness":
        _close(a, "occurred", tidiness.occur(state, a, ctx), ctx)
    elif a.kind == "foreign":
        _close(a, "occurred", f"B Nomic may take the foreign action: {a.reason}", ctx)


_RULE = {"expel": "1-4", "usurp": "6-4", "blueprint": "3-14", "price": "3-14", "tidiness": "3-9", "motnw": "3-16",
         "foreign": "2-10"}  # the rule each kind of dependent action is a mechanic of


def _close(a: Action, status: str, why: str, ctx: Context) -> None:
    a.status = status  # type: ignore[assignment]
    ctx.emit(ActionClosed(number=a.number, kind=a.kind, status=status, why=why))  # type: ignore[arg-type]
