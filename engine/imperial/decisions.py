"""A Proposal is decided: the Emperor's ``Accept N`` / ``Reject N`` / ``Ignore N because ...``,
and the engine's own ignoring (rules 3, 4, 8), both run ``pipelines.PROPOSAL_STEPS``."""
from __future__ import annotations

import re

from engine import threads
from engine.context import Context
from engine.events import Cause
from engine.imperial import points_of_order
from engine.imperial.commands import JudgeCmd
from engine.imperial.events import Judged
from engine.imperial.pipelines import PROPOSAL_STEPS
from engine.imperial.state import ImperialState, Submission
from engine.imperial.steps import Outcome, Verdict
from engine.imperial.winning import game_over
from engine.inputs import Message
from engine.refusal import Refusal

_RULE_IN_REASON = re.compile(r"\brule\s+(\d{1,9})\b", re.I)


def conclude(state: ImperialState, sub: Submission, verdict: Verdict, ctx: Context, *,
             reason: str | None = None, rule: int | None = None, by_engine: bool = False) -> Outcome:
    """Decide Proposal ``sub``: run every step; emit ``judged``; return the outcome. Every event
    on the way is caused by the submission."""
    out = Outcome(verdict=verdict, judged=verdict, by_engine=by_engine, reason=reason, rule=rule)
    with ctx.because(Cause("submission", sub.number)):
        for step in PROPOSAL_STEPS:
            step(state, sub, out, ctx)
            if game_over(state) and sub.status != "pending":
                break  # rule 8: the game ended at this step; nothing follows
        ctx.emit(Judged(number=sub.number, verdict=out.judged, status=sub.status,
                        reason=sub.reason, points=out.points, prejudice=out.prejudice, by_engine=by_engine,
                        refused=sorted(out.refused.items())))
    return out


def summary(sub: Submission, out: Outcome) -> str:
    """'Proposal 4 accepted: +3 points (now 12); temperature 303 -> 304 K'."""
    head = f"Proposal {sub.number} {sub.status}"
    if sub.reason:
        head += f" ({sub.reason})"
    return head + (": " + "; ".join(n for n in out.notes if n) if out.notes else "")


def judge(state: ImperialState, msg: Message, cmd: JudgeCmd, ctx: Context) -> None:
    """The Emperor's ``Accept N`` / ``Reject N`` / ``Ignore N because REASON``."""
    number = cmd.number if cmd.number is not None else threads.matter_of(
        state, msg.references, ctx.config.address)
    sub = state.submission(number) if number is not None else None
    if sub is None:
        ctx.refuse(cmd.line, Refusal(f"there is no submission {cmd.number}", ruleless="no such") if cmd.number
                   else Refusal("which submission? write e.g. 'Accept 3'", "3"))
        return
    if sub.status != "pending":
        ctx.refuse(cmd.line, Refusal(f"submission {sub.number} was already {sub.status}", ruleless="already"))
        return
    if sub.kind == "point_of_order":
        points_of_order.judge(state, sub, cmd, ctx)
        return
    if cmd.verdict == "ignore" and not (cmd.reason or "").strip():
        ctx.refuse(cmd.line, Refusal("ignoring a Proposal needs its reason from the ruleset (rule 3): "
                                     f"write 'Ignore {sub.number} because ...'", "3"))
        return
    if cmd.area:
        sub.area = cmd.area.strip()
    reason = f"the Emperor: {cmd.reason.strip()}" if cmd.reason else None
    m = _RULE_IN_REASON.search(cmd.reason or "")
    out = conclude(state, sub, cmd.verdict, ctx, reason=reason, rule=int(m[1]) if m else None)
    ctx.say(cmd.line, summary(sub, out))
