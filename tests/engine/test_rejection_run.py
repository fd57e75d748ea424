"""Rule 3's run of rejections (engine/imperial/judging.rejection_run) walks out from the decided
Proposal instead of over every Proposal its author made; on random histories it finds exactly
what a pass over all of them finds."""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings, strategies as st

from engine.imperial.judging import rejection_run


@dataclass
class Made:
    number: int
    status: str
    prejudice: bool


@dataclass
class History:
    """The author's Proposals have the odd numbers; another's rejected one comes after each (a
    walk by number rather than through the author's own would take it into the run)."""
    made: list[Made]

    def proposal_numbers(self, email: str) -> list[int]:
        return [s.number for s in self.made]

    @property
    def submissions(self) -> list[Made]:
        return [x for s in self.made for x in (s, Made(s.number + 1, "rejected", False))]


def by_scan(made: list[Made], number: int, after: int) -> list[int]:
    """The reading of rule 3 as a scan: the author's counted Proposals in number order, and the
    rejected ones on either side of ``number`` without a break."""
    counted = [s for s in made if s.number > after and not s.prejudice]
    at = next((i for i, s in enumerate(counted) if s.number == number), None)
    if at is None or counted[at].status != "rejected":
        return []
    first, last = at, at
    while first > 0 and counted[first - 1].status == "rejected":
        first -= 1
    while last + 1 < len(counted) and counted[last + 1].status == "rejected":
        last += 1
    return [s.number for s in counted[first:last + 1]]


history = st.lists(st.tuples(st.sampled_from(["rejected", "rejected", "accepted", "pending", "ignored"]),
                             st.booleans()), max_size=14)


@settings(max_examples=400, deadline=None)
@given(history, st.integers(0, 16), st.integers(0, 16))
def test_the_run_is_the_one_a_scan_finds(steps: list[tuple[str, bool]], pick: int, after: int) -> None:
    made = [Made(2 * i + 1, status, prejudice) for i, (status, prejudice) in enumerate(steps)]
    number = 2 * pick + 1 if pick < len(made) else pick  # a Proposal of the author's, or a number that is not
    assert rejection_run(History(made), "a@b.c", number, after) == by_scan(made, number, after)  # type: ignore[arg-type]
