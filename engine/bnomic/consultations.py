"""Consultations (2-5): submitted and numbered, a Priest selected by the Oracle (the Oracle himself
when no Player is eligible), answered YES or NO with Reasoning and an Oracularity, claimed
Consistent or Inconsistent, tallied at the 4th midnight after the Answer and Pondered at the 5th,
when its Oracularity applies all or nothing (Readings 30-32)."""
from __future__ import annotations

import re
from typing import Literal

from engine.bnomic import changes, players
from engine.bnomic.commands import AnswerCmd, ClaimCmd, ConsultationCmd, PriestCmd, RenumberConsultationCmd, ZotCmd
from engine.bnomic.events import ConsultationChanged
from engine.bnomic.state import BNomicState, Consultation
from engine.context import Context
from engine.events import Cause
from engine.inputs import Message

TALLY_AT = 4  # midnights after the Answer: the end of the third full nday or ndelay
PONDER_AT = 5  # the end of the fourth
_ORACULARITY = re.compile(r"^\s*oracularity\s*:\s*$", re.I | re.M)


def _changed(q: Consultation, why: str, ctx: Context) -> None:
    with ctx.because(Cause("consultation", q.number)):
        ctx.emit(ConsultationChanged(number=q.number, status=q.status, priest=q.priest, why=why))


def eligible(state: BNomicState, q: Consultation) -> list[str]:
    """Active Players but the Supplicant, the Unbeliever, the Oracle and the Priests selected before."""
    oracle = state.ministry("questions")
    barred = {q.supplicant, q.unbeliever, oracle.holder if oracle else None, q.priest, *q.former_priests}
    return [p.email for p in state.players if p.active and p.email not in barred]


def _select_oracle_if_none(state: BNomicState, q: Consultation, ctx: Context) -> None:
    oracle = state.ministry("questions")
    if oracle is not None and oracle.holder is not None and not eligible(state, q):
        q.priest = oracle.holder
        _changed(q, "no Player is eligible: the Oracle is Priest (2-5)", ctx)


def submit(state: BNomicState, msg: Message, cmd: ConsultationCmd, ctx: Context) -> None:
    question = " ".join(cmd.question.split())
    unbeliever = players.find(state, cmd.unbeliever) if cmd.unbeliever else None
    if not question:
        ctx.say(cmd.line, "a Consultation asks a Question; nothing done", ok=False)
        return
    if cmd.unbeliever and unbeliever is None:
        ctx.say(cmd.line, f"there is no Player {cmd.unbeliever}; nothing done", ok=False)
        return
    q = Consultation(number=max((c.number for c in state.consultations), default=0) + 1, supplicant=msg.sender,
                     question=question, reasoning=cmd.reasoning.strip(),
                     unbeliever=unbeliever.email if unbeliever else None)
    state.consultations.append(q)
    _changed(q, "submitted", ctx)
    _select_oracle_if_none(state, q, ctx)
    ctx.say(cmd.line, f"Consultation {q.number}, Waiting" + (f"; its Priest is {q.priest}" if q.priest else ""))


def _find(state: BNomicState, number: int) -> Consultation | None:
    return next((q for q in state.consultations if q.number == number), None)


def priest(state: BNomicState, msg: Message, cmd: PriestCmd, ctx: Context) -> None:
    q, p = _find(state, cmd.number), players.find(state, cmd.player)
    if q is None:
        why = f"there is no Consultation {cmd.number}"
    elif q.status != "waiting" or (q.priest is not None and not q.zot_requested):
        why = f"Consultation {q.number} awaits no Priest"
    elif p is None:
        why = f"there is no Player {cmd.player}"
    elif p.email not in eligible(state, q):
        why = f"{p.name} is not eligible: an Active Player, not the Supplicant, the Unbeliever, the Oracle nor a " \
              "former Priest (2-5)"
    else:
        if q.priest is not None:  # the Oracle reassigns it instead of granting its Priest's request
            q.former_priests.append(q.priest)
        q.priest, q.zot_requested = p.email, False
        _changed(q, "selected by the Oracle", ctx)
        ctx.say(cmd.line, f"{p.name} is the Priest of Consultation {q.number}")
        return
    ctx.say(cmd.line, f"{why}; nothing done", ok=False)


