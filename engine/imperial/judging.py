"""Rules 3 and 11: the Emperor judges a submission; its author scores."""
from __future__ import annotations

from engine.commands import JudgeCmd
from engine.context import Context
from engine.imperial.scoring import award
from engine.imperial.submissions import ignore
from engine.inputs import Message
from engine.state import GameState

_STATUS = {"accept": "accepted", "reject": "rejected", "ignore": "ignored"}


def judge(state: GameState, msg: Message, cmd: JudgeCmd, ctx: Context) -> None:
    sub = state.submission(cmd.number) if cmd.number is not None else None
    if sub is None:
        ctx.say(cmd.line, f"there is no submission {cmd.number}", ok=False)
        return
    if sub.status != "pending":
        ctx.say(cmd.line, f"submission {sub.number} was already {sub.status}", ok=False)
        return
    sub.judged_at, sub.judged_day = ctx.at, state.game_day
    if cmd.verdict == "ignore":
        ignore(sub, cmd.reason or "ignored by the Emperor", rule=None)
    else:
        sub.status = _STATUS[cmd.verdict]
    author = state.player(sub.author)
    if sub.kind == "proposal" and author is not None:
        points = {"accept": state.var("accept_points"), "reject": -state.var("reject_points"),
                  "ignore": 0}[cmd.verdict]
        award(state, author, points, f"Proposal {sub.number} {sub.status}", ctx,
              rule=11, submission=sub.number)
    ctx.emit("judged", number=sub.number, verdict=cmd.verdict, status=sub.status,
             reason=sub.reason)
    ctx.say(cmd.line, f"submission {sub.number} is {sub.status}")
