"""Reminders ask at every wake-up when the next vote closes (engine/reminders.py). BlogNomic answers
from its matters in time order (``pending.first_close``: a bisection, then the first matter still
owed a vote) instead of listing every (voter, matter) item: with 2,000 pending CfJs that took 76 ms
a wake-up (bench/hostile.py). Random games check it against the listing it replaces."""
from __future__ import annotations

from datetime import timedelta

from hypothesis import HealthCheck, given, settings, strategies as st

from engine.blognomic import pending
from tests.blognomic.support import ADMIN, at, new_game

PEOPLE = ["alice@blog.test", "bob@blog.test", "carol@blog.test", ADMIN]
MOVES = st.lists(st.tuples(st.sampled_from(["Proposal", "CfJ", "vote", "against", "everyone", "idle-tick"]),
                           st.sampled_from(PEOPLE), st.integers(1, 3), st.integers(0, 30)), max_size=40)


def listed(state, config, after):
    """The reading reminders used before: every item, then the earliest close after ``after``."""
    return min((i.closes for i in pending.items(state, config, after) if i.closes and i.closes > after),
               default=None)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MOVES, st.integers(0, 120))
def test_first_close_is_the_earliest_close_of_the_listed_items(moves, probe_hours):
    game = new_game(tuple(PEOPLE[:3]), auto=False, admission="auto")
    hours = 1.0
    for kind, who, number, step in moves:
        hours += step / 10
        if kind == "Proposal":
            game.mail(who, f"Proposal: P{hours}", "A change.", hours=hours)
        elif kind == "CfJ":
            game.mail(who, f"CfJ: C{hours}", "A question.", hours=hours)
        elif kind == "everyone":  # a matter no one owes a vote any more: its close is no reminder's
            for voter in PEOPLE:
                game.mail(voter, "Votes", f"FOR {number}", hours=hours)
        elif kind in ("vote", "against"):
            game.mail(who, "Votes", f"{'FOR' if kind == 'vote' else 'AGAINST'} {number}", hours=hours)
        else:
            game.tick(at(hours))
    for after in (at(hours), at(hours) - timedelta(hours=probe_hours), at(probe_hours)):
        assert pending.first_close(game.state, game.config, after) == listed(game.state, game.config, after)
