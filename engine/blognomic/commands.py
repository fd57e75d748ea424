"""BlogNomic's commands, as the mailer reads them out of mail (see declarations.py)."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.blognomic.state import Change, Icon, Kind
from engine.commands import Cmd


class JoinCmd(Cmd):
    kind: Literal["join"] = "join"


class AdmitCmd(Cmd):
    """An Admin's ``Admit PLAYER`` (the applicant becomes a Pactmaker) or ``Refuse PLAYER`` (the
    application is withdrawn)."""
    kind: Literal["admit"] = "admit"
    admit: bool
    player: str


class LeaveCmd(Cmd):
    kind: Literal["leave"] = "leave"


class SubmitCmd(Cmd):
    """A Proposal, CfJ or DoV: the subject's title, the body's text and its change lines."""
    kind: Literal["submit"] = "submit"
    matter: Kind
    title: str
    text: str = ""
    changes: list[Change] = Field(default_factory=list)
    by_hand: bool = False
    co_victors: list[str] = Field(default_factory=list)


class VoteCmd(Cmd):
    """``FOR 3``; ``number`` None: the matter the reply's thread is about."""
    kind: Literal["vote"] = "vote"
    icon: Icon
    number: int | None = None


class AppliedCmd(Cmd):
    """An Admin's ``Applied N: NOTE``: the prose of enacted matter N applied by hand."""
    kind: Literal["applied"] = "applied"
    number: int
    note: str = ""


class ResolveCmd(Cmd):
    """An Admin's ``Enact N`` / ``Fail N``."""
    kind: Literal["resolve"] = "resolve"
    enact: bool
    number: int


class IdleCmd(Cmd):
    """``Idle`` / ``Unidle`` for oneself, or with a player (an Admin's)."""
    kind: Literal["idle"] = "idle"
    idle: bool
    player: str | None = None


class AscensionCmd(Cmd):
    kind: Literal["ascension"] = "ascension"
    theme: str
    keep_rules: list[str] = Field(default_factory=list)
    keep_proposals: list[int] = Field(default_factory=list)
    renames: dict[str, str] = Field(default_factory=dict)  # keyword -> new word


class PassVictoryCmd(Cmd):
    kind: Literal["pass_victory"] = "pass_victory"
    player: str


class StepDownCmd(Cmd):
    kind: Literal["step_down"] = "step_down"


class RollCmd(Cmd):
    """``Roll DICE6``, ``Roll FRUIT``, ``Roll COLOUR`` (109: ``Roll VEGGIE``)."""
    kind: Literal["roll"] = "roll"
    die: str  # "DICE6", "FRUIT", "COLOUR", "VEGGIE"
