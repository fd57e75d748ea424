"""Who may be a Consultation's Priest (2-5), and the Oracle when nobody may: "If no Player is
eligible, the Oracle is automatically selected", at once whenever a Priest is to be selected and
there is an Oracle; while the Ministry of Questions is Vacant the Consultation waits, and the rule
applies the moment it is held again (the design's Reading 48). Kept apart from consultations.py
so that the Ministries, which know when the Oracle is taken, can call it."""
from __future__ import annotations

from engine.bnomic.events import ConsultationChanged
from engine.bnomic.state import BNomicState, Consultation
from engine.context import Context
from engine.events import Cause


def changed(q: Consultation, why: str, ctx: Context) -> None:
    with ctx.because(Cause("consultation", q.number)):
        ctx.emit(ConsultationChanged(number=q.number, status=q.status, priest=q.priest, why=why))


def eligible(state: BNomicState, q: Consultation) -> list[str]:
    """Active Players but the Supplicant, the Unbeliever, the Oracle and the Priests selected before."""
    oracle = state.ministry("questions")
    barred = {q.supplicant, q.unbeliever, oracle.holder if oracle else None, q.priest, *q.former_priests}
    return [p.email for p in state.players if p.active and p.email not in barred]


def oracle_if_none(state: BNomicState, q: Consultation, ctx: Context) -> None:
    """The Oracle is Priest of ``q`` if there is an Oracle and no Player is eligible."""
    oracle = state.ministry("questions")
    if oracle is not None and oracle.holder is not None and not eligible(state, q):
        q.priest = oracle.holder
        changed(q, "no Player is eligible: the Oracle is Priest (2-5)", ctx)


def oracle_taken(state: BNomicState, ctx: Context) -> None:
    """The Ministry of Questions has a new holder: each Waiting Consultation without a Priest that
    no Player is eligible for has him at once."""
    for q in state.consultations:
        if q.status == "waiting" and q.priest is None:
            oracle_if_none(state, q, ctx)
