"""Rules 1 and 3: the offices' own commands: Directives, and THS's rewrites of Proposals."""
from __future__ import annotations

from engine.imperial.commands import DirectiveCmd, RevokeDirectiveCmd, RewriteCmd
from engine.context import Context
from engine.events import Cause
from engine.inputs import Message
from engine.imperial.state import ImperialState, Revision
from engine.imperial.events import Directive, Rewritten
from engine.refusal import Refusal


def directive(state: ImperialState, msg: Message, cmd: DirectiveCmd, ctx: Context) -> None:
    """Rule 3: a Directive calls for Proposals in an area; every player is bound anew."""
    state.directive = cmd.area.strip()
    for p in state.players:
        p.directive_done = False
    ctx.emit(Directive(area=state.directive))
    ctx.say(cmd.line, f"Directive in force: Proposals must be in the area {state.directive!r} until "
            "their author has one accepted there or the Directive is revoked")


def revoke(state: ImperialState, msg: Message, cmd: RevokeDirectiveCmd, ctx: Context) -> None:
    if state.directive is None:
        ctx.refuse(cmd.line, Refusal("there is no Directive to revoke", ruleless="no such"))
        return
    area, state.directive = state.directive, None
    ctx.emit(Directive(area=None, revoked=area))
    ctx.say(cmd.line, f"the Directive {area!r} is revoked")


def rewrite(state: ImperialState, msg: Message, cmd: RewriteCmd, ctx: Context) -> None:
    """Rule 3: THS rewrites a Proposal to clarify it; every revision is kept, the original first."""
    sub = state.submission(cmd.number)
    if sub is None or sub.kind != "proposal":
        ctx.refuse(cmd.line, Refusal(f"there is no Proposal {cmd.number}", ruleless="no such"))
        return
    text = cmd.text.strip()
    if not text or text == sub.text.strip():
        ctx.refuse(cmd.line, Refusal(f"the new text of Proposal {sub.number} is empty or unchanged: THS rewrites "
                                     "a Proposal to clarify it", "3"))
        return
    if not sub.revisions:
        sub.revisions.append(Revision(text=sub.text, at=sub.received_at or ctx.at, by=sub.author))
    sub.revisions.append(Revision(text=text, at=ctx.at, by=msg.sender))
    sub.text = text
    ctx.emit(Rewritten(number=sub.number, revision=len(sub.revisions) - 1), Cause("submission", sub.number))
    ctx.say(cmd.line, f"Proposal {sub.number} rewritten (revision {len(sub.revisions) - 1})")
