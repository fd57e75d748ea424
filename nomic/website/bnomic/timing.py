"""When the game's timed things happen next, as the Clock page and the consultations page say it:
the next midnight and what it brings, the midnight a window counted in rdays closes at, and how many
nday changes one counted in ndays still waits for (engine/bnomic/clock.py runs them; this only
reads the state)."""
from __future__ import annotations

from datetime import datetime, timedelta

from engine.bnomic import clock
from engine.bnomic.consultations import PONDER_AT, TALLY_AT
from engine.bnomic.state import BALLOTDAY, LAST_NDAY, NDAY_NAMES, Action, Blueprint, BNomicState, Consultation
from nomic.website.text import when


def next_midnight(state: BNomicState) -> datetime:
    return clock.midnight_at(state, state.midnights + 1)


def at_rday(state: BNomicState, rdays: int) -> str:
    """The midnight after which the Clock's ``rdays`` is ``rdays`` (no Emergency stopping game time
    on the way)."""
    return when(next_midnight(state) + timedelta(days=rdays - state.clock.rdays - 1))


def change(state: BNomicState) -> str:
    """What the next midnight does to the Clock (2-1)."""
    c = state.clock
    if not c.on:
        return f"the Clock is Off: ndelay {c.ndelay + 1}"
    if c.nday == LAST_NDAY:
        return (f"Voting ends and nweek {c.nweek} with it; nweek {c.nweek + 1} begins on nday 1 "
                f"({NDAY_NAMES[0]}), the Clock Off")
    name = NDAY_NAMES[c.nday]
    if c.nday + 1 == BALLOTDAY:
        return f"nday {c.nday + 1} ({name}): the Voting Period opens, Pending proposals become Open, the Clock stops"
    return f"nday {c.nday + 1} ({name})"


def action_closes(state: BNomicState, a: Action) -> str:
    """When a pending dependent action's window closes (actions.close_windows)."""
    if a.counter == "rdays":
        return f"at {at_rday(state, a.closes)}"
    left = a.closes - state.clock.nday_changes
    return f"after {left} more nday change{'s' * (left != 1)} (the Clock must be On)"


def claims_close(state: BNomicState, q: Consultation) -> tuple[str, str] | None:
    """An Answered consultation's claims tally and its Pondering: when each comes (2-5)."""
    if q.status != "answered" or q.answered_rdays is None:
        return None
    return at_rday(state, q.answered_rdays + TALLY_AT), at_rday(state, q.answered_rdays + PONDER_AT)


_STAGES = {"bidding": "bidding ends at the start of nday 11 (Zarpint)",
           "grace": "the highest bidder must afford his bid by the end of nday 11 (Zarpint)",
           "second": "the next bidder buys at the end of nday 12 (Thirnight) if he can"}


def auction(b: Blueprint) -> str | None:
    """Where a unique blueprint's auction stands (3-14), once it has a bid."""
    return _STAGES[b.stage] if b.unique and b.bids else None
