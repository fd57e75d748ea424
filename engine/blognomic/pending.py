"""What BlogNomic's game waits for from each player (engine/pending.py): each non-idle Pactmaker's
vote on every pending matter they have not voted on (the author's implicit FOR counts as theirs),
closing 48 hours after it opened (after that its count may resolve it); and, for each Admin, the
applications waiting for them and, without ``auto_resolve``, every matter the rules allow them to
resolve now (conditions.verdict). An Idle Pactmaker is waited for by nobody."""
from __future__ import annotations

from datetime import datetime

from engine.blognomic.conditions import H, label, verdict
from engine.blognomic.state import KIND_NAMES, BlogState
from engine.context import EngineConfig
from engine.pending import Item

CLOSES = 48 * H  # the rule's longest window: a matter's count may resolve it from then


def items(state: BlogState, config: EngineConfig, at: datetime) -> list[Item]:
    found: list[Item] = []
    matters, voters = state.pending(), [p.email for p in state.active()]
    for m in matters:
        voted = {b.voter for b in m.ballots} | {m.author}
        closes = m.opened_at + CLOSES
        what, lines = f"a vote on {label(m)} \"{m.title}\"", (f"FOR {m.number}", f"AGAINST {m.number}")
        found += [Item(v, what, lines, closes if closes > at else None, True) for v in voters if v not in voted]
    admins = [a for a in config.offices.get("admins", ()) if a in voters]
    for admin in admins:
        for a in state.applicants.values():
            found.append(Item(admin, f"the application of {a.name or a.email}", (f"Admit {a.email}",
                                                                                f"Refuse {a.email}")))
        if not config.options["auto_resolve"]:
            for m in matters:
                v = verdict(state, m, at)
                ways = (*((f"Enact {m.number}",) if v.enact is None else ()),
                        *((f"Fail {m.number}",) if v.fail is None else ()))
                if ways:
                    found.append(Item(admin, f"the resolution of {label(m)} \"{m.title}\"", ways))
    return found


def first_close(state: BlogState, config: EngineConfig, after: datetime) -> datetime | None:
    """The earliest close after ``after`` among the votes ``items`` lists, without listing them: per
    kind, the first pending matter closing after ``after`` that a non-idle Pactmaker has still to
    vote on (engine/reminders.py asks this at every wake-up, so it must not read every pending matter)."""
    voters = [p.email for p in state.active()]
    found = []
    for kind in KIND_NAMES:
        for m in state.opened_after(kind, after - CLOSES):
            voted = {b.voter for b in m.ballots} | {m.author}
            if any(v not in voted for v in voters):
                found.append(m.opened_at + CLOSES)
                break
    return min(found, default=None)


def changes(state: BlogState, config: EngineConfig, player: str, since: datetime, at: datetime) -> list[str]:
    """Their Idle status, and what became of their matters, in (since, at]."""
    p = state.player(player)
    idle = [] if p is None or p.idled_at is None or not since < p.idled_at <= at or not p.idle else ["You went Idle."]
    done = [f"Your {label(m)} \"{m.title}\" was {m.status}: {m.tally_line}." for m in state.matters
            if m.author == player and m.resolved_at is not None and since < m.resolved_at <= at]
    return [*idle, *done]
