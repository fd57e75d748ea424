"""Mackerel (3-10, 3-11): gifts between Players and the exchange of points for mackerel; devices
(3-12, 3-14): bought on a non-unique blueprint, given and destroyed by their owner.

Mackerel is an exact decimal kept as its string (engine/bnomic/state.py); an amount read from mail
has at most 12 digits before the point and 6 after (declarations.py), so a sum never rounds.
"""
from __future__ import annotations

from decimal import Decimal

from engine.bnomic import mechanics, players, points
from engine.bnomic.amounts import mackerel_text
from engine.bnomic.commands import BuyCmd, DeviceCmd, ExchangeCmd, GiveCmd
from engine.bnomic.events import Mackerel
from engine.bnomic.state import BNomicState, BPlayer, Device
from engine.context import Context
from engine.inputs import Message
from engine.refusal import Refusal



def add(player: BPlayer, delta: Decimal, cause: str, ctx: Context) -> None:
    """``player``'s mackerel changes by ``delta``; the Mackerel event is the money ledger."""
    player.mackerel = str(Decimal(player.mackerel) + delta)
    ctx.emit(Mackerel(player=player.email, delta=mackerel_text(str(delta)) if delta >= 0 else
                      "-" + mackerel_text(str(-delta)), balance=mackerel_text(player.mackerel), cause=cause))


def give(state: BNomicState, msg: Message, cmd: GiveCmd, ctx: Context) -> None:
    """3-10: a positive amount within the giver's balance (Reading 36); to another Player."""
    giver, receiver = state.player(msg.sender), players.find(state, cmd.player)
    amount, balance = Decimal(cmd.amount), Decimal(giver.mackerel if giver else "0")
    if giver is None or receiver is None:
        ctx.refuse(cmd.line, Refusal(f"there is no Player {cmd.player}", ruleless="no such"))
    elif receiver is giver:
        ctx.refuse(cmd.line, Refusal("you cannot give mackerel to yourself", "3-10"))
    elif amount <= 0:
        ctx.refuse(cmd.line, Refusal("a gift must be more than m0", "3-10"))
    elif amount > balance:
        ctx.refuse(cmd.line, Refusal(f"you have {mackerel_text(giver.mackerel)}: you cannot give more", "3-10"))
    else:
        add(giver, -amount, f"gift to {receiver.email}", ctx)
        add(receiver, amount, f"gift from {giver.email}", ctx)
        ctx.say(cmd.line, f"{receiver.name} has {mackerel_text(receiver.mackerel)}, you have "
                f"{mackerel_text(giver.mackerel)}")


def exchange(state: BNomicState, msg: Message, cmd: ExchangeCmd, ctx: Context) -> None:
    """3-10, 3-11: N points (0 to all held, Reading 37) for m(5N) (5: the parameter exchange_rate)."""
    p = state.player(msg.sender)
    if p is None:
        return
    if cmd.points > p.score:
        ctx.refuse(cmd.line, Refusal(f"you have {p.score} points: you cannot exchange more", "3-10"))
        return
    if cmd.points:
        points.gain(state, p, -cmd.points, "exchanged for mackerel (3-10)", ctx)
        add(p, Decimal(mechanics.value(state, "exchange_rate") * cmd.points), "exchange of points (3-11)", ctx)
    ctx.say(cmd.line, f"you have {p.score} points and {mackerel_text(p.mackerel)}")


def buy(state: BNomicState, msg: Message, cmd: BuyCmd, ctx: Context) -> None:
    """3-14: a device defined on a non-unique blueprint, its Price paid at once (Reading 34)."""
    p, b = state.player(msg.sender), state.blueprint(cmd.name)
    if p is None:
        return
    if b is None:
        ctx.refuse(cmd.line, Refusal(f"there is no blueprint {cmd.name}", ruleless="no such"))
    elif b.unique:
        ctx.refuse(cmd.line, Refusal(f"{b.name} is unique: 'Bid mX on {b.name}'", "3-14"))
    elif Decimal(p.mackerel) < Decimal(b.price):
        ctx.refuse(cmd.line, Refusal(f"{b.name} costs {mackerel_text(b.price)} and you have "
                                     f"{mackerel_text(p.mackerel)}", "3-14"))
    else:
        add(p, -Decimal(b.price), f"bought a {b.name}", ctx)
        state.devices_defined += 1
        state.devices.append(Device(number=state.devices_defined, blueprint=b.name, owner=p.email,
                                    attributes=dict(b.attributes), properties=list(b.properties)))
        ctx.say(cmd.line, f"you own device {state.devices_defined}, a {b.name}; you have {mackerel_text(p.mackerel)}")


def device(state: BNomicState, msg: Message, cmd: DeviceCmd, ctx: Context) -> None:
    """3-12: the owner gives his device to another Player (``cmd.player``) or destroys it."""
    d = state.device(cmd.number)
    if d is None:
        ctx.refuse(cmd.line, Refusal(f"there is no device {cmd.number}", ruleless="no such"))
    elif d.owner != msg.sender:
        ctx.refuse(cmd.line, Refusal(f"device {d.number} is not yours", "3-12"))
    elif cmd.player is None:
        state.devices.remove(d)
        ctx.say(cmd.line, f"device {d.number}, a {d.blueprint}, is destroyed")
    else:
        to = players.find(state, cmd.player)
        if to is None:
            ctx.refuse(cmd.line, Refusal(f"there is no Player {cmd.player}", ruleless="no such"))
        elif to.email == d.owner:
            ctx.refuse(cmd.line, Refusal(f"device {d.number} is yours already", ruleless="already"))
        else:
            d.owner = to.email
            ctx.say(cmd.line, f"{to.name} owns device {d.number}, a {d.blueprint}")
