"""The Society and Emergency page of a B Nomic game (template: rendering/templates/bnomic/site/
society.html): the Threat Flag and the Message of the nweek, the Tidiness Lists with their lines,
the PEPs and their Panic Buttons, the Emergency in force with its Procedure, and each past
Emergency's selected Refresh Proposal."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.bnomic.state import RefreshProposal
from nomic.website.bnomic.model import BNomicModel
from nomic.website.pages import Page


def society(m: BNomicModel) -> Iterator[Page]:
    st = m.state
    yield Page("society.html", "society.html", lambda: _context(m),
               key=(st.threat_flag, st.motnw, [a.model_dump_json() for a in st.actions if a.kind == "tidiness"],
                    st.peps, st.panic_buttons, st.emergency.model_dump_json(),
                    [r.model_dump_json() for r in st.refreshed], [(p.email, p.name) for p in st.players]))


def _context(m: BNomicModel) -> dict[str, Any]:
    st, e = m.state, m.state.emergency
    return {
        "threat_flag": st.threat_flag, "motnw": st.motnw,
        "tidiness": [{"number": a.number, "by": m.people.link(a.by, ""), "status": a.status,
                      "lines": [f'Rule {c.rule}: "{c.wrong}" -> "{c.right}"' for c in a.corrections]}
                     for a in reversed(st.actions) if a.kind == "tidiness"],
        "buttons": [{"who": m.people.link(a, ""), "state": s} for a, s in st.panic_buttons.items()],
        "emergency": {"active": e.active, "number": e.count,
                      "coordinator": m.people.link(e.coordinator, "") if e.coordinator else None,
                      "forum": e.forum, "pause": e.pause, "round": e.round, "ballot": e.ballot,
                      "votes": [{"who": m.people.link(a, ""), "number": n} for a, n in e.votes.items()],
                      "refresh_proposals": [_refresh(m, r) for r in e.refresh_proposals]},
        "refreshed": [_refresh(m, r) for r in reversed(st.refreshed)]}


def _refresh(m: BNomicModel, r: RefreshProposal) -> dict[str, Any]:
    return {"number": r.number, "title": m.text.inline(r.title), "by": m.people.link(r.by, ""),
            "body": m.text.markdown(r.body), "applied": r.applied}
