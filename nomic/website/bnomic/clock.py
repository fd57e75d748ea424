"""The Clock page (2-1, 3-8): nweek, nday and its name, On or Off, ndelay, the counters every
window is counted in, and what comes next: the next midnight, the dependent actions whose windows
are open, the consultations' claims, the auctions and the actions announced for later (1-10)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.bnomic.state import NDAY_NAMES
from nomic.website.bnomic import timing
from nomic.website.bnomic.model import BNomicModel
from nomic.website.pages import Page
from nomic.website.text import when

def clock(m: BNomicModel) -> Iterator[Page]:
    st = m.state
    yield Page("clock.html", "clock.html", lambda: _clock(m), key=(
        st.clock.model_dump_json(), st.midnights, [a.model_dump_json() for a in st.actions if a.status == "pending"],
        [(q.number, q.status, q.answered_rdays) for q in st.consultations],
        [(b.name, b.unique, b.stage, len(b.bids)) for b in st.blueprints],
        [s.model_dump_json() for s in st.scheduled], [(p.email, p.name) for p in st.players]))


def _clock(m: BNomicModel) -> dict[str, Any]:
    st, c = m.state, m.state.clock
    return {
        "nweek": c.nweek, "nday": c.nday, "name": NDAY_NAMES[c.nday - 1], "on": c.on, "ndelay": c.ndelay,
        "voting": c.voting, "nday_changes": c.nday_changes, "ndelay_changes": c.ndelay_changes, "rdays": c.rdays,
        "ndays": [{"n": i, "name": name, "now": i == c.nday} for i, name in enumerate(NDAY_NAMES, start=1)],
        "next": when(timing.next_midnight(st)), "change": timing.change(st),
        "actions": [{"number": a.number, "kind": a.kind, "by": m.people.link(a.by, ""),
                     "closes": timing.action_closes(st, a)} for a in st.actions if a.status == "pending"],
        "consultations": [{"number": q.number, "tally": due[0], "ponder": due[1]} for q in st.consultations
                          if (due := timing.claims_close(st, q)) is not None],
        "auctions": [{"name": b.name, "stage": stage} for b in st.blueprints if (stage := timing.auction(b))],
        "scheduled": [{"number": s.number, "by": m.people.link(s.by, ""), "line": s.line} for s in st.scheduled]}
