"""Making a proposal (rules 108, 201, 202): only the player on turn, one per turn, numbered from 301.

A proposal that may not be made (not on turn, the turn's proposal already made, a change list
``changes.check`` refuses, no consent yet after
Judgment, rule 212) is refused with the reason, takes no number, and the turn stays.
"""
from __future__ import annotations

from dataclasses import replace

from engine.context import Context
from engine.events import Cause
from engine.inputs import Message
from engine.suber import calls, changes, judgment, mechanics
from engine.suber.commands import ProposalCmd
from engine.suber.state import FIRST_NUMBER, Change, Proposal, SuberState
from engine.suber.events import Proposed
from engine.refusal import Refusal


def refusal(state: SuberState, sender: str) -> Refusal | None:
    """Why ``sender`` may not propose now (201, 202, 212), or None."""
    if sender != state.turn:
        return Refusal(f"it is {state.turn}'s turn; only the player on turn may propose", "201")
    if (waiting := judgment.waiting_for_consent(state)) is not None:
        return Refusal(waiting, "212")
    current = state.current_proposal()
    if current is not None:
        return Refusal(f"this turn's proposal is {current.number}, still in {current.status}: one per turn", "202")
    return None


def propose(state: SuberState, msg: Message, cmd: ProposalCmd, ctx: Context) -> None:
    why = refusal(state, msg.sender)
    try:
        if why is not None:
            raise changes.Refused(why)
        lines = changes.parse(cmd.text)
        changes.check(state, lines)
    except changes.Refused as refused:
        ctx.refuse(cmd.line, replace(refused.refusal, why=f"refused, no number given: {refused.refusal.why}"), "")
        return
    number = FIRST_NUMBER + len(state.proposals)
    proposal = Proposal(number=number, author=msg.sender, title=cmd.title or f"Proposal {number}",
                        text=cmd.text, message_id=msg.message_id, received_at=msg.at, changes=lines,
                        unanimity=state.unanimity or changes.transmutes_immutable(state, lines))
    preview = mechanics.preview(state, proposal, ctx.at)
    state.proposals.append(proposal)
    with ctx.because(Cause("proposal", number)):
        ctx.emit(Proposed(number=number, author=msg.sender, title=proposal.title,
                          changes=[c.model_dump(mode="json") for c in lines], unanimity=proposal.unanimity,
                          preview=preview))
        calls.lapse(state, f"{msg.sender} proposed", ctx)
    ctx.say(cmd.line, f"proposal {number}: {_summary(lines)}; in debate until you send 'Call vote' "
            f"(rule 111); {'unanimity' if proposal.unanimity else 'a simple majority'} adopts it; "
            "if adopted:\n" + "\n".join(preview))


def _summary(lines: list[Change]) -> str:
    return ", ".join(f"set {c.text}" if c.kind == "set" else f"{c.kind} rule{'' if c.rule is None else f' {c.rule}'}"
                     for c in lines)
