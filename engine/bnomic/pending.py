"""What B Nomic waits for from each Player (engine/pending.py): in the Voting Period, the Ballot:
each Player's Vote on every Open proposal he has not voted on, closing at the end of nday 12
while the Clock is On (2-2; Off, nobody can say when); the Chairman's Ballot while the Clock is Off
in the Voting Period (2-1: his Ballot lets him start it); a Waiting Consultation's Answer from its Priest, or its Priest from the Oracle (2-5)."""
from __future__ import annotations

from datetime import datetime

from engine.bnomic.clock import midnight_at
from engine.bnomic.state import LAST_NDAY, BNomicState
from engine.context import EngineConfig
from engine.pending import Item, score_change


def items(state: BNomicState, config: EngineConfig, at: datetime) -> list[Item]:
    c, found = state.clock, []
    if c.voting:
        closes = midnight_at(state, state.midnights + 1 + LAST_NDAY - c.nday) if c.on else None
        chairman = state.ministry("change")
        if chairman is not None and chairman.holder and not c.on and not state.ballot_published:
            found.append(Item(chairman.holder, "the Ballot of this Voting Period", ("Publish ballot",)))
        for proposal in (p for p in state.proposals if p.status == "open"):
            n = proposal.number
            found += [Item(p.email, f"a Vote on proposal {n} \"{proposal.title}\"",
                           (f"FOR {n}", f"AGAINST {n}", f"ABSTAIN {n}"), closes=closes, vote=True)
                      for p in state.players if p.email not in proposal.votes]
    oracle = state.ministry("questions")
    for q in (q for q in state.consultations if q.status == "waiting"):
        if q.priest:
            found.append(Item(q.priest, f"the Answer to Consultation {q.number}",
                              (f"Answer {q.number}: YES", f"Answer {q.number}: NO")))
        elif oracle is not None and oracle.holder:
            found.append(Item(oracle.holder, f"a Priest for Consultation {q.number}", (f"Priest {q.number}: PLAYER",)))
    return found


def first_close(state: BNomicState, config: EngineConfig, after: datetime) -> datetime | None:
    """When the Ballot's Votes close, if after ``after`` and some Player still owes one: without
    listing every (Player, proposal) item (1,000 Players and 200 Open proposals make 200,000)."""
    c = state.clock
    if not (c.voting and c.on):
        return None
    closes = midnight_at(state, state.midnights + 1 + LAST_NDAY - c.nday)
    emails = {p.email for p in state.players}
    owed = any(len(p.votes) < len(emails) or not emails <= p.votes.keys()  # fewer Votes than Players: owed
               for p in state.proposals if p.status == "open")
    return closes if owed and closes > after else None


def changes(state: BNomicState, config: EngineConfig, player: str, since: datetime, at: datetime) -> list[str]:
    """His points in (since, at] (the ledger; a proposal's fate shows in them and in the daily mail)."""
    return score_change(state, player, since, at)
