"""Rule 212: invoking Judgment, the Judge's answer, overruling, and consent to the next turn.

Any player may invoke Judgment on a question; the Judge is the player preceding the one moving
(the player on turn). The Judge answers with ``Judgment: TEXT`` (or ``Judgment N: TEXT``); the
answer is published with the question. Before the next turn begins, the other players may
overrule the answer by a unanimous vote (each sends ``Overrule N``): the player preceding the Judge
(never the player on turn) becomes Judge and answers again. After a turn in which Judgment was
invoked, the next player may not propose until a majority of the other players send ``Consent``.
The engine records Judgments and does not act on their text, but for one finding: a Judgment whose
text begins "Rule 213" finds that play cannot continue (rule 213), and the player on turn, the
first player unable to complete a turn, wins at once (docs/rulings-suber.md): from the circuit
``[suber] rule_213_from_circuit`` on (1, the default: at any time, the literal reading); before it the
finding is recorded and published only.
"""
from __future__ import annotations

import re

from engine.context import Context, EngineConfig
from engine.events import Cause
from engine.inputs import Message
from engine.suber import mechanics, turns
from engine.suber.commands import ConsentCmd, InvokeJudgmentCmd, JudgmentCmd, OverruleCmd
from engine.suber.state import Judgment, SuberState
from engine.suber.events import Consent, JudgmentGiven, JudgmentInvoked, Overruled, Winner
from engine.refusal import Refusal

RULE_213 = re.compile(r"^\s*rule\s+213\b", re.I)


def invoke(state: SuberState, msg: Message, cmd: InvokeJudgmentCmd, ctx: Context) -> None:
    if state.turn is None or len(state.players) < 2:
        ctx.refuse(cmd.line, Refusal("there is no Judge: rule 212 needs a player before the one on turn", "212"), "")
        return
    question = cmd.question or cmd.text.strip()
    judge = turns.previous(state, state.turn)
    judgment = Judgment(number=len(state.judgments) + 1, question=question, by=msg.sender, judge=judge,
                        mover=state.turn, at=ctx.at, turn=state.turns_ended)
    state.judgments.append(judgment)
    ctx.emit(JudgmentInvoked(number=judgment.number, question=question, by=msg.sender, judge=judge,
                             mover=state.turn), Cause("judgment", judgment.number))
    ctx.say(cmd.line, f"Judgment {judgment.number} invoked; the Judge is {judge} (rule 212), who answers "
            f"with 'Judgment: TEXT'")


def answer(state: SuberState, msg: Message, cmd: JudgmentCmd, ctx: Context) -> None:
    open_ = [j for j in state.judgments if j.answer is None and j.judge == msg.sender
             and (cmd.number is None or j.number == cmd.number)]
    if not open_:
        ctx.refuse(cmd.line, Refusal("you are not the Judge of any open question"
                                     + ("" if cmd.number is None else f" numbered {cmd.number}"), "212"), "")
        return
    judgment = open_[0]
    judgment.answer, judgment.answered_at = cmd.text, ctx.at
    with ctx.because(Cause("judgment", judgment.number)):
        ctx.emit(JudgmentGiven(number=judgment.number, judge=msg.sender, question=judgment.question,
                               text=cmd.text))
        ctx.say(cmd.line, f"Judgment {judgment.number} given and published")
        if RULE_213.match(cmd.text):
            if not mechanics.on(state, 213):
                ctx.say("", f"rule 213 is repealed: Judgment {judgment.number} is recorded and published, and the "
                        "game goes on")
            elif state.circuit >= rule_213_from(ctx.config):
                _play_cannot_continue(state, judgment, ctx)
            else:
                ctx.say("", f"rule 213: this game lets a Judgment end it only from circuit "
                        f"{rule_213_from(ctx.config)} (now {state.circuit}); Judgment {judgment.number} is "
                        "recorded and published, and the game goes on")


