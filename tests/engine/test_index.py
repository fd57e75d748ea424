"""engine/index.py: the state's lookups agree with plain scans of its lists, whatever is folded.

A property test folds random sequences of every command that adds players, submissions and
list members or decides submissions, and after each message compares every indexed lookup
with a scan; a second one folds the same messages into a state whose index is thrown away
after every message and requires the same state and events. The unit tests pin the guards.
"""
from __future__ import annotations

import copy
import pickle
from datetime import datetime, timedelta, timezone
from importlib import resources

import pytest
from hypothesis import given, settings, strategies as st

import engine
from engine.commands import DigestCmd, ListPostCmd, SubscribeCmd, UnsubscribeCmd
from engine.imperial.commands import JudgeCmd, NewDayCmd, PointOfOrderCmd, ProposalCmd, ScoreClaim, TagCmd
from engine.context import EngineConfig
from engine.inputs import Message
from engine.state import Subscriber
from engine.imperial.state import ImperialPlayer, ImperialState, Submission

EMPEROR = "tie@imperial.test"
START = datetime(2026, 1, 5, tzinfo=timezone.utc)
# a low start temperature: ignored Proposals reach 0 K, where the highest accepted Proposal wins
CONFIG = EngineConfig(start=START, seed="index-seed", address="ths@imperial.test",
                      list_address="players@imperial.test", offices={"emperor": (EMPEROR,), "scribe": ("ths@imperial.test",)},
                      variables={"start_temperature": 12})
RULES = resources.files("storage").joinpath("rulesets/imperial-nomic.txt").read_text()
# carol's display name is bob's address: a lookup of it must find whichever joined first
PEOPLE = {"alice@wonder.land": "Alice", "bob@builder.org": "Bob", "carol@c.org": "bob@builder.org",
          "dave@d.org": "Dave"}
KEYS = [*PEOPLE, *PEOPLE.values(), " ALICE ", "nobody@x.org", EMPEROR]

people = st.sampled_from(sorted(PEOPLE))
propose = st.tuples(st.just("propose"), people, st.sampled_from(["Cake", "", "Pie"]))
judge = st.tuples(st.just("judge"), st.sampled_from(["accept", "reject", "ignore"]), st.integers(1, 8))
actions = st.one_of(  # proposing and judging twice as often as the rest
    propose, propose, judge, judge,
    st.tuples(st.just("point_of_order"), people, st.sampled_from(sorted(PEOPLE)), st.integers(-2, 9)),
    st.tuples(st.just("judge_thread"), st.sampled_from(["accept", "reject"]), st.integers(0, 20)),
    st.tuples(st.just("subscribe"), people),
    st.tuples(st.just("unsubscribe"), people),
    st.tuples(st.just("digest"), people, st.booleans()),
    st.tuples(st.just("list_post"), st.sampled_from([*PEOPLE, "stranger@x.org"])),
    st.tuples(st.just("tag"), people, people),
    st.tuples(st.just("new_day"), st.integers(1, 30)),
)


def message_id(i: int) -> str:
    """Every fifth message reuses one Message-ID (resent mail): a thread names the last."""
    return f"m{i}@index.test" if i % 5 else "again@index.test"


def command(action: tuple) -> tuple[str, list, list[str]]:
    """(sender, commands, references) of one action."""
    kind = action[0]
    if kind == "propose":
        return action[1], [ProposalCmd(line="Proposal", title=action[2], text="text")], []
    if kind == "point_of_order":
        claim = ScoreClaim(player=action[2], score=action[3])
        return action[1], [PointOfOrderCmd(line="Point of Order", title="score", claims=[claim])], []
    if kind == "judge":
        return EMPEROR, [JudgeCmd(line="judge", verdict=action[1], number=action[2], reason="rule 3")], []
    if kind == "judge_thread":
        return EMPEROR, [JudgeCmd(line="judge", verdict=action[1])], [message_id(action[2])]
    if kind == "subscribe":
        return action[1], [SubscribeCmd(line="Subscribe")], []
    if kind == "unsubscribe":
        return action[1], [UnsubscribeCmd(line="Unsubscribe")], []
    if kind == "digest":
        return action[1], [DigestCmd(line="Digest", on=action[2])], []
    if kind == "list_post":
        return action[1], [ListPostCmd(line="hello", subject="hello")], []
    if kind == "tag":
        return action[1], [TagCmd(line="Tag", player=action[2])], []
    return EMPEROR, [NewDayCmd(line="New day")], []


def messages(script: list[tuple]) -> list[Message]:
    out, t = [], START
    for i, action in enumerate(script):
        t += timedelta(hours=action[1]) if action[0] == "new_day" else timedelta(minutes=10)
        sender, commands, references = command(action)
        out.append(Message(at=t, message_id=message_id(i), sender=sender, name=PEOPLE.get(sender, ""),
                           authenticated=True, to_list=action[0] == "list_post", references=references,
                           commands=commands))
    return out