def renumber(state: BNomicState, msg: Message, cmd: RenumberConsultationCmd, ctx: Context) -> None:
    """2-5: the Oracle "may choose a number of his liking for a new Consultation": until its Priest is
    selected (the design's Reading 53), to a positive number no Consultation has."""
    q = _find(state, cmd.number)
    if q is None:
        why = f"there is no Consultation {cmd.number}"
    elif q.status != "waiting":
        state_name = q.status.upper() if q.status == "zotted" else q.status.capitalize()
        why = f"Consultation {q.number} is {state_name}: only a new one is renumbered"
    elif q.priest is not None or q.former_priests:
        why = f"Consultation {q.number} is no longer new: it has had a Priest"
    elif cmd.to < 1 or _find(state, cmd.to) is not None:
        why = f"the number {cmd.to} is taken, or not positive"
    else:
        old, q.number = q.number, cmd.to
        _changed(q, f"renumbered from {old} by the Oracle", ctx)
        ctx.say(cmd.line, f"Consultation {old} is now Consultation {q.number} (2-5)")
        return
    ctx.say(cmd.line, f"{why}; nothing done", ok=False)


def zot(state: BNomicState, msg: Message, cmd: ZotCmd, ctx: Context) -> None:
    """``ZOT N``: the Oracle, on a Waiting Consultation with no Priest yet or whose Priest asked; ``Request
    ZOT N``: its Priest, while it is Waiting."""
    q = _find(state, cmd.number)
    if q is None or q.status != "waiting":
        ctx.say(cmd.line, f"there is no Waiting Consultation {cmd.number}; nothing done", ok=False)
    elif cmd.request and q.priest != msg.sender:
        ctx.say(cmd.line, f"only the Priest of Consultation {q.number} asks for it to be ZOTTED; nothing done", ok=False)
    elif cmd.request:
        q.zot_requested = True
        ctx.say(cmd.line, f"the Oracle is asked to ZOT Consultation {q.number} or to reassign it (2-5)")
    elif not state.holds(msg.sender, "questions"):
        ctx.say(cmd.line, "only the Oracle wields the staff of ZOT (2-5); nothing done", ok=False)
    elif q.priest is not None and not q.zot_requested:
        ctx.say(cmd.line, f"Consultation {q.number} has a Priest who did not ask for it to be ZOTTED; nothing done",
                ok=False)
    else:
        q.status = "zotted"
        _changed(q, "ZOTTED by the Oracle", ctx)
        ctx.say(cmd.line, f"Consultation {q.number} is ZOTTED: it has no further effect (2-5)")


def reassign(state: BNomicState, ctx: Context) -> None:
    """At the start of each nweek, and every 10 ndelays: each Waiting Consultation's Priest is replaced;
    the Oracle selects the next (himself when none is eligible)."""
    for q in state.consultations:
        if q.status == "waiting" and q.priest is not None:
            q.former_priests.append(q.priest)
            q.priest, q.zot_requested = None, False
            _changed(q, "reassigned: the Oracle selects a new Priest (2-5)", ctx)
            _select_oracle_if_none(state, q, ctx)


def answer(state: BNomicState, msg: Message, cmd: AnswerCmd, ctx: Context) -> None:
    q = _find(state, cmd.number)
    if q is None or q.priest != msg.sender or q.status not in ("waiting", "answered"):
        ctx.say(cmd.line, f"only the Priest of a Waiting or Answered Consultation {cmd.number} answers it; "
                "nothing done", ok=False)
        return
    parts = _ORACULARITY.split(cmd.text, maxsplit=1)
    reasoning, oracularity = parts[0], parts[1] if len(parts) > 1 else ""
    q.status, q.answer, q.answer_reasoning = "answered", "YES" if cmd.yes else "NO", reasoning.strip()
    q.oracularity, q.claims, q.answered_rdays = changes.parse(oracularity), {}, state.clock.rdays
    q.answers += 1
    _changed(q, f"answered {q.answer}", ctx)
    ctx.say(cmd.line, f"Consultation {q.number} is Answered {q.answer}" +
            (f" with an Oracularity of {_lines(len(q.oracularity))}" if q.oracularity else "") +
            "; claims are open for three ndays or ndelays (2-5)")