def rule_213_from(config: EngineConfig) -> int:
    """``[suber] rule_213_from_circuit``: the first circuit in which a Judge's rule 213 finding ends the game."""
    return int(config.options["rule_213_from_circuit"])


def _play_cannot_continue(state: SuberState, judgment: Judgment, ctx: Context) -> None:
    """Rule 213: "the first player unable to complete a turn is the winner": the player on turn."""
    winner = state.player(state.turn) if state.turn else None
    if winner is None or state.winner is not None:
        return
    state.winner = winner.email
    ctx.emit(Winner(player=winner.email, score=winner.score, rule=213))
    ctx.say("", f"rule 213: play cannot continue (Judgment {judgment.number}); {winner.name}, on turn and "
            "the first player unable to complete a turn, wins; the game has ended")


def overrule(state: SuberState, msg: Message, cmd: OverruleCmd, ctx: Context) -> None:
    judgment = _answered(state, cmd.number)
    why = _no_overrule(state, judgment, msg.sender)
    if why is not None or judgment is None:
        ctx.refuse(cmd.line, why or Refusal("no such Judgment", ruleless="no such"), "")
        return
    judgment.overrule.append(msg.sender)
    others = [p.email for p in state.players if p.email != judgment.judge]
    ctx.say(cmd.line, f"your vote to overrule Judgment {judgment.number} is recorded "
            f"({len(judgment.overrule)} of {len(others)}; it takes all of them)")
    if set(others) <= set(judgment.overrule):
        _overruled(state, judgment, ctx)


def _answered(state: SuberState, number: int | None) -> Judgment | None:
    answered = [j for j in state.judgments if j.answer is not None and (number is None or j.number == number)]
    return answered[-1] if answered else None


def _no_overrule(state: SuberState, judgment: Judgment | None, sender: str) -> Refusal | None:
    if judgment is None:
        return Refusal("there is no answered Judgment of that number to overrule", ruleless="no such")
    if judgment.turn != state.turns_ended:
        return Refusal(f"Judgment {judgment.number} stands: the next turn has begun", "212")
    if sender == judgment.judge:
        return Refusal("the Judge does not vote on overruling their own Judgment", "212")
    if sender in judgment.overrule:
        return Refusal(f"you have already voted to overrule Judgment {judgment.number}", ruleless="already")
    return None


def _overruled(state: SuberState, judgment: Judgment, ctx: Context) -> None:
    """The player preceding the Judge becomes Judge, never the player whose turn it is."""
    judge = turns.previous(state, judgment.judge)
    if judge == judgment.mover:
        judge = turns.previous(state, judge)
    judgment.overruled.append(judgment.judge)
    judgment.judge, judgment.answer, judgment.answered_at, judgment.overrule = judge, None, None, []
    ctx.emit(Overruled(number=judgment.number, judge=judge, previous=judgment.overruled[-1]),
             Cause("judgment", judgment.number))
    ctx.say(f"Judgment {judgment.number}", f"overruled; {judge} is now the Judge of it")


def waiting_for_consent(state: SuberState) -> str | None:
    """Why the player on turn may not begin it yet (212), or None."""
    if state.consent is None:
        return None
    others = len(state.players) - 1
    if 2 * len(state.consent) > others:
        return None
    return (f"Judgment was invoked last turn: {state.turn} begins only with the consent of a majority of "
            f"the other players (rule 212; 'Consent': {len(state.consent)} of {others} so far)")


def consent(state: SuberState, msg: Message, cmd: ConsentCmd, ctx: Context) -> None:
    if state.consent is None:
        ctx.say(cmd.line, "no consent is needed now; nothing done")
    elif msg.sender == state.turn or msg.sender in state.consent:
        ctx.refuse(cmd.line, Refusal("only each of the other players consents, once", "212"), "")
    else:
        state.consent.append(msg.sender)
        ctx.emit(Consent(player=msg.sender, turn=state.turn, given=waiting_for_consent(state) is None))
        ctx.say(cmd.line, f"consent recorded ({len(state.consent)} of {len(state.players) - 1})")
