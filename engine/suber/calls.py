"""Rule 305, the Call for Action, played when game.toml's ``[suber] call_for_action = true``.

Rule 305 is one of the 2005 game's later rules, not of the Initial Set (docs/rulings-suber.md),
so a game plays it only when it says so (the game's rules then include it, and repealing it
switches the Call off, engine/suber/mechanics.py). One week after a turn began, if the player on turn has
not proposed, any other player may send ``Call for action``. Two days later the other players
vote (``Skip yes`` / ``Skip no``); as soon as a majority of them votes to skip, the player loses
what a defeated proposal costs (206) and the turn passes; as soon as a skip can no longer win,
or the player on turn proposes, the call lapses. ``next_due`` is the vote's opening, which the
clock announces (event ``skip_vote_open``).
"""
from __future__ import annotations

from datetime import datetime, timedelta

from engine.context import Context, EngineConfig
from engine.inputs import Message
from engine.suber import mechanics, points, turns
from engine.suber.commands import CallForActionCmd, SkipVoteCmd
from engine.suber.state import CallForAction, SuberState
from engine.suber.events import ActionCalled, CallLapsed, SkipVoteOpen, Skipped
from engine.refusal import Refusal

RULE = 305
WAIT = timedelta(weeks=1)  # a turn without a proposal, before a Call
VOTE_AFTER = timedelta(days=2)  # from the Call to the vote


def played(config: EngineConfig) -> bool:
    return bool(config.options["call_for_action"])


def call(state: SuberState, msg: Message, cmd: CallForActionCmd, ctx: Context) -> None:
    why = _no_call(state, msg.sender, ctx)
    if why is not None:
        ctx.refuse(cmd.line, why, "")
        return
    assert state.turn is not None
    state.call_for_action = CallForAction(by=msg.sender, player=state.turn, at=ctx.at)
    ctx.emit(ActionCalled(by=msg.sender, player=state.turn, vote_at=(ctx.at + VOTE_AFTER).isoformat()))
    ctx.say(cmd.line, f"Call for Action on {state.turn}: the other players vote on skipping them "
            f"from {(ctx.at + VOTE_AFTER):%Y-%m-%d %H:%M} UTC ('Skip yes' or 'Skip no'; rule 305)")


def _no_call(state: SuberState, sender: str, ctx: Context) -> Refusal | None:
    if not played(ctx.config):
        return Refusal("this game does not play rule 305 (a later rule, not in the Initial Set)", "305")
    if sender == state.turn:
        return Refusal("only the other players may issue a Call for Action", "305")
    if state.current_proposal() is not None:
        return Refusal(f"{state.turn} has made this turn's proposal", "305")
    if state.call_for_action is not None:
        return Refusal("a Call for Action is already under way", ruleless="already")
    since = state.turn_started or state.started
    if ctx.at < since + WAIT:
        return Refusal(f"not before one week has passed since the turn began: from {(since + WAIT):%Y-%m-%d %H:%M} UTC",
                       "305")
    return None


def skip_vote(state: SuberState, msg: Message, cmd: SkipVoteCmd, ctx: Context) -> None:
    c = state.call_for_action
    if c is None:
        ctx.refuse(cmd.line, Refusal("there is no Call for Action to vote on", ruleless="no such"), "")
    elif msg.sender == c.player or msg.sender in c.votes:
        ctx.refuse(cmd.line, Refusal("each of the other players votes once on the skip", "305"), "")
    elif ctx.at < c.at + VOTE_AFTER:
        ctx.refuse(cmd.line, Refusal(f"the vote takes place two days after the Call: from "
                                     f"{(c.at + VOTE_AFTER):%Y-%m-%d %H:%M} UTC", "305"), "")
    else:
        c.votes[msg.sender] = cmd.skip
        ctx.say(cmd.line, f"your vote {'to skip' if cmd.skip else 'not to skip'} {c.player} is recorded")
        _decide(state, c, ctx)


def _decide(state: SuberState, c: CallForAction, ctx: Context) -> None:
    others = len(state.players) - 1
    skip = sum(c.votes.values())
    if 2 * skip > others:
        state.call_for_action = None
        ctx.emit(Skipped(player=c.player, votes=dict(c.votes)))
        if mechanics.on(state, 206):  # "what a defeated proposal costs": nothing once 206 is repealed
            points.award(state, c.player, -mechanics.value(state, "defeat_penalty"),
                         "skipped after a Call for Action", ctx, rule=305)
        if state.winner is None:
            turns.pass_turn(state, ctx.at, ctx)
    elif 2 * (len(c.votes) - skip) >= others:
        lapse(state, "a majority to skip can no longer be reached", ctx)


def lapse(state: SuberState, why: str, ctx: Context) -> None:
    """The Call for Action ends without a skip."""
    if state.call_for_action is not None:
        ctx.emit(CallLapsed(player=state.call_for_action.player, reason=why))
        state.call_for_action = None


def next_due(state: SuberState) -> datetime | None:
    c = state.call_for_action
    return None if c is None or c.opened else c.at + VOTE_AFTER


def on_clock(state: SuberState, at: datetime, ctx: Context) -> None:
    c = state.call_for_action
    if c is not None and not c.opened and at >= c.at + VOTE_AFTER:
        c.opened = True
        ctx.emit(SkipVoteOpen(player=c.player, voters=[p.email for p in state.players if p.email != c.player]))
