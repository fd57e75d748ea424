"""Voting (rules 104, 105, 107, 111, 203, 207) and what the completion of a vote does.

Debate lasts until the proposer sends ``Call vote`` (111). Every player has exactly one vote
(207), cast once, during debate (it is counted when the vote is held) or after; the vote completes
when every player has voted (105), and only after the vote was called. On completion, in this
order: the changes of an adopted proposal take effect (205); a defeated proposer loses 10 (206);
once unanimity no longer applies, each player who voted against an adopted proposal gains 10
(204), in turn order; the proposer gains rule 202's points, adopted or not (the turn's second
part); then the turn passes, unless someone has won (208). Each of 202, 204 and 206 runs only while
the rule is in effect, with its parameter's value now (engine/suber/mechanics.py).

A player who never votes holds the vote open for ever (rule 105, the literal reading: "Every
eligible voter must participate in every vote"); the daily mail names them every day
(engine/suber/daily.py). ``[suber] vote_days = N`` (0, the default: never) is the operator's way
out: N days after the vote was called it completes with the votes cast, those who did not vote
counted as absent (docs/rulings-suber.md).
"""
from __future__ import annotations

from datetime import datetime, timedelta

from engine import threads
from engine.context import Context, EngineConfig
from engine.events import Cause
from engine.inputs import Message
from engine.suber import changes, mechanics, points, turns
from engine.suber.commands import CallVoteCmd, VoteCmd
from engine.suber.state import Proposal, SuberState
from engine.suber.events import Completed, VoteCalled, Voted
from engine.refusal import Refusal


def _named(state: SuberState, msg: Message, number: int | None, ctx: Context) -> Proposal | None:
    """The proposal a command names: its number, else the thread's, else the current one."""
    if number is None:
        number = threads.matter_of(state, msg.references, ctx.config.address)
    if number is None:
        return state.current_proposal()
    return state.matter(number)


def call_vote(state: SuberState, msg: Message, cmd: CallVoteCmd, ctx: Context) -> None:
    proposal = _named(state, msg, cmd.number, ctx)
    if proposal is None:
        ctx.refuse(cmd.line, Refusal("there is no such proposal", ruleless="no such"))
    elif proposal.author != msg.sender:
        ctx.refuse(cmd.line, Refusal(f"only the proposer, {proposal.author}, ends debate", "111"), "")
    elif proposal.status == "voting":  # called again ("Call vote" in the subject and the body): no fault
        ctx.say(cmd.line, f"the vote on proposal {proposal.number} is open already")
    elif proposal.status != "debate":
        ctx.refuse(cmd.line, Refusal(f"proposal {proposal.number} is {proposal.status}, not in debate", "111"), "")
    else:
        proposal.status, proposal.called_at = "voting", ctx.at
        ctx.emit(VoteCalled(number=proposal.number, author=proposal.author), Cause("proposal", proposal.number))
        ctx.say(cmd.line, f"debate on proposal {proposal.number} ends: the vote is open")
        _complete_if_done(state, proposal, ctx)


def vote(state: SuberState, msg: Message, cmd: VoteCmd, ctx: Context) -> None:
    proposal = _named(state, msg, cmd.number, ctx)
    if proposal is None:
        ctx.refuse(cmd.line, Refusal("there is no such proposal", ruleless="no such"))
    elif proposal.status not in ("debate", "voting"):
        ctx.refuse(cmd.line, Refusal(f"the vote on proposal {proposal.number} is complete ({proposal.status})",
                                     "107"), "")
    elif msg.sender in proposal.votes and mechanics.on(state, 207):
        ctx.refuse(cmd.line, Refusal(f"you have voted {proposal.votes[msg.sender]} on proposal {proposal.number}; "
                                     "each player has exactly one vote", "207"), "")
    else:  # with 207 repealed a player may change their vote while it is open: the last counts
        proposal.votes[msg.sender] = cmd.vote
        ctx.emit(Voted(number=proposal.number, player=msg.sender, vote=cmd.vote),
                 Cause("proposal", proposal.number))
        ctx.say(cmd.line, f"{cmd.vote} on proposal {proposal.number} recorded "
                f"({len(proposal.votes)} of {len(state.players)} players have voted)")
        _complete_if_done(state, proposal, ctx)


def adopted(proposal: Proposal, players: int) -> bool:
    """Rule 203 (and 109 for a transmutation): unanimity among the eligible voters, or else a
    simple majority of the votes cast."""
    yes = sum(v == "yes" for v in proposal.votes.values())
    if proposal.unanimity:
        return yes == players
    return 2 * yes > len(proposal.votes)


