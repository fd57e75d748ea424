"""Every byte is hostile: any sequence of B Nomic's commands, from Players and strangers, with
midnights between, folds without fault, and folding it again from the start gives the same state."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.bnomic.support import ALICE, BOB, CAROL, Game

SENDERS = [ALICE, BOB, CAROL, "zed@b.test"]
LINES = ["Take MoM", "Take Chairman", "Take Society", "Take Law", "Take Questions", "Take Foreign Relations",
         "Take Goods", "Resign MoM", "Clock on", "Clock off", "Publish ballot", "Publish results", "Number proposals",
         "FOR 1", "AGAINST 2", "ABSTAIN 1", "FOR", "Withdraw 1", "Forfeit", "Join as Zed", "Join as alice",
         "Usurp Chairman", "Expel Zed because x", "Support A1", "Object to A2", "Set my vote power to 1/2",
         "Apply 1:", "Applied 1: ok", 'Create miniministry "Tea": tea', 'Dissolve miniministry "Tea"',
         "Renumber rule 2-6 to 9-9", "Remove section 2", 'Fulfilled "X": Bob', "Fulfilled obligation 1: ok",
         "Change name from Bob to Rob", "Recognize name change of Bob", "Carol gains 3 points",
         "Foreign action: join Agora", "Relation with Agora: war", "Object to A1", "Support A3"]
BODIES = ["Tea.", "Tea.\nConflicts: 1", "Tea.\nDepends on: 1, 2", "Tea.\nBob loses m80\nSet the clock to nweek 1 nday 8",
          'Cake.\nEnact rule 2-13 "Cake": cake\nAward a trophy to Bob: cake\nObligation of the MoM: tidy',
          "Vacate Chairman\nAssign MoM to Carol\nSet vote power of Bob to 3/4", ""]

step = st.one_of(
    st.tuples(st.just("mail"), st.sampled_from(SENDERS), st.lists(st.sampled_from(LINES), min_size=1, max_size=4),
              st.integers(0, 3)),
    st.tuples(st.just("proposal"), st.sampled_from(SENDERS), st.sampled_from(BODIES), st.integers(1, 3)),
    st.tuples(st.just("midnights"), st.integers(1, 5)))


def play(steps: list[tuple]) -> Game:
    g = Game(players=["Alice <alice@b.test>", "Bob <bob@b.test>", "Carol <carol@b.test>"])
    for s in steps:
        if s[0] == "mail":
            g.send(s[1], "x", "\n".join(s[2]), reply_to=s[3] or None)
        elif s[0] == "proposal":
            g.send(s[1], f"Revise proposal {s[3]}: T" if s[3] == 3 else "Proposal: T", s[2])
        else:
            g.midnight(g.state.midnights + s[1])
        g.json()
    return g


@settings(max_examples=60, deadline=None)
@given(st.lists(step, max_size=25))
def test_any_commands_fold_without_fault_and_the_same_way_twice(steps):
    assert play(steps).json() == play(steps).json()
