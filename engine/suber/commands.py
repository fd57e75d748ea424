"""Suber's Nomic's commands, as the mailer reads them out of mail (see declarations.py)."""
from __future__ import annotations

from typing import Literal

from engine.commands import Cmd
from engine.suber.state import Vote


class JoinCmd(Cmd):
    kind: Literal["join"] = "join"


class ProposalCmd(Cmd):
    """A proposal: ``title`` from the subject, ``text`` the body with its change lines."""
    kind: Literal["proposal"] = "proposal"
    title: str
    text: str = ""


class CallVoteCmd(Cmd):
    """``number`` None: the proposal the reply is about, else the current one."""
    kind: Literal["call_vote"] = "call_vote"
    number: int | None = None


class VoteCmd(Cmd):
    kind: Literal["vote"] = "vote"
    vote: Vote
    number: int | None = None


class InvokeJudgmentCmd(Cmd):
    kind: Literal["invoke_judgment"] = "invoke_judgment"
    question: str
    text: str = ""


class JudgmentCmd(Cmd):
    """The Judge's answer; ``number`` None: the oldest question the sender has still to answer."""
    kind: Literal["judgment"] = "judgment"
    text: str
    number: int | None = None


class OverruleCmd(Cmd):
    """A vote to overrule the Judge's answer to question ``number`` (None: the latest answered)."""
    kind: Literal["overrule"] = "overrule"
    number: int | None = None


class ConsentCmd(Cmd):
    """Consent to the next player's beginning their turn after Judgment was invoked (212)."""
    kind: Literal["consent"] = "consent"


class CallForActionCmd(Cmd):
    kind: Literal["call_for_action"] = "call_for_action"


class SkipVoteCmd(Cmd):
    """Rule 305: ``Skip yes`` (skip the player on turn) or ``Skip no``."""
    kind: Literal["skip_vote"] = "skip_vote"
    skip: bool
