"""B Nomic's commands, as the mailer reads them out of mail (see declarations.py)."""
from __future__ import annotations

from typing import Any, Literal

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


class TransactionCmd(Cmd):
    """1-16: ``BEGIN TRANSACTION`` ... ``END TRANSACTION``: ``lines`` the commands between (each as
    its JSON, read back by the ruleset), ``unread`` the lines between that are no command."""
    kind: Literal["transaction"] = "transaction"
    lines: list[dict[str, Any]] = []
    unread: list[str] = []


class AssertCmd(Cmd):
    """An ``Assert`` line (1-16): ``what`` it asserts of ``subject``, and the ``value`` asserted."""
    kind: Literal["assert"] = "assert"
    what: Literal["mackerel", "points", "vote_power", "nday", "nweek", "clock", "holds", "vacant", "proposal"]
    subject: str = ""
    value: str = ""


class RepeatCmd(Cmd):
    """1-10: ``Repeat N times: LINE``; ``command`` the LINE's command as JSON (None: not understood)."""
    kind: Literal["repeat"] = "repeat"
    times: int
    command: dict[str, Any] | None = None
    text: str = ""


class AtCmd(Cmd):
    """1-10: ``At TIME: LINE``: ``when`` as written; ``command`` the LINE's command as JSON."""
    kind: Literal["at"] = "at"
    when: str
    command: dict[str, Any] | None = None
    text: str = ""


class ConsultationCmd(Cmd):
    """2-5: ``Consultation: QUESTION`` (subject); the body its Reasoning, an ``Unbeliever: PLAYER`` line."""
    kind: Literal["consultation"] = "consultation"
    question: str
    reasoning: str = ""
    unbeliever: str | None = None


class PriestCmd(Cmd):
    """The Oracle's ``Priest N: PLAYER`` (2-5)."""
    kind: Literal["priest"] = "priest"
    number: int
    player: str


class AnswerCmd(Cmd):
    """The Priest's ``Answer N: YES``: the rest of the body its Reasoning, then an Oracularity's change lines."""
    kind: Literal["answer"] = "answer"
    number: int
    yes: bool
    text: str = ""


class ClaimCmd(Cmd):
    """``Claim N consistent`` / ``Claim N inconsistent`` (2-5)."""
    kind: Literal["claim"] = "claim"
    number: int
    consistent: bool


class ZotCmd(Cmd):
    """The Oracle's ``ZOT N`` (``request`` False) or the Priest's ``Request ZOT N`` (2-5)."""
    kind: Literal["zot"] = "zot"
    number: int
    request: bool = False


class GiveCmd(Cmd):
    """``Give mX to PLAYER`` / ``Pay PLAYER mX`` (3-10): ``amount`` the decimal as written."""
    kind: Literal["give"] = "give"
    amount: str
    player: str


class ExchangeCmd(Cmd):
    """``Exchange N points for mackerel`` (3-10, 3-11)."""
    kind: Literal["exchange"] = "exchange"
    points: int


class BlueprintCmd(Cmd):
    """The Artisan's ``Blueprint: NAME`` (3-14): ``unique`` None when the body says neither."""
    kind: Literal["blueprint"] = "blueprint"
    name: str
    unique: bool | None = None
    price: str | None = None
    attributes: dict[str, str] = {}
    properties: list[str] = []


class PriceCmd(Cmd):
    """The Artisan's ``Set price of NAME to mX`` (3-14)."""
    kind: Literal["price"] = "price"
    name: str
    price: str


class BuyCmd(Cmd):
    """``Buy NAME`` (3-14): a non-unique device."""
    kind: Literal["buy"] = "buy"
    name: str


class DeviceCmd(Cmd):
    """``Give device N to PLAYER`` (``player``) or ``Destroy device N`` (3-12)."""
    kind: Literal["device"] = "device"
    number: int
    player: str | None = None


class BidCmd(Cmd):
    """``Bid mX on NAME`` (3-14): a bid on a unique blueprint."""
    kind: Literal["bid"] = "bid"
    amount: str
    name: str


class FactionCmd(Cmd):
    """5-2: ``Faction: NAME`` (``register``, with ``parties`` and ``agreement``), the agent's
    ``Parties of FACTION: ...`` or ``Dissolve faction FACTION``, a party's ``Give allegiance to
    FACTION`` (5-3)."""
    kind: Literal["faction"] = "faction"
    what: Literal["register", "parties", "dissolve", "allegiance"]
    name: str
    parties: list[str] = []
    agreement: str = ""


class FactionVoteCmd(Cmd):
    """The agent's ``Vote FOR N as FACTION`` (5-3) or ``Set vote power of FACTION to Q`` (2-2)."""
    kind: Literal["faction_vote"] = "faction_vote"
    faction: str
    vote: VoteWord | None = None
    number: int | None = None
    power: str | None = None


class TidinessCmd(Cmd):
    """``Tidiness List`` (subject, 3-9): ``text`` the body, lines ``Rule RULE: "WRONG" -> "RIGHT"``."""
    kind: Literal["tidiness"] = "tidiness"
    text: str = ""


class MessageCmd(Cmd):
    """The Registrar's ``Set the message of the nweek: TEXT`` (3-16)."""
    kind: Literal["motnw"] = "motnw"
    text: str


class HoistCmd(Cmd):
    """The MoM's ``Hoist the FLAG flag`` / ``Set the Threat Flag to FLAG`` (3-17)."""
    kind: Literal["hoist"] = "hoist"
    flag: str


class RenumberConsultationCmd(Cmd):
    """The Oracle's ``Renumber consultation N to M`` (2-5)."""
    kind: Literal["renumber_consultation"] = "renumber_consultation"
    number: int
    to: int


class PanicCmd(Cmd):
    """A PEP's ``Hit my Panic Button`` (``on``) or ``Stop my Panic Button`` (Rule 0)."""
    kind: Literal["panic"] = "panic"
    on: bool


class ProcedureCmd(Cmd):
    """One step of Rule 0's Procedure: ``what`` and its operand (a Forum, a Refresh Proposal's number,
    a note)."""
    kind: Literal["procedure"] = "procedure"
    what: Literal["organize", "forum", "initialize", "increment", "object", "vote", "select", "applied"]
    text: str = ""
    number: int | None = None


class RefreshProposalCmd(Cmd):
    """``Refresh Proposal: TITLE`` (subject, Rule 0 step 5): the body its change lines."""
    kind: Literal["refresh_proposal"] = "refresh_proposal"
    title: str
    text: str = ""
