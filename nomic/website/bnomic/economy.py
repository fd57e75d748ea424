"""The economy page (3-10 to 3-14): every Player's mackerel, the blueprints with their Price and
auctions with every bid, and the devices with their owners."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.bnomic import amounts
from engine.bnomic.state import Blueprint
from nomic.website.bnomic import timing
from nomic.website.bnomic.model import BNomicModel
from nomic.website.pages import Page


def economy(m: BNomicModel) -> Iterator[Page]:
    st = m.state
    yield Page("economy.html", "economy.html", lambda: {
        "balances": [{"link": m.people.link(p.email, ""), "mackerel": amounts.mackerel_text(p.mackerel)}
                     for p in st.players],
        "blueprints": [_blueprint(m, b) for b in st.blueprints],
        "devices": [{"number": d.number, "blueprint": d.blueprint, "owner": m.people.link(d.owner, ""),
                     "attributes": [f"{k}: {v}" for k, v in d.attributes.items()], "properties": d.properties}
                    for d in st.devices]},
        key=([(p.email, p.name, p.mackerel) for p in st.players], [b.model_dump_json() for b in st.blueprints],
             [d.model_dump_json() for d in st.devices]))


def _blueprint(m: BNomicModel, b: Blueprint) -> dict[str, Any]:
    return {"name": b.name, "unique": b.unique, "price": amounts.mackerel_text(b.price_now()),
            "attributes": [f"{k}: {v}" for k, v in b.attributes.items()], "properties": b.properties,
            "stage": timing.auction(b),
            "bids": [{"bidder": m.people.link(x.bidder, ""), "amount": amounts.mackerel_text(x.amount)} for x in b.bids]}
