"""The factions page (5-1 to 5-3): each Faction with its agent, parties, Agreement and Vote Power."""
from __future__ import annotations

from collections.abc import Iterator

from nomic.website.bnomic.model import BNomicModel
from nomic.website.pages import Page


def factions(m: BNomicModel) -> Iterator[Page]:
    st = m.state
    yield Page("factions.html", "factions.html", lambda: {"factions": [
        {"name": f.name, "agent": m.people.link(f.agent, ""), "parties": [m.people.link(x, "") for x in f.parties],
         "agreement": f.agreement, "vote_power": f.vote_power} for f in st.factions]},
        key=([f.model_dump_json() for f in st.factions], [(p.email, p.name) for p in st.players]))
