"""The ``Assert`` lines of a Transaction (1-16): each is true or says why not, of the state the
transaction's lines before it have made. Outside a transaction an assertion is no Game Action
(Reading 43): ``outside`` refuses it."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction

from engine.bnomic import ministries, players
from engine.bnomic.commands import AssertCmd
from engine.bnomic.state import BNomicState
from engine.context import Context
from engine.inputs import Message
from engine.refusal import Refusal

STATUSES = ("pending", "open", "historical")
SUCCESSES = ("won", "lost", "undecided")


def outside(state: BNomicState, msg: Message, cmd: AssertCmd, ctx: Context) -> None:
    ctx.refuse(cmd.line, Refusal("an assertion is no Game Action: it goes in a BEGIN TRANSACTION ... END TRANSACTION",
                                 "1-16"))


def false_because(state: BNomicState, cmd: AssertCmd) -> str | None:
    """None when the assertion is true, else what is so instead."""
    c = state.clock
    if cmd.what == "nday":
        return _differs("the nday", str(c.nday), cmd.value)
    if cmd.what == "nweek":
        return _differs("the nweek", str(c.nweek), cmd.value)
    if cmd.what == "clock":
        return _differs("the Clock", "on" if c.on else "off", cmd.value.lower())
    if cmd.what == "proposal":
        return _proposal(state, cmd)
    if cmd.what == "vacant":
        m = ministries.named(state, cmd.subject)
        if m is None:
            return f"there is no Ministry {cmd.subject}"
        return None if m.holder is None else f"the {m.name} is held"
    if cmd.what == "vote_power" and (f := state.faction(cmd.subject)) is not None:  # a Voter: a Faction too (5-3)
        return _equal(f"{f.name}'s Vote Power", Fraction(f.vote_power), _fraction(cmd.value), f.vote_power)
    p = players.find(state, cmd.subject)
    if p is None:
        return f"there is no Player {cmd.subject}"
    if cmd.what == "holds":
        m = ministries.named(state, cmd.value)
        if m is None:
            return f"there is no Ministry {cmd.value}"
        return None if m.holder == p.email else f"{p.name} does not hold the {m.name}"
    if cmd.what == "points":
        return _differs(f"{p.name}'s points", str(p.score), cmd.value)
    if cmd.what == "mackerel":
        return _equal(f"{p.name}'s mackerel", Decimal(p.mackerel), _decimal(cmd.value.lower().removeprefix("m")),
                      f"m{Decimal(p.mackerel).normalize():f}")
    return _equal(f"{p.name}'s Vote Power", Fraction(p.vote_power), _fraction(cmd.value), p.vote_power)


def _proposal(state: BNomicState, cmd: AssertCmd) -> str | None:
    p = state.proposal(int(cmd.subject))
    word = cmd.value.lower()
    if p is None:
        return f"there is no proposal {cmd.subject}"
    now = p.status if word in STATUSES else p.success
    return _differs(f"proposal {p.number}", now, word)


def _differs(what: str, now: str, asserted: str) -> str | None:
    return None if now == asserted else f"{what} is {now}"


def _equal(what: str, now: Decimal | Fraction, asserted: Decimal | Fraction | None, shown: str) -> str | None:
    return None if asserted is not None and now == asserted else f"{what} is {shown}"


def _decimal(text: str) -> Decimal | None:
    try:
        d = Decimal(text)
    except InvalidOperation:
        return None
    return d if d.is_finite() else None


def _fraction(text: str) -> Fraction | None:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None
