"""Consultations (2-5): submitted and numbered, a Priest selected by the Oracle (the Oracle himself
when no Player is eligible), answered YES or NO with Reasoning and an Oracularity, claimed
Consistent or Inconsistent, tallied at the 4th midnight after the Answer and Pondered at the 5th,
when its Oracularity applies all or nothing (Readings 30-32)."""
from __future__ import annotations

import re
from typing import Literal

from engine.bnomic.citing import cited
from engine.bnomic import changes, players
from engine.bnomic.priests import changed, eligible, oracle_if_none
from engine.bnomic.commands import AnswerCmd, ClaimCmd, ConsultationCmd, PriestCmd, RenumberConsultationCmd, ZotCmd
from engine.bnomic.state import BNomicState, ChangeLine, Consultation
from engine.context import Context
from engine.events import Cause
from engine.inputs import Message
from engine.refusal import Refusal

TALLY_AT = 4  # midnights after the Answer: the end of the third full nday or ndelay
PONDER_AT = 5  # the end of the fourth
_ORACULARITY = re.compile(r"^\s*oracularity\s*:\s*$", re.I | re.M)


def submit(state: BNomicState, msg: Message, cmd: ConsultationCmd, ctx: Context) -> None:
    question = " ".join(cmd.question.split())
    unbeliever = players.find(state, cmd.unbeliever) if cmd.unbeliever else None
    if not question:
        ctx.refuse(cmd.line, Refusal("a Consultation asks a Question", "2-5"))
        return
    if cmd.unbeliever and unbeliever is None:
        ctx.refuse(cmd.line, Refusal(f"there is no Player {cmd.unbeliever}", ruleless="no such"))
        return
    q = Consultation(number=max((c.number for c in state.consultations), default=0) + 1, supplicant=msg.sender,
                     question=question, reasoning=cmd.reasoning.strip(),
                     unbeliever=unbeliever.email if unbeliever else None)
    state.consultations.append(q)
    changed(q, "submitted", ctx)
    oracle_if_none(state, q, ctx)
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
        changed(q, "selected by the Oracle", ctx)
        ctx.say(cmd.line, f"{p.name} is the Priest of Consultation {q.number}")
        return
    ctx.refuse(cmd.line, cited(why, "2-5"))


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
        changed(q, f"renumbered from {old} by the Oracle", ctx)
        ctx.say(cmd.line, f"Consultation {old} is now Consultation {q.number} (2-5)")
        return
    ctx.refuse(cmd.line, cited(why, "2-5"))


def zot(state: BNomicState, msg: Message, cmd: ZotCmd, ctx: Context) -> None:
    """``ZOT N``: the Oracle, on a Waiting Consultation with no Priest yet or whose Priest asked; ``Request
    ZOT N``: its Priest, while it is Waiting."""
    q = _find(state, cmd.number)
    if q is None or q.status != "waiting":
        ctx.refuse(cmd.line, Refusal(f"there is no Waiting Consultation {cmd.number}", ruleless="no such"))
    elif cmd.request and q.priest != msg.sender:
        ctx.refuse(cmd.line, Refusal(f"only the Priest of Consultation {q.number} asks for it to be ZOTTED", "2-5"))
    elif cmd.request:
        q.zot_requested = True
        ctx.say(cmd.line, f"the Oracle is asked to ZOT Consultation {q.number} or to reassign it (2-5)")
    elif not state.holds(msg.sender, "questions"):
        ctx.refuse(cmd.line, Refusal("only the Oracle wields the staff of ZOT", "2-5"))
    elif q.priest is not None and not q.zot_requested:
        ctx.refuse(cmd.line, Refusal(f"Consultation {q.number} has a Priest who did not ask for it to be ZOTTED",
                                     "2-5"))
    else:
        q.status = "zotted"
        changed(q, "ZOTTED by the Oracle", ctx)
        ctx.say(cmd.line, f"Consultation {q.number} is ZOTTED: it has no further effect (2-5)")


