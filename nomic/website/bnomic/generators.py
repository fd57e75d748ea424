"""The pages of a B Nomic game (templates: rendering/templates/bnomic/site/): the home page, the
proposals, the dependent actions and the feed here; the other pages in their own modules. Each
page's key is the part of the state it shows."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.bnomic import amounts
from engine.bnomic.state import NDAY_NAMES, Action, Proposal
from nomic.website import archive, shared
from nomic.website.bnomic.clock import clock
from nomic.website.bnomic.consultations import consultations
from nomic.website.bnomic.economy import economy
from nomic.website.bnomic.factions import factions
from nomic.website.bnomic.ministries import ministries
from nomic.website.bnomic.model import BNomicModel
from nomic.website.bnomic.players import players, proposal_href
from nomic.website.bnomic.rules import rules
from nomic.website.feeds import LATEST, base, feed, tag
from nomic.website.moves import links
from nomic.website.pages import Family, Page
from nomic.website.text import iso, when


def _row(m: BNomicModel, p: Proposal, root: str) -> dict[str, Any]:
    powers = m.state.vote_powers()
    return {"key": p.key, "number": p.number, "title": m.text.inline(p.title), "author": m.people.link(p.author, root),
            "status": p.status, "success": p.success, "passed": p.passed, "href": proposal_href(p, root),
            "stamina": p.stamina or amounts.text(amounts.tally(p.votes, powers).stamina),
            "strength": p.strength or amounts.text(amounts.tally(p.votes, powers).strength), "nweek": p.nweek,
            "live": p.stamina is None}


def _proposal(m: BNomicModel, p: Proposal, root: str) -> dict[str, Any]:
    return {**_row(m, p, root), "body": m.text.markdown(p.body), "received": when(p.received_at),
            "conflicts": p.conflicts, "dependencies": p.dependencies, "changes": [c.line for c in p.changes],
            "preview": p.preview,
            "votes": [{"voter": m.people.link(v, root), "vote": w} for v, w in p.votes.items()],
            "vote_links": links(m.data.game["address"], f"Vote on proposal {p.number}",
                                tuple(f"{w} {p.number}" for w in ("FOR", "AGAINST", "ABSTAIN")))
            if p.status == "open" and p.number is not None else []}


def _clock(m: BNomicModel) -> dict[str, Any]:
    c = m.state.clock
    return {"nweek": c.nweek, "nday": c.nday, "name": NDAY_NAMES[c.nday - 1], "on": c.on, "ndelay": c.ndelay,
            "voting": c.voting}


def home(m: BNomicModel) -> Iterator[Page]:
    st = m.state
    yield Page("index.html", "home.html", lambda: {
        "clock": _clock(m), "threat_flag": st.threat_flag, "motnw": st.motnw,
        "active": st.active_players(), "quorum": amounts.text(amounts.half(st.active_players())),
        "ministries": [{"name": x.name, "minister": x.minister, "holder": m.people.link(x.holder, "") if x.holder
                        else None} for x in st.ministries],
        "ballot": [_row(m, p, "") for p in st.proposals if p.status == "open"],
        "pending": [_row(m, p, "") for p in st.proposals if p.status == "pending"]},
        key=(st.clock.model_dump_json(), st.threat_flag, st.motnw, [x.model_dump_json() for x in st.ministries],
             [p.model_dump_json() for p in st.proposals if p.status != "historical"],
             [(p.email, p.name, p.vote_power, p.active) for p in st.players]))


def proposals(m: BNomicModel) -> Iterator[Page | Family]:
    st = m.state
    powers = [(p.email, p.name, p.vote_power) for p in st.players]
    keys = [p.model_dump_json() for p in st.proposals]
    nweeks = sorted({p.nweek for p in st.proposals if p.nweek is not None}, reverse=True)
    yield Page("proposals/index.html", "proposals.html", lambda: {
        "current": [_row(m, p, "../") for p in st.proposals if p.status != "historical"],
        "results": [{"nweek": w, "proposals": [_row(m, p, "../") for p in st.proposals if p.nweek == w]}
                    for w in nweeks]}, key=(keys, powers))
    yield Family("proposal", "proposal.html", [proposal_href(p, "") for p in st.proposals],
                 [(k, powers) for k in keys], lambda i: _proposal(m, st.proposals[i], "../"))


def actions(m: BNomicModel) -> Iterator[Page]:
    st = m.state
    yield Page("actions.html", "actions.html", lambda: {"actions": [
        {"number": a.number, "kind": a.kind, "by": m.people.link(a.by, ""), "target": _target(m, a), "reason": a.reason,
         "status": a.status, "supporters": [m.people.link(x, "") for x in a.supporters],
         "objectors": [m.people.link(x, "") for x in a.objectors],
         "moves": links(m.data.game["address"], f"A{a.number}", (f"Support A{a.number}", f"Object to A{a.number}"))
         if a.status == "pending" else []} for a in reversed(st.actions)]},
        key=([a.model_dump_json() for a in st.actions], [(p.email, p.name) for p in st.players]))


def _target(m: BNomicModel, a: Action) -> str:
    """What an action acts on as a reader knows it: a Player by his name (never his address), a
    Ministry by its name."""
    if a.kind == "expel":
        return m.people.link(a.target, "")
    ministry = m.state.ministry(a.target) if a.kind == "usurp" else None
    return ministry.name if ministry is not None else a.target


def feeds(m: BNomicModel) -> Iterator[Page]:
    b = base(m)
    entries = [{"id": tag(m, f"proposal/k{p.key}"), "href": proposal_href(p, b),
                "title": f"{p.number or '-'}. {p.title} ({p.status})",
                "updated": iso(p.received_at or m.state.started),
                "author": m.people.name(p.author), "content": str(m.text.markdown(p.body))}
               for p in list(reversed(m.state.proposals))[:LATEST]]
    yield feed(m, "proposals", "proposals", "proposals/index.html", entries)


GENERATORS = (home, clock, ministries, proposals, players, rules, actions, consultations, economy, factions,
              shared.dice, shared.how_to_play, archive.archive, feeds)
