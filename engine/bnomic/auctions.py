"""Auctions of unique blueprints (3-14): bids, and what happens at the start of Zarpint, at its
end and at the end of Thirnight.

At the start of Zarpint (nday 11) the highest bidder buys at his bid if his mackerel suffice; else
(``grace``) at the end of Zarpint if they then do; else his Vote Power becomes 0, he loses 25
points, and (``second``) at the end of Thirnight the next distinct bidder buys at his own highest
bid if he can; else the blueprint ceases to exist. A blueprint with no bids at the start of Zarpint
ceases then.
"""
from __future__ import annotations

from decimal import Decimal

from engine.bnomic import goods, mechanics, points
from engine.bnomic.amounts import mackerel_text
from engine.bnomic.commands import BidCmd
from engine.bnomic.events import AuctionChanged
from engine.bnomic.state import Bid, Blueprint, BNomicState, Device
from engine.context import Context
from engine.inputs import Message
from engine.refusal import Refusal

ZARPINT = 11
MAX_BIDS = 1000  # bids on one blueprint: bounds what one auction costs


def bid(state: BNomicState, msg: Message, cmd: BidCmd, ctx: Context) -> None:
    """A non-retractable bid; it need not be covered when made (Reading 35)."""
    b = state.blueprint(cmd.name)
    if b is None:
        ctx.refuse(cmd.line, Refusal(f"there is no blueprint {cmd.name}", ruleless="no such"))
    elif not b.unique:
        ctx.refuse(cmd.line, Refusal(f"{b.name} is non-unique: 'Buy {b.name}'", "3-14"))
    elif b.stage != "bidding":
        ctx.refuse(cmd.line, Refusal(f"bidding on {b.name} ended at the start of Zarpint", "3-14"))
    elif len(b.bids) >= MAX_BIDS:
        ctx.refuse(cmd.line, Refusal(f"{b.name} has {MAX_BIDS} bids, the most one auction takes", ruleless="service"))
    else:
        b.bids.append(Bid(bidder=msg.sender, amount=str(Decimal(cmd.amount))))
        top = b.ranked()[0]
        ctx.say(cmd.line, f"your bid of {mackerel_text(cmd.amount)} on {b.name} is recorded; the highest is "
                f"{mackerel_text(top.amount)} by {top.bidder}")


def start_of_zarpint(state: BNomicState, ctx: Context) -> None:
    """Bidding ends: each unique blueprint's highest bidder buys if he can, else has one more nday."""
    for b in [b for b in state.blueprints if b.unique and b.stage == "bidding"]:
        ranked = b.ranked()
        if not ranked:
            _cease(state, b, ctx)
        elif not _buy(state, b, ranked[0], ctx):
            b.stage = "grace"
            ctx.emit(AuctionChanged(blueprint=b.name, what="grace", bidder=ranked[0].bidder, amount=ranked[0].amount))


def end_of_zarpint(state: BNomicState, ctx: Context) -> None:
    """The highest bidder's grace nday ends: he buys if he can, else the penalty (3-14)."""
    for b in [b for b in state.blueprints if b.stage == "grace"]:
        top = b.ranked()[0]
        if _buy(state, b, top, ctx):
            continue
        p = state.player(top.bidder)
        if p is not None:
            p.vote_power = "0"
            points.gain(state, p, -mechanics.value(state, "auction_penalty"), f"failed to buy {b.name} (3-14)", ctx)
        ctx.emit(AuctionChanged(blueprint=b.name, what="penalty", bidder=top.bidder, amount=top.amount))
        if len(b.ranked()) > 1:
            b.stage = "second"
        else:
            _cease(state, b, ctx)


def end_of_thirnight(state: BNomicState, ctx: Context) -> None:
    """The next highest bidder buys at his own highest bid if he can; else the blueprint ceases."""
    for b in [b for b in state.blueprints if b.stage == "second"]:
        if not _buy(state, b, b.ranked()[1], ctx):
            _cease(state, b, ctx)


def _buy(state: BNomicState, b: Blueprint, top: Bid, ctx: Context) -> bool:
    """``top``'s bidder buys the unique device if he is a Player whose mackerel suffice."""
    p, amount = state.player(top.bidder), Decimal(top.amount)
    if p is None or Decimal(p.mackerel) < amount:
        return False
    goods.add(p, -amount, f"bought the {b.name}", ctx)
    state.devices_defined += 1
    state.devices.append(Device(number=state.devices_defined, blueprint=b.name, owner=p.email,
                                attributes=dict(b.attributes), properties=list(b.properties)))
    state.blueprints.remove(b)
    ctx.emit(AuctionChanged(blueprint=b.name, what="bought", bidder=p.email, amount=top.amount))
    return True


def _cease(state: BNomicState, b: Blueprint, ctx: Context) -> None:
    state.blueprints.remove(b)
    ctx.emit(AuctionChanged(blueprint=b.name, what="ceased", bidder=None, amount=None))
