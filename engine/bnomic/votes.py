"""Votes (2-2, 3-5): FOR, AGAINST or ABSTAIN on an Open proposal (Reading 16), by a line naming its
Proposal Number or a bare word in a reply to its announcement; the most recent is the Final Vote.
Casting one makes the voter Active at the next nweek (3-5). Vote Power may only be lowered."""
from __future__ import annotations

import re
from fractions import Fraction

from engine import threads
from engine.bnomic.citing import cited
from engine.bnomic.commands import VoteCmd, VotePowerCmd
from engine.bnomic.events import Voted
from engine.bnomic.state import BNomicState, Proposal
from engine.context import Context
from engine.events import Cause
from engine.inputs import Message
from engine.refusal import Refusal

_RATIONAL = re.compile(r"^\d{1,9}(?:/[1-9]\d{0,8}|\.\d{1,9})?$")


def _named(state: BNomicState, msg: Message, number: int | None, ctx: Context) -> Proposal | None | str:
    """The proposal a Vote names, or why there is none."""
    if number is not None:
        return state.proposal(number) or f"there is no proposal {number}"
    key = threads.matter_of(state, msg.references, ctx.config.address)
    found = state.matter(key) if key is not None else None
    return found or "name the proposal (FOR N), or reply to its announcement"


def vote(state: BNomicState, msg: Message, cmd: VoteCmd, ctx: Context) -> None:
    p = _named(state, msg, cmd.number, ctx)
    voter = state.player(msg.sender)
    if isinstance(p, str) or p is None:
        ctx.refuse(cmd.line, cited(str(p), "2-2"))
    elif voter is None:
        ctx.refuse(cmd.line, Refusal("only a Registered Voter (a Player) votes", "2-7"))
    elif p.status != "open":
        ctx.refuse(cmd.line, Refusal(f"proposal {p.number} is {p.status.capitalize()}: only an Open proposal "
                                     "takes Votes", "2-2"))
    else:
        p.votes.pop(voter.email, None)  # the Final Vote is the most recent: it goes last
        p.votes[voter.email] = cmd.vote
        voter.voted_this_nweek = True
        ctx.emit(Voted(key=p.key, number=p.number, voter=voter.email, vote=cmd.vote), Cause("proposal", p.key))
        ctx.say(cmd.line, f"{cmd.vote} on proposal {p.number} is your Final Vote (Vote Power {voter.vote_power})")


def rational(text: str) -> Fraction | None:
    """A nonnegative rational as written in mail (``3/4``, ``0.5``, ``1``), or None."""
    return Fraction(text) if _RATIONAL.match(text) else None


def vote_power(state: BNomicState, msg: Message, cmd: VotePowerCmd, ctx: Context) -> None:
    voter = state.player(msg.sender)
    if voter is None:
        ctx.refuse(cmd.line, Refusal("only a Registered Voter (a Player) has a Vote Power", "2-2"))
        return
    if not _RATIONAL.match(cmd.power):
        ctx.refuse(cmd.line, Refusal("Vote Power is a nonnegative rational: 3/4, 0.5 or 1", "2-2"))
        return
    q = Fraction(cmd.power)
    if q >= Fraction(voter.vote_power):
        ctx.refuse(cmd.line, Refusal(f"your Vote Power is {voter.vote_power}: it may only be lowered", "2-2"))
        return
    voter.vote_power = str(q)
    ctx.say(cmd.line, f"your Vote Power is {voter.vote_power}")
