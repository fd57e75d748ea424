"""What Suber's game waits for from each player (engine/pending.py), in turn order: the Judge an
answer (212), the player on turn this turn's proposal (or, in debate, the call of its vote: 111),
every player who has not voted their vote (105), the other players their consent after a
Judgment (212). A vote closes where the game sets ``[suber] vote_days`` (voting.deadline)."""
from __future__ import annotations

from datetime import datetime

from engine.context import EngineConfig
from engine.pending import Item, score_change
from engine.suber import judgment, voting
from engine.suber.state import SuberState


def items(state: SuberState, config: EngineConfig, at: datetime) -> list[Item]:
    if state.winner is not None:
        return []
    owes: dict[str, list[Item]] = {p.email: [] for p in state.players}
    for j in state.judgments:
        if j.answer is None and j.judge in owes:
            owes[j.judge].append(Item(j.judge, f"an answer to Judgment {j.number}", (f"Judgment {j.number}: TEXT",)))
    current = state.current_proposal()
    if current is None and state.turn in owes:
        if judgment.waiting_for_consent(state) is not None:
            for p in state.players:
                if p.email != state.turn and p.email not in (state.consent or []):
                    owes[p.email].append(Item(p.email, f"consent to {state.turn}'s turn", ("Consent",),
                                              note="; a majority of the others"))
        owes[state.turn].append(Item(state.turn, "this turn's proposal", ("Proposal: NAME",)))
    elif current is not None:
        n = current.number
        if current.status == "debate":
            owes[current.author].append(Item(current.author, f"the call of the vote on proposal {n}",
                                             (f"Call vote {n}",)))
        closes = voting.deadline(state, config)
        for p in state.players:
            if p.email not in current.votes and current.status == "voting":
                owes[p.email].append(Item(p.email, f"a vote on proposal {n}", (f"Vote yes {n}", f"Vote no {n}"),
                                          closes=closes, vote=True))
    return [item for p in state.players for item in owes[p.email]]


def changes(state: SuberState, config: EngineConfig, player: str, since: datetime, at: datetime) -> list[str]:
    """Their score, and what became of their proposals, in (since, at]."""
    done = [f"Your proposal {p.number} was {p.status} ({p.points:+d} points)." for p in state.proposals
            if p.author == player and p.completed_at is not None and since < p.completed_at <= at
            and p.points is not None]
    return [*score_change(state, player, since, at), *done]
