"""Proposal Numbers (2-2, Reading 14): the highest ever used + 1, given at submission while the
Ministry of Change is held (``[bnomic] number_proposals = "auto"``), else, in order of
submission, the moment it is taken or the Chairman sends ``Number proposals``."""
from __future__ import annotations

from engine.bnomic.events import Numbered
from engine.bnomic.state import BNomicState
from engine.context import Context
from engine.events import Cause


def automatic(ctx: Context) -> bool:
    return bool(ctx.config.options["number_proposals"] == "auto")


def number_all(state: BNomicState, ctx: Context) -> list[int]:
    """Give every proposal without a number the next one, in order of submission; the numbers given."""
    given = []
    for p in state.proposals:
        if p.number is None:
            state.highest_number += 1
            p.number = state.highest_number
            ctx.emit(Numbered(key=p.key, number=p.number), Cause("proposal", p.key))
            given.append(p.number)
    return given
