"""The game state: everything a replay of the journal must reproduce exactly.

The state is a tree of pydantic models so that it round-trips through JSON
(snapshots, ``nomic state --json``) without hand-written serialisers.
Engine steps mutate the state they are given; callers that need the old
state keep a copy (see ``GameState.copy_deep``).
"""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, computed_field

from engine.index import StateIndex, name_key

SubmissionKind = Literal["proposal", "point_of_order"]
SubmissionStatus = Literal["pending", "accepted", "rejected", "ignored"]


class Model(BaseModel):
    model_config = ConfigDict(extra="ignore")  # computed fields (entropy) are dumped, not loaded


class Player(Model):
    email: str
    name: str
    score: int = 0
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


class Submission(Model):
    number: int
    kind: SubmissionKind
    author: str
    title: str
    text: str = ""
    status: SubmissionStatus = "pending"
    reason: str | None = None
    rule: int | None = None  # the rule that ignored it, if any
    area: str | None = None
    requests: list[Request] = Field(default_factory=list)
    claims: list[dict] = Field(default_factory=list)  # rule 5 scoring claims
    revisions: list[Revision] = Field(default_factory=list)
    message_id: str | None = None
    received_at: datetime | None = None
    day: int = 1
    judged_at: datetime | None = None
    judged_day: int | None = None
    # rule 3: the Directive's area this proposal had to be in when submitted (None: free)
    directive: str | None = None
    # rules 3 and 7: the rule changes a Proposal carries, as read when it arrived, or why not
    changes: list[str] = Field(default_factory=list)
    changes_invalid: str | None = None
    # rule 3: its author was on Probation when it was made; it was ignored with prejudice
    on_probation: bool = False
    prejudice: bool = False


class LedgerEntry(Model):
    """One change of one score: the public record of rule 3."""
    n: int
    at: datetime
    day: int
    player: str
    delta: int
    score: int  # the score after the change
    cause: str
    rule: int | None = None
    submission: int | None = None


class RuleVersion(Model):
    text: str
    title: str
    by: str | None = None  # e.g. "P7" or "Proclamation 12"
    at: datetime | None = None


class Rule(Model):
    number: int
    title: str
    text: str
    amended_by: list[str] = Field(default_factory=list)
    repealed: bool = False
    # rule 7: submissions numbered >= these are governed by the enactment / the repeal
    enacted_from: int | None = None
    repealed_from: int | None = None
    history: list[RuleVersion] = Field(default_factory=list)


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


class Subscriber(Model):
    email: str
    digest: bool = False
    plain: bool = False  # a digest member who chose the RFC 1153 plain-text digest
    # when this (re)subscription began, to the second: unsubscribe links made before it are refused;
    # None in states stored before it was kept
    since: datetime | None = None


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


class GameState(Model):
    ruleset: str = "imperial"
    started: datetime
    game_day: int = 1
    day_started: datetime
    temperature: int = 303
    woodchips: int = 0
    accept_streak: int = 0
    reject_streak: int = 0
    it: str | None = None
    it_next: str | None = None  # rule 22: a tag that takes effect at the end of the day
    winner: str | None = None
    directive: str | None = None
    player_of_the_day: str | None = None
    last_accepted_author: str | None = None
    variables: dict[str, int] = Field(default_factory=dict)
    variable_history: list[VariableChange] = Field(default_factory=list)
    proclamations: list[Proclamation] = Field(default_factory=list)
    # rules 8 and 11: TEW first, then every other player in rank order, once the game has ended
    ranking: list[str] = Field(default_factory=list)
    players: list[Player] = Field(default_factory=list)
    submissions: list[Submission] = Field(default_factory=list)
    ledger: list[LedgerEntry] = Field(default_factory=list)
    rules: list[Rule] = Field(default_factory=list)
    swaps: list[Swap] = Field(default_factory=list)
    reports: list[Report] = Field(default_factory=list)  # rule 21
    whaps: int = 0  # rule 20: how many times Tivol has been whapped (labels its draws)
    subscribers: list[Subscriber] = Field(default_factory=list)
    _index: StateIndex = PrivateAttr(default_factory=StateIndex)  # engine/index.py: not state

    def _lookups(self) -> StateIndex:
        """``self._index`` without pydantic's ``__getattr__`` (a lookup per message: it is slow)."""
        return self.__pydantic_private__["_index"]  # type: ignore[index]

    def player(self, who: str) -> Player | None:
        """The player whose address is ``who`` or, when ``who`` is no address, whose name it is
        (case-insensitively): a name never stands for someone else's address."""
        who = who.strip().lower()
        return self._lookups().players.find(self.players, who if "@" in who else name_key(who))

    def name_for(self, email: str, wanted: str) -> str:
        """A name for a new player: ``wanted`` (the From display name) unless it is empty, looks
        like an address or is taken; then the address's local part; made unique with a number."""
        wanted = " ".join(wanted.split())[:64]
        base = wanted if wanted and "@" not in wanted else email.partition("@")[0]
        name, n = base, 1
        while self.player(name) is not None:
            n += 1
            name = f"{base} ({n})"
        return name

    def subscriber(self, address: str) -> Subscriber | None:
        """The list member with this address (case-insensitive)."""
        return self._lookups().subscribers.find(self.subscribers, address.lower())

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

    def pending_proposals_of(self, email: str) -> list[Submission]:
        """``email``'s Proposals still waiting for a decision, in number order."""
        return self._lookups().submissions.pending_of(self.submissions, email)

    def highest_accepted_proposal(self) -> Submission | None:
        return self._lookups().submissions.highest_accepted(self.submissions)

    def ledger_total(self, email: str) -> int:
        """The sum of ``email``'s score changes in the ledger."""
        return self._lookups().ledger.total(self.ledger, email)

    def decide(self, sub: Submission, status: SubmissionStatus) -> None:
        """Record the decision on ``sub`` (rule 3: once; it was pending). Every decision comes here."""
        sub.status = status
        if status == "accepted" and sub.kind == "proposal":
            self._lookups().submissions.accepted(sub)

    def rule(self, number: int, nth: int = 0) -> Rule | None:
        """The ``nth`` rule numbered ``number`` (the ruleset prints two rules 8: nth 1 is the second)."""
        same = [r for r in self.rules if r.number == number]
        return same[nth] if nth < len(same) else None

    def rule_in_force(self, number: int, nth: int = 0) -> bool:
        r = self.rule(number, nth)
        return r is not None and not r.repealed

    def var(self, name: str) -> int:
        return self.variables[name]

    def public_json(self) -> dict:
        return self.model_dump(mode="json")

    def copy_deep(self) -> "GameState":
        return self.model_copy(deep=True)
