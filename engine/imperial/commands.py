"""Imperial Nomic's commands, as the mailer reads them out of mail (see declarations.py)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from engine.commands import Cmd
from engine.imperial.state import Request


class ScoreClaim(BaseModel):
    player: str
    score: int


class ProposalCmd(Cmd):
    kind: Literal["proposal"] = "proposal"
    title: str
    text: str = ""
    area: str | None = None
    requests: list[Request] = Field(default_factory=list)


class PointOfOrderCmd(Cmd):
    kind: Literal["point_of_order"] = "point_of_order"
    title: str
    text: str = ""
    claims: list[ScoreClaim] = Field(default_factory=list)
    malformed: list[str] = Field(default_factory=list)  # claim lines not in the form (refused)


class JudgeCmd(Cmd):
    """The Emperor's Accept/Reject/Ignore; ``number`` None means "the thread's submission"."""
    kind: Literal["judge"] = "judge"
    verdict: Literal["accept", "reject", "ignore"]
    number: int | None = None
    reason: str | None = None
    area: str | None = None


class ProclamationCmd(Cmd):
    kind: Literal["proclamation"] = "proclamation"
    title: str
    text: str = ""


class DirectiveCmd(Cmd):
    kind: Literal["directive"] = "directive"
    area: str


class RevokeDirectiveCmd(Cmd):
    kind: Literal["revoke_directive"] = "revoke_directive"


class NewDayCmd(Cmd):
    kind: Literal["new_day"] = "new_day"


class RewriteCmd(Cmd):
    """THS rewrites submission N's text to clarify it (rule 3)."""
    kind: Literal["rewrite"] = "rewrite"
    number: int
    text: str


class WhapTivolCmd(Cmd):
    kind: Literal["whap_tivol"] = "whap_tivol"


class SwapCmd(Cmd):
    kind: Literal["swap"] = "swap"
    first: int
    last: int
    partner: str
    partner_first: int
    partner_last: int


class AgreeSwapCmd(Cmd):
    kind: Literal["agree_swap"] = "agree_swap"
    number: int


class ReportCmd(Cmd):
    kind: Literal["report"] = "report"
    player: str


class TagCmd(Cmd):
    kind: Literal["tag"] = "tag"
    player: str
