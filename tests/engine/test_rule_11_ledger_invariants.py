"""Rules 3, 11, 12: whatever players and the Emperor do, the ledger explains every score,
the temperature stays a non-negative integer, and a refold gives the same state.

A property test over the pure engine (the CLI tests pin the exact numbers; this one
explores orders of events no one would write by hand).
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from importlib import resources

from hypothesis import given, settings, strategies as st

import engine
from engine.context import EngineConfig
from engine.inputs import Message

from tests.engine.imperial_play import ALICE, BOB, CAROL
from tests.support import GRAMMAR

EMPEROR = "tie@imperial.test"
START = datetime(2026, 1, 5, tzinfo=timezone.utc)
CONFIG = EngineConfig(start=START, seed="prop-seed", address="ths@imperial.test",
                      list_address="players@imperial.test", offices={"emperor": (EMPEROR,), "scribe": ("ths@imperial.test",)})
RULES = resources.files("storage").joinpath("rulesets/imperial-nomic.txt").read_text()

players = st.sampled_from([ALICE, BOB, CAROL])
actions = st.one_of(
    st.tuples(st.just("propose"), players, st.sampled_from(["Cake", "", "Pie"])),
    st.tuples(st.just("judge"), st.sampled_from(["Accept", "Reject", "Ignore"]), st.integers(1, 12)),
    st.tuples(st.just("claim"), players, st.integers(-5, 20)),
    st.tuples(st.just("wait"), st.integers(1, 30)),
)


def messages(script: list[tuple]) -> list[Message]:
    out, t = [], START
    for i, action in enumerate(script):
        t += timedelta(minutes=10)
        if action[0] == "propose":
            sender, subject, body = action[1], f"Proposal: {action[2]}", "text"
        elif action[0] == "judge":
            sender, subject, body = EMPEROR, "judgment", f"{action[1]} {action[2]} because rule 3"
        elif action[0] == "claim":
            sender, subject, body = action[1], "Point of Order: score", f"Score of {ALICE} should be {action[2]}"
        else:
            t += timedelta(hours=action[1])
            sender, subject, body = EMPEROR, "day", "New day"
        reading = GRAMMAR.read(subject, body)
        out.append(Message(at=t, message_id=f"{i}@prop", sender=sender, authenticated=True,
                           subject=subject, commands=reading.commands,
                           not_understood=reading.not_understood))
    return out


def fold(msgs: list[Message]) -> engine.GameState:
    state = engine.new_game(CONFIG, RULES)
    for m in msgs:
        engine.apply(state, m, CONFIG)
    return state


@settings(max_examples=100, deadline=None)
@given(st.lists(actions, max_size=40))
def test_the_ledger_explains_every_score_and_a_refold_agrees(script):
    msgs = messages(script)
    state = fold(msgs)
    for p in state.players:
        assert p.score == sum(e.delta for e in state.ledger if e.player == p.email)
    assert [e.n for e in state.ledger] == list(range(1, len(state.ledger) + 1))
    assert state.temperature >= 0
    assert [s.number for s in state.submissions] == list(range(1, len(state.submissions) + 1))
    for p in state.players:
        pending = [s for s in state.submissions
                   if s.author == p.email and s.kind == "proposal" and s.status == "pending"]
        assert len(pending) <= state.var("queue_limit")
    assert fold(msgs).model_dump(mode="json") == state.model_dump(mode="json")
