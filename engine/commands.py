"""Commands: what a message asks the game to do, already parsed out of mail.

The mailer turns mail text into these; the engine never sees raw mail.
Every command has a ``kind`` so a list of them round-trips through JSON.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from engine.state import Request


class _Cmd(BaseModel):
    model_config = ConfigDict(extra="forbid")
    line: str = ""  # the text it was read from, quoted back in answers


class ScoreClaim(BaseModel):
    player: str
    score: int


class ProposalCmd(_Cmd):
    kind: Literal["proposal"] = "proposal"
    title: str
    text: str = ""
    area: str | None = None
    requests: list[Request] = Field(default_factory=list)


class PointOfOrderCmd(_Cmd):
    kind: Literal["point_of_order"] = "point_of_order"
    title: str
    text: str = ""
    claims: list[ScoreClaim] = Field(default_factory=list)


class JudgeCmd(_Cmd):
    """The Emperor's Accept/Reject/Ignore; ``number`` None means "the thread's submission"."""
    kind: Literal["judge"] = "judge"
    verdict: Literal["accept", "reject", "ignore"]
    number: int | None = None
    reason: str | None = None
    area: str | None = None


class ProclamationCmd(_Cmd):
    kind: Literal["proclamation"] = "proclamation"
    title: str
    text: str = ""


class DirectiveCmd(_Cmd):
    kind: Literal["directive"] = "directive"
    area: str


class RevokeDirectiveCmd(_Cmd):
    kind: Literal["revoke_directive"] = "revoke_directive"


class NewDayCmd(_Cmd):
    kind: Literal["new_day"] = "new_day"


class RewriteCmd(_Cmd):
    """THS rewrites submission N's text to clarify it (rule 3)."""
    kind: Literal["rewrite"] = "rewrite"
    number: int
    text: str


class WhapTivolCmd(_Cmd):
    kind: Literal["whap_tivol"] = "whap_tivol"


class SwapCmd(_Cmd):
    kind: Literal["swap"] = "swap"
    first: int
    last: int
    partner: str
    partner_first: int
    partner_last: int


class AgreeSwapCmd(_Cmd):
    kind: Literal["agree_swap"] = "agree_swap"
    number: int


class ReportCmd(_Cmd):
    kind: Literal["report"] = "report"
    player: str


class TagCmd(_Cmd):
    kind: Literal["tag"] = "tag"
    player: str


class SubscribeCmd(_Cmd):
    kind: Literal["subscribe"] = "subscribe"


class UnsubscribeCmd(_Cmd):
    kind: Literal["unsubscribe"] = "unsubscribe"


class DigestCmd(_Cmd):
    kind: Literal["digest"] = "digest"
    on: bool
    plain: bool = False  # "Digest plain": the RFC 1153 text digest instead of MIME


class ListPostCmd(_Cmd):
    """A post to the players' list (mail addressed to ``list_address``)."""
    kind: Literal["list_post"] = "list_post"
    subject: str = ""
    passphrase: bool = False  # it carries a "Passphrase:" line, which must never reach the members


Command = Annotated[
    Union[
        ProposalCmd, PointOfOrderCmd, JudgeCmd, ProclamationCmd, DirectiveCmd,
        RevokeDirectiveCmd, NewDayCmd, RewriteCmd, WhapTivolCmd, SwapCmd,
        AgreeSwapCmd, ReportCmd, TagCmd, SubscribeCmd, UnsubscribeCmd, DigestCmd,
        ListPostCmd,
    ],
    Field(discriminator="kind"),
]