def vote_days(config: EngineConfig) -> int:
    """``[suber] vote_days``: days from the call after which a vote completes with the votes cast (0: never)."""
    return int(config.options["vote_days"])


def deadline(state: SuberState, config: EngineConfig) -> datetime | None:
    """When the vote in progress completes with the votes cast, where the game sets ``vote_days``."""
    current, days = state.current_proposal(), vote_days(config)
    if not days or current is None or current.status != "voting" or current.called_at is None:
        return None
    return current.called_at + timedelta(days=days)


def overdue(state: SuberState, at: datetime, ctx: Context) -> None:
    """The vote in progress completes with the votes cast once its ``vote_days`` are over."""
    due = deadline(state, ctx.config)
    current = state.current_proposal()
    if due is None or current is None or at < due:
        return
    absent = [p.name for p in state.players if p.email not in current.votes]
    ctx.say(f"proposal {current.number}", f"{vote_days(ctx.config)} days since the vote was called: it completes "
            f"with the votes cast; not voted, counted as absent: {', '.join(absent)}")
    complete(state, current, ctx, eligible=len(current.votes))


def _complete_if_done(state: SuberState, proposal: Proposal, ctx: Context) -> None:
    if proposal.status == "voting" and all(p.email in proposal.votes for p in state.players):
        complete(state, proposal, ctx)


def complete(state: SuberState, proposal: Proposal, ctx: Context, eligible: int | None = None) -> None:
    """The vote on ``proposal`` is complete: its consequences, in the order of the module docstring,
    each caused by the proposal. ``eligible``: the voters unanimity counts (every player, unless
    the vote's days ran out: those who voted)."""
    with ctx.because(Cause("proposal", proposal.number)):
        _consequences(state, proposal, ctx, len(state.players) if eligible is None else eligible)


def _consequences(state: SuberState, proposal: Proposal, ctx: Context, eligible: int) -> None:
    yes = sum(v == "yes" for v in proposal.votes.values())
    cast = len(proposal.votes)
    proposal.status = "adopted" if cast and adopted(proposal, eligible) else "defeated"
    proposal.completed_at = ctx.at
    # 205: the changes take full effect at the completion, before the points it brings; without 205,
    # rule 107 only bounds the earliest moment: they take effect once those points are given
    first = mechanics.on(state, 205)
    enacted = changes.apply(state, proposal, ctx.at) if proposal.status == "adopted" and first else None
    proposal.points = points.formula(proposal.number, yes, cast, mechanics.value(state, "points_offset")) \
        if mechanics.on(state, 202) else 0
    ctx.emit(Completed(number=proposal.number, status=proposal.status, yes=yes, no=cast - yes,
                       points=proposal.points, unanimity=proposal.unanimity))
    ctx.say(f"proposal {proposal.number}", f"{proposal.status}, {yes} of {cast} votes in favour")
    if enacted is not None:
        ctx.emit(enacted)
    elif proposal.status == "defeated":
        _defeat(state, proposal, ctx)
    _awards(state, proposal, yes, cast, ctx)
    if proposal.status == "adopted" and not first:
        ctx.emit(changes.apply(state, proposal, ctx.at))
    if state.winner is None:
        turns.pass_turn(state, ctx.at, ctx)


def _defeat(state: SuberState, proposal: Proposal, ctx: Context) -> None:
    """Rule 206, while in effect."""
    if mechanics.on(state, 206):
        points.award(state, proposal.author, -mechanics.value(state, "defeat_penalty"),
                     f"proposal {proposal.number} defeated", ctx, rule=206, proposal=proposal.number)


def _awards(state: SuberState, proposal: Proposal, yes: int, cast: int, ctx: Context) -> None:
    """Rule 204 (while in effect), the proposer's points (202, zero once repealed)."""
    if proposal.status == "adopted" and not proposal.unanimity and mechanics.on(state, 204):
        for p in [p for p in state.players if proposal.votes.get(p.email) == "no"]:
            points.award(state, p.email, mechanics.value(state, "dissent_bonus"), f"voted against adopted "
                         f"proposal {proposal.number}", ctx, rule=204, proposal=proposal.number)
    points.award(state, proposal.author, proposal.points or 0, f"proposal {proposal.number}: "
                 f"({proposal.number} - {mechanics.value(state, 'points_offset')}) x {yes}/{cast}", ctx,
                 rule=202, proposal=proposal.number)
