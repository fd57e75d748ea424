"""The Chairman's own acts (2-1, 2-2): publishing the Ballot (only in the Voting Period; it lets
him start the Clock), publishing the last Voting's results, numbering proposals by hand."""
from __future__ import annotations

from engine.bnomic import numbering
from engine.bnomic.commands import ChairmanCmd
from engine.bnomic.events import BallotPublished, ResultsPublished
from engine.bnomic.state import BNomicState
from engine.context import Context
from engine.inputs import Message
from engine.wording import counted
from engine.refusal import Refusal


def act(state: BNomicState, msg: Message, cmd: ChairmanCmd, ctx: Context) -> None:
    """The office is checked in ruleset._refusal, against who holds the Ministry of Change now."""
    if cmd.what == "ballot":
        if not state.clock.voting:
            ctx.refuse(cmd.line, Refusal("the Ballot is published in the Voting Period (nday 9 on)", "2-2"))
            return
        keys = [p.key for p in state.proposals if p.status == "open"]
        state.ballot_published = True
        ctx.emit(BallotPublished(nweek=state.clock.nweek, keys=keys))
        ctx.say(cmd.line, f"the Ballot of {len(keys)} Open proposal{'s' * (len(keys) != 1)} is mailed to the list")
    elif cmd.what == "results":
        ctx.emit(ResultsPublished(nweek=state.clock.nweek, keys=list(state.results)))
        ctx.say(cmd.line, f"the results of {counted(len(state.results), 'proposal')} are mailed to the list")
    else:
        given = numbering.number_all(state, ctx)
        ctx.say(cmd.line, f"numbered: {', '.join(map(str, given))}" if given else "every proposal has a number")