def reassign(state: BNomicState, ctx: Context) -> None:
    """At the start of each nweek, and every 10 ndelays: each Waiting Consultation's Priest is replaced;
    the Oracle selects the next (himself when none is eligible)."""
    for q in state.consultations:
        if q.status == "waiting" and q.priest is not None:
            q.former_priests.append(q.priest)
            q.priest, q.zot_requested = None, False
            changed(q, "reassigned: the Oracle selects a new Priest (2-5)", ctx)
            oracle_if_none(state, q, ctx)


def answer(state: BNomicState, msg: Message, cmd: AnswerCmd, ctx: Context) -> None:
    q = _find(state, cmd.number)
    if q is None or q.priest != msg.sender or q.status not in ("waiting", "answered"):
        ctx.refuse(cmd.line, Refusal(f"only the Priest of a Waiting or Answered Consultation {cmd.number} answers it",
                                     "2-5"))
        return
    parts = _ORACULARITY.split(cmd.text, maxsplit=1)
    reasoning, oracularity = parts[0], parts[1] if len(parts) > 1 else ""
    q.status, q.answer, q.answer_reasoning = "answered", "YES" if cmd.yes else "NO", reasoning.strip()
    q.oracularity, q.claims, q.answered_rdays = changes.parse(oracularity), {}, state.clock.rdays
    q.oracularity_unread = _unread(oracularity, q.oracularity)
    q.answers += 1
    changed(q, f"answered {q.answer}", ctx)
    warning = "".join(f"; {line!r} is no change line, so the Oracularity will not be followed (1-16)"
                      for line in q.oracularity_unread[:1])
    ctx.say(cmd.line, f"Consultation {q.number} is Answered {q.answer}" +
            (f" with an Oracularity of {_lines(len(q.oracularity))}" if q.oracularity else "") +
            warning + "; claims are open for three ndays or ndelays (2-5)")


def _unread(text: str, read: list[ChangeLine]) -> list[str]:
    """The lines of an Oracularity that are neither a change line nor its run-on TEXT: prose, which a
    Transaction cannot determine "with finality and certainty" (1-16, the design's Reading 51)."""
    taken = {ln.strip() for c in read for ln in [c.line, *c.text.split("\n")]}
    return [ln.strip() for ln in text.split("\n") if ln.strip() and ln.strip() not in taken
            and not changes.LISTS.match(ln)]


def claim(state: BNomicState, msg: Message, cmd: ClaimCmd, ctx: Context) -> None:
    q = _find(state, cmd.number)
    word: Literal["consistent", "inconsistent"] = "consistent" if cmd.consistent else "inconsistent"
    if q is None or q.status != "answered":
        ctx.refuse(cmd.line, Refusal(f"Consultation {cmd.number} is not Answered: no claim", "2-5"))
    elif msg.sender in (q.supplicant, q.unbeliever):
        ctx.refuse(cmd.line, Refusal("the Supplicant and the Unbeliever make no claim", "2-5"))
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
    q.oracularity_unread = []
    q.claims, q.answered_rdays, q.answers = {}, None, 0
    changed(q, f"claimed Inconsistent {inconsistent} to {consistent}: Waiting for a new Priest", ctx)
    oracle_if_none(state, q, ctx)


def _ponder(state: BNomicState, q: Consultation, ctx: Context) -> None:
    """Pondered; the Oracularity applies all or nothing (a Transaction, Reading 32) if it is the Priest's first Answer."""
    q.status = "pondered"
    why = "Pondered"
    if q.oracularity_unread and q.answers == 1:
        why = f"Pondered; its Oracularity is not followed: {q.oracularity_unread[0]!r} is no change line (1-16)"
    elif q.oracularity and q.answers == 1:
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
    changed(q, why, ctx)


def owed(state: BNomicState) -> list[str]:
    """The daily reminders: who owes each Waiting Consultation an Answer, a Priest, or (its Priest
    having asked) a ZOT or a new Priest."""
    questions = state.ministry("questions")
    oracle = f"the Oracle ({questions.holder if questions else None})"
    return [f"Consultation {q.number} awaits a ZOT or a new Priest from {oracle}: its Priest asked" if q.zot_requested
            else f"Consultation {q.number} awaits an Answer from {q.priest}" if q.priest else
            f"Consultation {q.number} awaits a Priest from {oracle}"
            for q in state.consultations if q.status == "waiting"]


def _lines(n: int) -> str:
    return f"{n} change line{'s' * (n != 1)}"
