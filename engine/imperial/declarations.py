"""Imperial Nomic's mail commands (docs/contract.md), each declared once: how mail says it, what it is,
what does it, who may send it, and its rows of the help table."""
from __future__ import annotations

import re
from dataclasses import replace
from functools import partial
from typing import Literal, cast

from engine import absence, membership
from engine.commands import Amend, Cmd, Declaration, Help, Line, Rest, Subject, pattern
from engine.imperial import days, decisions, emperor, proclamations, submissions, swaps, tag, tivol, violence
from engine.imperial.commands import (
    AgreeSwapCmd, DirectiveCmd, JudgeCmd, NewDayCmd, PointOfOrderCmd, ProclamationCmd, ProposalCmd, ReportCmd,
    RevokeDirectiveCmd, RewriteCmd, ScoreClaim, SwapCmd, TagCmd, WhapTivolCmd,
)
from engine.imperial.state import Request

# Lines that are requests inside a Proposal (rules 3, 14, 16, 21), and claims in a Point of Order (rule 5).
REQUESTS: list[tuple[re.Pattern[str], object]] = [
    (pattern(r"^raise\s+section\s+(\d{1,9})$"), lambda m: Request(kind="raise", section=int(m[1]))),
    (pattern(r"^shave\s+section\s+(\d{1,9})$"), lambda m: Request(kind="shave", section=int(m[1]))),
    (pattern(r"^rotate\s+(left|right)$"), lambda m: Request(kind="rotate", direction=m[1].lower())),
    (pattern(r"^sealant$"), lambda m: Request(kind="sealant")),
    (pattern(r"^become\s+ff$"), lambda m: Request(kind="become_ff")),
    (pattern(r"^defend$"), lambda m: Request(kind="defend")),
    (pattern(r"^vandali[sz]e\s+(\S+(?:\s+\S+)*?)\s+section\s+(\d{1,9})$"),
     lambda m: Request(kind="vandalize", target=m[1], section=int(m[2]))),
]
AREA = pattern(r"^area\s*:\s*(.+)$")
CLAIM = pattern(r"^score\s+of\s+(.+?)\s+should\s+be\s+(-?\d{1,9})$")
CLAIM_LIKE = pattern(r"^score\s+of\b")  # a line meant as a claim: refused when not CLAIM, never taken as text


def _proposal(title: str, lines: list[str], text: str) -> ProposalCmd:
    cmd = ProposalCmd(title=title, text=text)
    for line in lines:
        m = AREA.match(line)
        if m:
            cmd.area = m[1].strip()
            continue
        for regex, make in REQUESTS:
            rm = regex.match(line)
            if rm:
                cmd.requests.append(make(rm))  # type: ignore[operator]
                break
    return cmd


def _point(title: str, lines: list[str], text: str) -> PointOfOrderCmd:
    cmd = PointOfOrderCmd(title=title, text=text)
    for line in lines:
        m = CLAIM.match(line)
        if m:
            cmd.claims.append(ScoreClaim(player=m[1].strip(), score=int(m[2])))
        elif CLAIM_LIKE.match(line):
            cmd.malformed.append(line)
    return cmd


def _verdict(word: str) -> Literal["accept", "reject", "ignore"]:
    return cast(Literal["accept", "reject", "ignore"], word.lower())  # the pattern allows only these


def _area(cmd: Cmd, m: re.Match[str]) -> None:
    cmd.area = m[1].strip()  # type: ignore[attr-defined]  # rule 3: the Emperor corrects the area


