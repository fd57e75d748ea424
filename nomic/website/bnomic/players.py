"""The Players' pages: everyone's Attributes at a glance, and a page per Player with his
Ministries, Factions, devices, proposals, Votes and every change of his points."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import compress, repeat
from typing import Any

from engine.bnomic import amounts
from engine.bnomic.state import BNomicState, BPlayer, Proposal
from nomic.website.absence import away
from nomic.website.bnomic.model import BNomicModel
from nomic.website.pages import Family, Page


def proposal_href(p: Proposal, root: str) -> str:
    return f"{root}proposals/k{p.key}.html"


def _attributes(p: BPlayer) -> dict[str, Any]:
    return {"points": p.score, "level": p.level, "mackerel": amounts.mackerel_text(p.mackerel),
            "vote_power": p.vote_power, "active": p.active, "hit_points": p.hit_points, "dead": p.hit_points == 0,
            "pending_name": p.pending_name, "win_count": p.win_count, "properties": p.properties}


def players(m: BNomicModel) -> Iterator[Page | Family]:
    st = m.state
    yield Page("players/index.html", "players.html", lambda: {"players": [
        {"link": m.people.link(p.email, "../"), **_attributes(p), "away": away(st, p.email)} for p in st.players]},
        key=[(p.model_dump_json(), away(st, p.email)) for p in st.players])
    ledger = m.ledger_by_player
    shown = _shown(st)
    yield Family("player", "player.html", [f"players/{m.people.slugs[p.email]}.html" for p in st.players],
                 [(p.model_dump_json(), shown(p.email), len(ledger.get(p.email, ())), away(st, p.email))
                  for p in st.players],
                 lambda i: _player(m, st.players[i]))


def _shown(st: BNomicState) -> Callable[[str], list[object]]:
    """What a Player's page shows besides his Attributes (the key of his page), by address: his
    Final Vote on each proposal (None: no vote) and the proposals he wrote or voted on, read in C
    (1,000 Players voting on 200 proposals)."""
    summaries = [(p.key, p.number, p.title, p.status, p.success, p.passed) for p in st.proposals]
    votes = [p.votes for p in st.proposals]
    authors = [p.author for p in st.proposals]

    def key(email: str) -> list[object]:
        words = list(map(dict.get, votes, repeat(email)))
        return [[m.name for m in st.ministries if m.holder == email],
                [f.model_dump_json() for f in st.factions if email in f.parties],
                [d.model_dump_json() for d in st.devices if d.owner == email],
                words, list(compress(summaries, words)), list(compress(summaries, map(email.__eq__, authors)))]
    return key


def _proposal(m: BNomicModel, p: Proposal, vote: str | None = None) -> dict[str, Any]:
    result = "passed" if p.passed else p.success if p.status == "historical" else p.status
    return {"number": p.number, "title": m.text.inline(p.title), "href": proposal_href(p, "../"), "result": result,
            "vote": vote}


def _player(m: BNomicModel, p: BPlayer) -> dict[str, Any]:
    st = m.state
    return {
        "name": p.name, **_attributes(p), "away": away(st, p.email), "trophies": p.trophies,
        "ministries": [{"name": x.name, "minister": x.minister} for x in st.ministries if x.holder == p.email],
        "factions": [{"name": f.name, "agent": f.agent == p.email, "vote_power": f.vote_power}
                     for f in st.factions if p.email in f.parties],
        "devices": [{"number": d.number, "blueprint": d.blueprint} for d in st.devices if d.owner == p.email],
        "proposals": [_proposal(m, x) for x in st.proposals if x.author == p.email],
        "votes": [_proposal(m, x, x.votes[p.email]) for x in st.proposals if p.email in x.votes],
        "ledger": [m.ledger_row(e, "../") for e in m.ledger_by_player.get(p.email, [])]}
