"""What Imperial Nomic waits for from each player (engine/pending.py): the Emperor's queue, each
pending submission to judge (rules 3, 11); It's Proposal, due within five game days of becoming It
(rule 22), or, on the day one is accepted, the Tag; each rule 14 swap offer the partner has not
agreed to. Game days end when the Emperor says (rule 10), so none of them has a time it closes."""
from __future__ import annotations

from datetime import datetime

from engine.context import EngineConfig
from engine.imperial.state import ImperialState
from engine.imperial.tag import TIMEOUT_DAYS
from engine.imperial.variables import rule_on
from engine.pending import Item

KINDS = {"proposal": "Proposal", "point_of_order": "Point of Order"}


def items(state: ImperialState, config: EngineConfig, at: datetime) -> list[Item]:
    if state.winner is not None:
        return []
    emperor = config.holder("emperor")
    found = [Item(emperor, f"a judgment of {KINDS[s.kind]} {s.number}: {s.title}",
                  (f"Accept {s.number}", f"Reject {s.number}", f"Ignore {s.number} because REASON"))
             for s in state.submissions if s.status == "pending"] if emperor else []
    it = state.player(state.it) if state.it else None
    if it is not None and it.it_since_day is not None and rule_on(state, 22):
        mine = state.proposals_of(it.email)
        if any(s.status == "accepted" and s.judged_day == state.game_day for s in mine) and state.it_next is None:
            found.append(Item(it.email, "a Tag, today, as It", ("Tag PLAYER",)))
        elif not any(s.day >= it.it_since_day for s in mine):
            last = it.it_since_day + TIMEOUT_DAYS - 1
            found.append(Item(it.email, f"a Proposal as It, by the end of game day {last}", ("Proposal: TITLE",)))
    found += [Item(s.partner, f"your consent to swap offer {s.number} from {s.proposer}", (f"Agree swap {s.number}",))
              for s in state.swaps if s.status == "offered"]
    return found


def changes(state: ImperialState, config: EngineConfig, player: str, since: datetime, at: datetime) -> list[str]:
    """Their score, and the judgments of their submissions, in the game day that just ended (the
    personal mail goes at its end; a day is the Emperor's, rule 10, not 24 hours)."""
    ended = state.game_day - 1
    moved = []
    for e in reversed(state.ledger):  # in day order: read back only through the day that ended
        if e.day < ended:
            break
        if e.player == player and e.day == ended:
            moved.append(e)
    moved.reverse()
    score = [f"Your score went from {moved[0].score - moved[0].delta} to {moved[-1].score} "
             f"({sum(e.delta for e in moved):+d})."] if moved else []
    judged = [f"Your {KINDS[s.kind]} {s.number} was {s.status}{f' ({s.reason})' if s.reason else ''}."
              for s in state.submissions if s.author == player and s.judged_day == ended]
    return [*score, *judged]
