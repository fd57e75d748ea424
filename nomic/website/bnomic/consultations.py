"""The consultations page (2-5): each Question with its Supplicant and Unbeliever, the Priest and
the former ones, the Answer with its Reasoning and Oracularity, the claims and when they are
tallied, and whether the Oracularity was followed."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.bnomic.state import Consultation
from nomic.website.bnomic import timing
from nomic.website.bnomic.model import BNomicModel
from nomic.website.pages import Page


def consultations(m: BNomicModel) -> Iterator[Page]:
    st = m.state
    yield Page("consultations.html", "consultations.html",
               lambda: {"consultations": [_consultation(m, q) for q in reversed(st.consultations)]},
               key=([q.model_dump_json() for q in st.consultations], st.clock.rdays, st.midnights,
                    [(p.email, p.name) for p in st.players]))


def _consultation(m: BNomicModel, q: Consultation) -> dict[str, Any]:
    link = m.people.link
    due = timing.claims_close(m.state, q)
    return {"number": q.number, "question": m.text.inline(q.question), "reasoning": m.text.markdown(q.reasoning),
            "supplicant": link(q.supplicant, ""), "unbeliever": link(q.unbeliever, "") if q.unbeliever else None,
            "status": q.status.capitalize(), "priest": link(q.priest, "") if q.priest else None,
            "former_priests": [link(x, "") for x in q.former_priests if x], "answer": q.answer,
            "answer_reasoning": m.text.markdown(q.answer_reasoning), "oracularity": [c.line for c in q.oracularity],
            "claims": [{"who": link(who, ""), "claim": claim.capitalize()} for who, claim in q.claims.items()],
            "tally": due[0] if due else None, "ponder": due[1] if due else None,
            "followed": q.oracularity_followed, "zot_requested": q.zot_requested}
