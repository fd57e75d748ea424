"""The Ministries page (6-1 to 6-10, 2-3): every Ministry and MiniMinistry with its holder, the
obligations Passed proposals put on them, and the Victory Conditions (the MetaMin's displays)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nomic.website.bnomic.model import BNomicModel
from nomic.website.pages import Page


def ministries(m: BNomicModel) -> Iterator[Page]:
    st = m.state
    yield Page("ministries.html", "ministries.html", lambda: _ministries(m), key=(
        [x.model_dump_json() for x in st.ministries], st.last_metamin, [o.model_dump_json() for o in st.obligations],
        [v.model_dump_json() for v in st.victory_conditions], [(p.email, p.name) for p in st.players]))


def _ministries(m: BNomicModel) -> dict[str, Any]:
    st = m.state
    names = {x.key: x.name for x in st.ministries}
    return {
        "ministries": [{"name": x.name, "minister": x.minister or "MiniMin", "mini": x.mini,
                        "holder": m.people.link(x.holder, "") if x.holder else None,
                        "responsibilities": x.responsibilities} for x in st.ministries],
        "last_metamin": m.people.link(st.last_metamin, "") if st.last_metamin else None,
        "obligations": [{"number": o.number, "ministry": names.get(o.ministry, o.ministry), "text": o.text, "by": o.by,
                         "fulfilled": o.fulfilled} for o in st.obligations],
        "victory_conditions": [v.model_dump() for v in st.victory_conditions if not v.repealed]}
