"""Imperial Nomic's part of the state: temperature, wood chips, It, Profiles, submissions..."""
from __future__ import annotations

from datetime import datetime
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import Field, computed_field

from engine.state import GameState, Matter, Model, Player

SubmissionKind = Literal["proposal", "point_of_order"]
SubmissionStatus = Literal["pending", "accepted", "rejected", "ignored"]


class ImperialPlayer(Player):
    profile: int = 0
    category: Literal["GP", "FF"] = "GP"
    probation: bool = False
    active: bool = True
    joined_day: int = 1
    # rule 3: consecutive rejections, and accepted proposals since probation began
    reject_run: int = 0
    accepted_since_probation: int = 0
    # rule 3: this player's Proposals numbered up to this one no longer count towards Probation
    counted_after: int = 0
    # rule 3 directives: has this player had a proposal accepted in the directive's area
    directive_done: bool = False
    # rule 14 sealant: first and last game day it protects the profile (inclusive);
    # ``sealed`` is true from the start of sealed_from to the end of sealed_until
    sealed_from: int | None = None
    sealed_until: int | None = None
    sealed: bool = False
    # rule 21 reports: the player this one last reported (no twice in a row), and the day of it
    last_reported: str | None = None
    last_report_day: int | None = None
    # rule 22: day this player was named It
    it_since_day: int | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def entropy(self) -> int:
        """Rule 15: |popcount(profile) - 8|."""
        return abs(bin(self.profile & 0xFFFF).count("1") - 8)


class Request(Model):
    """A request carried by a Proposal (rules 3, 14, 16, 21)."""
    kind: str  # raise | shave | rotate | sealant | become_ff | defend | vandalize
    section: int | None = None
    direction: Literal["left", "right"] | None = None
    target: str | None = None


class Revision(Model):
    """A rewrite of a submission's text by THS (rule 3)."""
    text: str
    at: datetime
    by: str


class Submission(Matter):
    kind: SubmissionKind
    status: SubmissionStatus = "pending"
    reason: str | None = None
    rule: int | None = None  # the rule that ignored it, if any
    area: str | None = None
    requests: list[Request] = Field(default_factory=list)
    claims: list[dict[str, Any]] = Field(default_factory=list)  # rule 5 scoring claims
    revisions: list[Revision] = Field(default_factory=list)
    day: int = 1
    judged_at: datetime | None = None
    judged_day: int | None = None
    # rule 3: the Directive's area this proposal had to be in when submitted (None: free)
    directive: str | None = None
    # rules 3 and 7: the rule changes a Proposal carries, as read when it arrived, or why not
    changes: list[str] = Field(default_factory=list)
    changes_invalid: str | None = None
    preview: list[str] = Field(default_factory=list)  # what accepting it would do (engine/imperial/preview.py)
    # rule 3: its author was on Probation when it was made; it was ignored with prejudice
    on_probation: bool = False
    prejudice: bool = False


class VariableChange(Model):
    """A Proclamation's change of a game variable; rule 7: it governs submissions >= ``from_number``."""
    name: str
    old: int
    new: int
    from_number: int
    by: str


class Proclamation(Model):
    """A rule change by TIE (rule 3), numbered in its own sequence ("Proclamation 1")."""
    number: int
    title: str
    text: str
    at: datetime
    day: int
    from_number: int  # rule 7: the submission number from which it applies
    changes: list[str] = Field(default_factory=list)


class Swap(Model):
    """A rule 14 swap offer awaiting the other player's consent."""
    number: int
    proposer: str
    partner: str
    first: int  # first section (1-based) of the proposer's four
    partner_first: int
    made_day: int
    status: Literal["offered", "done"] = "offered"
    done_day: int | None = None


class Report(Model):
    """A rule 21 bit-difference report, judged against the Profiles at the end of its day."""
    number: int
    reporter: str
    target: str
    day: int
    status: Literal["pending", "awarded", "void"] = "pending"
    reason: str | None = None


class ImperialState(GameState[ImperialPlayer]):
    ruleset: str = "imperial"
    game_day: int = 1
    day_started: datetime
    temperature: int = 303
    woodchips: int = 0
    accept_streak: int = 0
    reject_streak: int = 0
    it: str | None = None
    it_next: str | None = None  # rule 22: a tag that takes effect at the end of the day
    directive: str | None = None
    player_of_the_day: str | None = None
    last_accepted_author: str | None = None
    variable_history: list[VariableChange] = Field(default_factory=list)
    proclamations: list[Proclamation] = Field(default_factory=list)
    # rules 8 and 11: TEW first, then every other player in rank order, once the game has ended
    ranking: list[str] = Field(default_factory=list)
    submissions: list[Submission] = Field(default_factory=list)
    swaps: list[Swap] = Field(default_factory=list)
    reports: list[Report] = Field(default_factory=list)  # rule 21
    whaps: int = 0  # rule 20: how many times Tivol has been whapped (labels its draws)

    def summary(self) -> list[str]:
        return [f"Day {self.game_day}, temperature {self.temperature} K, wood chips {self.woodchips}, "
                f"It: {self.it or '-'}",
                *(f"  {p.score:>5}  {p.email}  profile {p.profile:016b}  {p.category}" for p in self.players)]

    def public_json(self) -> dict[str, Any]:
        """The whole state, with docs/contract.md's ``"parameters"`` (the game variables now) and each
        rule's ``"mechanics"`` (what it runs; nothing once repealed)."""
        from engine.absence import away_until
        from engine.imperial.mechanics import DECLARED, nth_of  # mechanics imports this module
        data = self.model_dump(mode="json")
        data["parameters"] = dict(self.variables)
        for shown in data["players"]:
            shown["away_until"] = away_until(self, shown["email"])
        for rule, shown in zip(self.rules, data["rules"]):
            shown["mechanics"] = [] if rule.repealed else [m.runs for m in DECLARED.of(rule.number, nth_of(self, rule))]
        return data

    def matter(self, number: int) -> Submission | None:
        return self.submission(number)

    def matter_by_message_id(self, message_id: str) -> Submission | None:
        return self.submission_by_message_id(message_id)

    def submission(self, number: int) -> Submission | None:
        """Rule 7: submissions are numbered 1..n in the order they came, so N is at position N - 1."""
        if 1 <= number <= len(self.submissions):
            sub = self.submissions[number - 1]
            assert sub.number == number, f"submission {sub.number} is at position {number}"
            return sub
        return None

    def submission_by_message_id(self, message_id: str) -> Submission | None:
        """The last submission made by the message with this Message-ID."""
        return self._lookups().submissions.by_id(self.submissions, message_id)

    def proposals_of(self, email: str) -> list[Submission]:
        """Every Proposal by ``email``, in number order."""
        return self._lookups().submissions.proposals_of(self.submissions, email)

    def proposal_numbers(self, email: str) -> Sequence[int]:
        """The numbers of every Proposal by ``email``, in order (not to be changed)."""
        return self._lookups().submissions.proposal_numbers(self.submissions, email)

    def pending_proposals_of(self, email: str) -> list[Submission]:
        """``email``'s Proposals still waiting for a decision, in number order."""
        return self._lookups().submissions.pending_of(self.submissions, email)

    def highest_accepted_proposal(self) -> Submission | None:
        return self._lookups().submissions.highest_accepted(self.submissions)

    def decide(self, sub: Submission, status: SubmissionStatus) -> None:
        """Record the decision on ``sub`` (rule 3: once; it was pending). Every decision comes here."""
        sub.status = status
        if status == "accepted" and sub.kind == "proposal":
            self._lookups().submissions.accepted(sub)