def claim(state: BNomicState, msg: Message, cmd: ClaimCmd, ctx: Context) -> None:
    q = _find(state, cmd.number)
    word: Literal["consistent", "inconsistent"] = "consistent" if cmd.consistent else "inconsistent"
    if q is None or q.status != "answered":
        ctx.say(cmd.line, f"Consultation {cmd.number} is not Answered: no claim; nothing done", ok=False)
    elif msg.sender in (q.supplicant, q.unbeliever):
        ctx.say(cmd.line, "the Supplicant and the Unbeliever make no claim (2-5); nothing done", ok=False)
    else:
        q.claims.pop(msg.sender, None)
        q.claims[msg.sender] = word  # the last claim counts
        ctx.say(cmd.line, f"your claim that Consultation {q.number}'s Answer is {word.capitalize()} is recorded")


def at_midnight(state: BNomicState, ctx: Context) -> None:
    """Before the Clock changes: the claims of each Answer 4 midnights old are tallied; one 5 old is Pondered."""
    after = state.clock.rdays + 1
    for q in state.consultations:
        if q.status == "answered" and q.answered_rdays is not None and after - q.answered_rdays == TALLY_AT:
            _tally(state, q, ctx)
        elif q.status == "answered" and q.answered_rdays is not None and after - q.answered_rdays >= PONDER_AT:
            _ponder(state, q, ctx)


def _tally(state: BNomicState, q: Consultation, ctx: Context) -> None:
    words = list(q.claims.values())
    inconsistent, consistent = words.count("inconsistent"), words.count("consistent")
    if inconsistent <= consistent:
        return
    q.former_priests.append(q.priest or "")
    q.status, q.priest, q.answer, q.answer_reasoning, q.oracularity = "waiting", None, None, "", []
    q.claims, q.answered_rdays, q.answers = {}, None, 0
    _changed(q, f"claimed Inconsistent {inconsistent} to {consistent}: Waiting for a new Priest", ctx)
    _select_oracle_if_none(state, q, ctx)


def _ponder(state: BNomicState, q: Consultation, ctx: Context) -> None:
    """Pondered; the Oracularity applies all or nothing (a Transaction, Reading 32) if it is the Priest's first Answer."""
    q.status = "pondered"
    why = "Pondered"
    if q.oracularity and q.answers == 1:
        trial, scratch = state.copy_deep(), Context(config=ctx.config, at=ctx.at)
        try:
            for change in q.oracularity:
                changes.apply(trial, change, q.priest or "", scratch)
        except changes.Refused as refused:
            why = f"Pondered; its Oracularity is not followed: {change.line!r}: {refused}"
        else:
            with ctx.because(Cause("consultation", q.number)):
                for change in q.oracularity:
                    changes.apply(state, change, q.priest or "", ctx)
            q.oracularity_followed, why = True, f"Pondered; its Oracularity followed ({_lines(len(q.oracularity))})"
    _changed(q, why, ctx)


def owed(state: BNomicState) -> list[str]:
    """The daily reminders: who owes each Waiting Consultation an Answer or a Priest."""
    oracle = state.ministry("questions")
    return [f"Consultation {q.number} awaits an Answer from {q.priest}" if q.priest else
            f"Consultation {q.number} awaits a Priest from the Oracle ({oracle.holder if oracle else None})"
            for q in state.consultations if q.status == "waiting"]


def _lines(n: int) -> str:
    return f"{n} change line{'s' * (n != 1)}"