def assert_lookups_match_scans(state: ImperialState) -> None:
    for key in KEYS:
        k = key.strip().lower()
        assert state.player(key) is next((p for p in state.players if p.email == k or p.name.lower() == k), None)
        assert state.subscriber(key) is next((s for s in state.subscribers if s.email == k), None)
        proposals = [s for s in state.submissions if s.kind == "proposal" and s.author == key]
        assert state.proposals_of(key) == proposals
        assert state.pending_proposals_of(key) == [s for s in proposals if s.status == "pending"]
        assert state.ledger_total(key) == sum(e.delta for e in state.ledger if e.player == key)
    accepted = [s for s in state.submissions if s.kind == "proposal" and s.status == "accepted"]
    assert state.highest_accepted_proposal() is (accepted[-1] if accepted else None)
    for mid in {s.message_id for s in state.submissions} | {"unknown@index.test"}:
        assert state.submission_by_message_id(mid) is next(
            (s for s in reversed(state.submissions) if s.message_id == mid), None)


@settings(max_examples=60, deadline=None)
@given(st.lists(actions, min_size=10, max_size=60))
def test_lookups_agree_with_plain_scans(script: list[tuple]) -> None:
    state = engine.new_game(CONFIG, RULES)
    for msg in messages(script):
        engine.apply(state, msg, CONFIG)
        assert_lookups_match_scans(state)


@settings(max_examples=40, deadline=None)
@given(st.lists(actions, min_size=10, max_size=60))
def test_a_fresh_index_every_message_folds_the_same(script: list[tuple]) -> None:
    kept, fresh = engine.new_game(CONFIG, RULES), engine.new_game(CONFIG, RULES)
    for msg in messages(script):
        kept_events = engine.apply(kept, msg, CONFIG)
        fresh = ImperialState.model_validate_json(fresh.model_dump_json())  # a new state: an empty index
        assert engine.apply(fresh, msg, CONFIG) == kept_events
    assert fresh.model_dump_json() == kept.model_dump_json()


def small_state() -> ImperialState:
    state = engine.new_game(CONFIG, RULES)
    state.players.append(ImperialPlayer(email="alice@wonder.land", name="Alice"))
    state.submissions.append(Submission(number=1, kind="proposal", author="alice@wonder.land", title="A"))
    state.subscribers.append(Subscriber(email="alice@wonder.land"))
    return state


def test_a_replaced_or_shorter_list_is_indexed_again() -> None:
    state = small_state()
    assert state.player("alice") is state.players[-1]
    state.players = [ImperialPlayer(email="bob@builder.org", name="Bob")]
    assert state.player("alice") is None and state.player("bob") is state.players[0]
    state.players.pop()
    assert state.player("bob") is None
    state.players.append(ImperialPlayer(email="carol@c.org", name="Carol"))
    assert state.player("carol") is state.players[0]
    state.subscribers.clear()
    assert state.subscriber("alice@wonder.land") is None


def test_a_hit_whose_key_changed_is_indexed_again() -> None:
    state = small_state()
    assert state.player("alice") is state.players[-1]
    state.players[-1].name = "Alicia"
    assert state.player("alice") is None and state.player("alicia") is state.players[-1]


def test_a_proposal_accepted_outside_decide_is_found_by_checking_the_hit() -> None:
    state = small_state()
    state.submissions.append(Submission(number=2, kind="proposal", author="alice@wonder.land", title="B"))
    state.decide(state.submissions[1], "accepted")
    assert state.highest_accepted_proposal() is state.submissions[1]
    state.submissions[1].status = "pending"
    state.submissions[0].status = "accepted"
    assert state.highest_accepted_proposal() is state.submissions[0]


def test_submissions_out_of_order_are_refused() -> None:
    state = small_state()
    state.submissions.append(Submission(number=5, kind="proposal", author="alice@wonder.land", title="E"))
    with pytest.raises(ValueError, match="rule 7"):
        state.proposals_of("alice@wonder.land")
    with pytest.raises(AssertionError):
        state.submission(2)


def test_copies_and_pickles_have_their_own_index() -> None:
    state = small_state()
    assert state.player("alice") is state.players[-1]
    for other in (state.copy_deep(), copy.copy(state), pickle.loads(pickle.dumps(state))):
        assert other == state
        other.players = [ImperialPlayer(email="bob@builder.org", name="Bob")]
        assert other.player("bob") is other.players[0] and state.player("bob") is None
    deep = state.copy_deep()
    deep.players.append(ImperialPlayer(email="carol@c.org", name="Carol"))
    assert deep.player("carol") is deep.players[-1] and state.player("carol") is None
