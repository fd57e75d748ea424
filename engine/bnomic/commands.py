"""B Nomic's commands, as the mailer reads them out of mail (see declarations.py)."""
from __future__ import annotations

from typing import Literal

from engine.bnomic.state import VoteWord
from engine.commands import Cmd


class JoinCmd(Cmd):
    kind: Literal["join"] = "join"
    name: str


class ForfeitCmd(Cmd):
    kind: Literal["forfeit"] = "forfeit"


class ChangeNameCmd(Cmd):
    kind: Literal["change_name"] = "change_name"
    old: str
    new: str


class RecognizeCmd(Cmd):
    """The Registrar recognizes PLAYER's pending name change (1-4)."""
    kind: Literal["recognize"] = "recognize"
    player: str


class TakeCmd(Cmd):
    kind: Literal["take"] = "take"
    ministry: str


class ResignCmd(Cmd):
    kind: Literal["resign"] = "resign"
    ministry: str


class UsurpCmd(Cmd):
    kind: Literal["usurp"] = "usurp"
    ministry: str


class ExpelCmd(Cmd):
    kind: Literal["expel"] = "expel"
    player: str
    reason: str


class SupportCmd(Cmd):
    """``Support A3`` (``support`` true) or ``Object to A3`` (2-8, 2-9)."""
    kind: Literal["support"] = "support"
    number: int
    support: bool


class ClockCmd(Cmd):
    kind: Literal["clock"] = "clock"
    on: bool


class ChairmanCmd(Cmd):
    """The Chairman's ``Publish ballot``, ``Publish results`` or ``Number proposals``."""
    kind: Literal["chairman"] = "chairman"
    what: Literal["ballot", "results", "number"]


class ProposalCmd(Cmd):
    """A proposal (``revise`` None) or a revision of proposal ``revise``; ``text`` is the body."""
    kind: Literal["proposal"] = "proposal"
    title: str
    text: str = ""
    revise: int | None = None


class WithdrawCmd(Cmd):
    kind: Literal["withdraw"] = "withdraw"
    number: int


class VoteCmd(Cmd):
    """A Vote on proposal ``number`` (None: the proposal the reply is about)."""
    kind: Literal["vote"] = "vote"
    vote: VoteWord
    number: int | None = None


class VotePowerCmd(Cmd):
    """``Set my vote power to Q``: ``power`` as written (``3/4``, ``0.5``, ``1``)."""
    kind: Literal["vote_power"] = "vote_power"
    power: str


class ApplyCmd(Cmd):
    """The Chairman's ``Apply N:`` with change lines (``text``), or ``Applied N: NOTE`` (``note``)."""
    kind: Literal["apply"] = "apply"
    number: int
    text: str = ""
    note: str | None = None


class MiniMinistryCmd(Cmd):
    """The MetaMin's ``Create miniministry "NAME": RESPONSIBILITIES`` or ``Dissolve miniministry "NAME"``."""
    kind: Literal["miniministry"] = "miniministry"
    name: str
    responsibilities: str | None = None  # None: dissolve


class RulekeeperCmd(Cmd):
    """One of the Rulekeeper's acts on rule numbers and sections (1-8): ``what`` and its operands."""
    kind: Literal["rulekeeper"] = "rulekeeper"
    what: Literal["renumber_rule", "unnumber_rule", "create_section", "renumber_section", "rename_section",
                  "remove_section", "move_rule"]
    target: str
    value: str = ""


class FulfilledCmd(Cmd):
    """The Rulekeeper's ``Fulfilled "NAME": PLAYER, PLAYER`` (``victors``), or a Minister's
    ``Fulfilled obligation N: NOTE`` (``obligation``)."""
    kind: Literal["fulfilled"] = "fulfilled"
    name: str = ""
    victors: list[str] = []
    obligation: int | None = None
    note: str = ""
