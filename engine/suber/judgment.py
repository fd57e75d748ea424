"""Rule 212: invoking Judgment, and the Judge's answer.

Any player may invoke Judgment on a question; the Judge is the player preceding the one moving
(the player on turn). The Judge answers with ``Judgment: TEXT`` (or ``Judgment N: TEXT``); the
answer is published with the question (events ``judgment_invoked`` and ``judgment``). The engine
records Judgments; it does not act on their text.
"""
from __future__ import annotations

from engine.context import Context
from engine.inputs import Message
from engine.suber import turns
from engine.suber.commands import InvokeJudgmentCmd, JudgmentCmd
from engine.suber.state import Judgment, SuberState


def invoke(state: SuberState, msg: Message, cmd: InvokeJudgmentCmd, ctx: Context) -> None:
    if state.turn is None or len(state.players) < 2:
        ctx.say(cmd.line, "there is no Judge: rule 212 needs a player before the one on turn", ok=False)
        return
    question = cmd.question or cmd.text.strip()
    judge = turns.previous(state, state.turn)
    judgment = Judgment(number=len(state.judgments) + 1, question=question, by=msg.sender, judge=judge,
                        mover=state.turn, at=ctx.at)
    state.judgments.append(judgment)
    ctx.emit("judgment_invoked", number=judgment.number, question=question, by=msg.sender, judge=judge,
             mover=state.turn)
    ctx.say(cmd.line, f"Judgment {judgment.number} invoked; the Judge is {judge} (rule 212), who answers "
            f"with 'Judgment: TEXT'")


def answer(state: SuberState, msg: Message, cmd: JudgmentCmd, ctx: Context) -> None:
    open_ = [j for j in state.judgments if j.answer is None and j.judge == msg.sender
             and (cmd.number is None or j.number == cmd.number)]
    if not open_:
        ctx.say(cmd.line, "you are not the Judge of any open question"
                + ("" if cmd.number is None else f" numbered {cmd.number}"), ok=False)
        return
    judgment = open_[0]
    judgment.answer, judgment.answered_at = cmd.text, ctx.at
    ctx.emit("judgment", number=judgment.number, judge=msg.sender, question=judgment.question, text=cmd.text)
    ctx.say(cmd.line, f"Judgment {judgment.number} given and published")