LIST = {d.kind: d for d in membership.LIST_COMMANDS}
P = "Proposal: TITLE"
EMPEROR = frozenset({"emperor"})
COMMANDS: tuple[Declaration, ...] = (
    Declaration("proposal", ProposalCmd, (Subject(pattern(r"^\s*proposal\s*:\s*(.*)$"), _proposal),),
                submissions.submit, help=(
        Help("Make a Proposal: the subject carries its title, the body its text.", P,
             "The text of your proposal.", "rules 2, 7, 8"),
        Help("Ask for a section of your Profile to be glued up (in a Proposal).", P, "Raise section K", "rule 14"),
        Help("Ask for a raised section to be shaved down (in a Proposal).", P, "Shave section K", "rule 14"),
        Help("Ask for your Profile to be rotated one bit (in a Proposal).", P, "Rotate left", "rule 14"),
        Help("Ask for sealant on your Profile (in a Proposal; costs 6 points).", P, "Sealant", "rule 14"),
        Help("Ask to become a free-floating (FF) player (in a Proposal).", P, "Become FF", "rule 16"),
        Help("Protect your Profile from vandalism (with a Proposal).", P, "Defend", "rule 21"),
        Help("Try to vandalize a raised section of another player's Profile (with a Proposal).", P,
             "Vandalize PLAYER section K", "rule 21"),
        Help("Name the subject area of a Proposal (when a Directive is in force).", P, "Area: AREA", "rule 3"))),
    Declaration("point_of_order", PointOfOrderCmd,
                (Subject(pattern(r"^\s*point\s+of\s+order\s*:\s*(.*)$"), _point),), submissions.submit, help=(
        Help("Raise a Point of Order: an error in the game state, or a scoring claim.",
             "Point of Order: TITLE", "Score of PLAYER should be N", "rule 5"),)),
    Declaration("swap", SwapCmd, (Line(pattern(
        r"^swap\s+sections?\s+(\d{1,9})\s*-\s*(\d{1,9})\s+with\s+(.+?)\s+sections?\s+(\d{1,9})\s*-\s*(\d{1,9})$"),
        lambda m: SwapCmd(first=int(m[1]), last=int(m[2]), partner=m[3].strip(),
                          partner_first=int(m[4]), partner_last=int(m[5]))),), swaps.offer, help=(
        Help("Offer to swap four contiguous sections with another player.", "Swap",
             "Swap sections A-B with PLAYER sections C-D", "rule 14"),)),
    Declaration("agree_swap", AgreeSwapCmd, (Line(pattern(r"^agree\s+swap\s+#?(\d{1,9})$"),
                                                  lambda m: AgreeSwapCmd(number=int(m[1]))),), swaps.agree, help=(
        Help("Agree to swap offer N made to you.", "Swap", "Agree swap N", "rule 14"),)),
    Declaration("report", ReportCmd, (Line(pattern(r"^report\s+(.+)$"), lambda m: ReportCmd(player=m[1].strip())),),
                violence.report, help=(
        Help("Report a Profile one or two bits away from yours.", "Report", "Report PLAYER", "rule 21"),)),
    Declaration("whap_tivol", WhapTivolCmd, (Line(pattern(r"^whap\s+tivol$"), lambda m: WhapTivolCmd()),),
                tivol.whap, help=(Help("Whap Tivol with your Profile (FF players only).", "Whap", "Whap Tivol",
                                       "rule 20"),)),
    Declaration("tag", TagCmd, (Line(pattern(r"^tag\s+(.+)$"), lambda m: TagCmd(player=m[1].strip())),), tag.tag,
                help=(Help("Tag another player It, after It has a Proposal accepted.", "Tag", "Tag PLAYER",
                           "rule 22"),)),
    replace(LIST["subscribe"], handler=partial(membership.subscribe, daily=(
        ", and the Bell Tower's chime at the end of every game day")), help=(
        Help("Join the public list and hear the Bell Tower's chimes.", "Subscribe", "", "rules 3, 19"),)),
    replace(LIST["unsubscribe"], help=(Help("Leave the list.", "Unsubscribe", "", "rule 3"),)),
    replace(LIST["digest"], handler=partial(membership.digest, daily=", and the Bell Tower's chime")),
    LIST["list_post"],
    *absence.ABSENCE_COMMANDS,
    Declaration("judge", JudgeCmd, (
        Line(pattern(r"^(accept|reject|ignore)(?:\s+#?(\d{1,9}))?(?:\s+because\s*:?\s*(.*))?$"),
             lambda m: JudgeCmd(verdict=_verdict(m[1]), number=int(m[2]) if m[2] else None, reason=(m[3] or None))),
        Amend(AREA, "judge", _area)), decisions.judge, offices=EMPEROR, announces="judged", help=(
        Help("Judge submission N.", "Judgment", "Accept N", "rules 3, 11"),
        Help("Reject submission N.", "Judgment", "Reject N", "rules 3, 11"),
        Help("Ignore submission N with a reason.", "Judgment", "Ignore N because REASON", "rule 3"),
        Help("Judge the submission a reply is about: answer the Scribe's mail about it with just the verdict.",
             "Re: ...", "Accept", "rule 3"),
        Help("Correct a Proposal's area while judging it (the line after the judgment).",
             "Judgment", "Accept N\nArea: AREA", "rule 3"))),
    Declaration("proclamation", ProclamationCmd, (Subject(pattern(r"^\s*proclamation\s*:\s*(.*)$"),
                                                          lambda title, lines, text: ProclamationCmd(
                                                              title=title, text=text)),),
                proclamations.proclaim, offices=EMPEROR, announces="proclamation", help=(
        Help("Enact a rule by Proclamation; the lines after it, up to the next change, are its text.",
             "Proclamation: TITLE", "Enact rule N: TITLE", "rules 3, 7"),
        Help("Amend a rule by Proclamation; the lines after it are its new text.",
             "Proclamation: TITLE", "Amend rule N", "rules 3, 7"),
        Help("Repeal a rule by Proclamation: its mechanics stop.", "Proclamation: TITLE", "Repeal rule N", "rule 3"),
        Help("Set a game variable by Proclamation (e.g. accept_points, win_score).",
             "Proclamation: TITLE", "Set NAME = VALUE", "rule 3"),
        Help("Make a Proclamation apply from submission N on (rule 7's \"unless it specifies otherwise\").",
             "Proclamation: TITLE", "From submission N", "rule 7"))),
    Declaration("directive", DirectiveCmd, (Line(pattern(r"^directive\s*:\s*(.+)$"),
                                                 lambda m: DirectiveCmd(area=m[1].strip())),),
                emperor.directive, offices=EMPEROR, announces="directive", help=(
        Help("Call for proposals in an area.", "Directive", "Directive: AREA", "rule 3"),)),
    Declaration("revoke_directive", RevokeDirectiveCmd, (Line(pattern(r"^revoke\s+directive$"),
                                                              lambda m: RevokeDirectiveCmd()),),
                emperor.revoke, offices=EMPEROR, announces="directive", help=(
        Help("Revoke the Directive.", "Directive", "Revoke directive", "rule 3"),)),
    Declaration("new_day", NewDayCmd, (Line(pattern(r"^new\s+day$"), lambda m: NewDayCmd()),), days.new_day,
                offices=EMPEROR, announces="new_day", help=(
        Help("Announce a new game day.", "New day", "New day", "rule 10"),)),
    Declaration("rewrite", RewriteCmd, (Rest(pattern(r"^rewrite\s+#?(\d{1,9})\s*:?\s*$"),
                                             lambda m, rest: RewriteCmd(number=int(m[1]), text=rest)),),
                emperor.rewrite, offices=frozenset({"scribe"}), after_end=True, help=(
        Help("THS: rewrite submission N to clarify it; the lines after it are the new text.",
             "Rewrite", "Rewrite N:", "rule 3"),)),
)
# Not a command: the line that proves an office (mailer/auth.py), shown with the offices' commands.
OFFICE_NOTES = (Help("TIE or THS: prove the office, where the game asks for a passphrase (never quoted back).",
                     "", "Passphrase: WORDS", "rule 1"),)
