"""Counting Votes (engine/blognomic/votes.py): examples and properties."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, strategies as st

from engine.blognomic.state import Ballot
from engine.blognomic.votes import count, quorum

T0 = datetime(2026, 1, 5, tzinfo=timezone.utc)
PEOPLE = ["a", "b", "c", "d", "e", "f", "g"]
ICONS = ["FOR", "AGAINST", "DEFERENTIAL", "VETO"]


def ballots(*pairs: tuple[str, str]) -> list[Ballot]:
    return [Ballot(voter=v, icon=i, at=T0 + timedelta(minutes=n))  # type: ignore[arg-type]
            for n, (v, i) in enumerate(pairs)]


def test_quorum_is_half_rounded_down_plus_one():
    assert [quorum(n) for n in range(7)] == [1, 1, 2, 2, 3, 3, 4]


def test_the_author_votes_for_until_they_cast_a_valid_icon():
    c = count(ballots(), "a", ["a", "b", "c"], [])
    assert (c.for_, c.against, c.icons) == (1, 0, {"a": "FOR"})
    c = count(ballots(("a", "DEFERENTIAL")), "a", ["a", "b", "c"], [])
    assert (c.for_, c.deferential, c.icons) == (1, 0, {"a": "FOR"})
    c = count(ballots(("a", "AGAINST")), "a", ["a", "b", "c"], [])
    assert (c.for_, c.against) == (0, 1)


def test_for_then_deferential_stays_for_until_the_seraphims_have_a_quorum():
    """docs/rulings-blognomic.md, "FOR then DEFERENTIAL"."""
    votes = ballots(("b", "FOR"), ("b", "DEFERENTIAL"))
    c = count(votes, "a", ["a", "b", "s"], ["s"])
    assert (c.for_, c.against, c.deferential, c.icons["b"]) == (2, 0, 0, "FOR")
    c = count(votes + ballots(("s", "AGAINST")), "a", ["a", "b", "s"], ["s"])
    assert (c.for_, c.against, c.resolved, c.resolved_to, c.icons["b"]) == (1, 2, 1, "AGAINST", "DEFERENTIAL")


def test_deferential_follows_a_quorum_of_several_seraphims_only():
    votes = ballots(("b", "DEFERENTIAL"), ("s1", "FOR"))
    assert count(votes, "a", ["a", "b", "s1", "s2", "s3"], ["s1", "s2", "s3"]).resolved_to is None
    c = count(votes + ballots(("s2", "FOR")), "a", ["a", "b", "s1", "s2", "s3"], ["s1", "s2", "s3"])
    assert (c.resolved_to, c.for_, c.seraphim_quorum) == ("FOR", 4, True)


def test_a_seraphims_deferential_and_veto_are_no_votes():
    c = count(ballots(("s", "DEFERENTIAL"), ("t", "VETO")), "a", ["a", "s", "t"], ["s", "t"])
    assert (c.for_, c.against, c.deferential, c.icons) == (1, 0, 0, {"a": "FOR", "s": "DEFERENTIAL", "t": "VETO"})


def test_idle_and_departed_voters_have_no_vote_but_their_ballots_count_again_when_back():
    votes = ballots(("b", "AGAINST"))
    assert count(votes, "a", ["a", "c"], []).against == 0
    assert count(votes, "a", ["a", "b", "c"], []).against == 1


def test_109_deferential_does_not_apply_where_the_edition_says_not():
    c = count(ballots(("b", "DEFERENTIAL"), ("s", "FOR")), "a", ["a", "b", "s"], ["s"], deferring=False)
    assert (c.for_, c.deferential) == (2, 1)


ballot_lists = st.lists(st.tuples(st.sampled_from(PEOPLE), st.sampled_from(ICONS)), max_size=40)


@given(ballot_lists, st.sampled_from(PEOPLE), st.lists(st.sampled_from(PEOPLE), unique=True, max_size=3))
def test_every_voter_is_counted_once(pairs, author, seraphims):
    c = count(ballots(*pairs), author, PEOPLE, seraphims)
    assert c.for_ + c.against + c.deferential <= len(PEOPLE)
    assert c.not_against + c.against == len(PEOPLE)
    assert sum(1 for v in c.icons.values() if v in ("FOR", "AGAINST")) + c.resolved == c.valid


@given(ballot_lists, st.sampled_from(PEOPLE))
def test_without_seraphims_the_last_valid_icon_wins(pairs, author):
    c = count(ballots(*pairs), author, PEOPLE, [])
    for who in PEOPLE:
        valid = [i for v, i in pairs if v == who and i in ("FOR", "AGAINST")]
        expected = valid[-1] if valid else ("FOR" if who == author else None)
        if expected is not None:
            assert c.icons[who] == expected
    assert c.deferential == sum(1 for who in PEOPLE if c.icons.get(who) == "DEFERENTIAL")


@given(ballot_lists, st.sampled_from(PEOPLE), st.lists(st.sampled_from(PEOPLE), unique=True, min_size=1, max_size=3))
def test_resolved_deferentials_go_the_seraphims_way(pairs, author, seraphims):
    c = count(ballots(*pairs), author, PEOPLE, seraphims)
    if c.resolved_to is None:
        assert c.resolved == 0
    else:
        alone = count(ballots(*[(v, i) for v, i in pairs if i != "DEFERENTIAL"]), author, PEOPLE, seraphims)
        followers = [who for who in PEOPLE if who not in seraphims and c.icons.get(who) == "DEFERENTIAL"]
        assert c.deferential == 0 and c.resolved == len(followers)
        assert (c.for_ if c.resolved_to == "FOR" else c.against) >= c.resolved
        assert c.valid == alone.valid + sum(1 for who in followers if alone.icons.get(who) not in ("FOR", "AGAINST"))


@given(st.integers(min_value=0, max_value=1000))
def test_quorum_is_a_strict_majority(n):
    assert quorum(n) * 2 > n and (quorum(n) - 1) * 2 <= n
