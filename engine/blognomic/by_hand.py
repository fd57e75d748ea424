"""What no program can apply: the prose of an enacted matter beyond its change lines (``by_hand``).

An Admin applies it and says so with ``Applied N: NOTE`` (what they did); the mail is tied to
matter N (``applied``: who, when, the note and the Message-ID), so the matter's page shows what
was done by hand and by whom.
"""
from __future__ import annotations

from engine.blognomic import citing
from engine.blognomic.commands import AppliedCmd
from engine.blognomic.downtime import REASON, in_downtime
from engine.blognomic.state import Applied, BlogState
from engine.context import Context
from engine.inputs import Message
from engine.blognomic.events import AppliedByHand
from engine.events import Cause
from engine.refusal import Refusal


def applied(state: BlogState, msg: Message, cmd: AppliedCmd, ctx: Context) -> None:
    m = state.matter(cmd.number)
    if m is None or m.status != "enacted" or not m.by_hand:
        ctx.refuse(cmd.line, Refusal(f"matter {cmd.number} is not an enacted matter with prose to apply by hand",
                                     ruleless="no such"), "nothing recorded")
        return
    if m.kind != "cfj" and in_downtime(ctx.at):
        ctx.refuse(cmd.line, citing.refusal(state, f"{REASON}: only a Call for Judgement's prose may be applied "
                                            "until 27 December", "Seasonal Downtime"), "nothing recorded")
        return
    m.applied.append(Applied(by=msg.sender, at=ctx.at, note=cmd.note, message_id=msg.message_id))
    ctx.emit(AppliedByHand(number=m.number, by=msg.sender, note=cmd.note), Cause("matter", m.number))
    ctx.say(cmd.line, f"recorded: {m.kind} {m.number}'s prose applied by hand ({len(m.applied)} such mail"
            f"{'s' if len(m.applied) > 1 else ''} so far)")
