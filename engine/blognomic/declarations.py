"""BlogNomic's mail commands (docs/contract.md, "BlogNomic"), each declared once: how mail says it,
what it is, what does it, who may send it, and its rows of the help table."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import cast

from engine import absence, membership
from engine.blognomic import ballots, by_hand, dynasty, players, resolution, rolls, submissions
from engine.blognomic.changes import read_changes
from engine.blognomic.commands import (
    AdmitCmd, AppliedCmd, AscensionCmd, IdleCmd, JoinCmd, LeaveCmd, PassVictoryCmd, ResolveCmd, RollCmd, StepDownCmd, SubmitCmd, VoteCmd,
)
from engine.blognomic.state import Icon, Kind
from engine.commands import Declaration, Help, Line, Subject, pattern

CO_VICTORS = pattern(r"^co-?victors?\s*:\s*(.+)$")
KEEP_RULE = pattern(r'^keep\s+rule\s+["“]([^"”]{1,200})["”]$')
KEEP_PROPOSAL = pattern(r"^keep\s+proposal\s+#?(\d{1,9})$")
RENAME = pattern(r"^rename\s+(\w{1,40})\s+to\s+(\w{1,40})$")
ADMINS = frozenset({"admins"})


def _submission(kind: Kind) -> Callable[[str, list[str], str], SubmitCmd]:
    def build(title: str, lines: list[str], text: str) -> SubmitCmd:
        changes, prose = read_changes(text)
        co = [name.strip() for line in lines if (m := CO_VICTORS.match(line)) for name in m[1].split(",")]
        return SubmitCmd(matter=kind, title=title, text=text, changes=changes, by_hand=prose,
                         co_victors=[c for c in co if c])
    return build


def _ascension(title: str, lines: list[str], text: str) -> AscensionCmd:
    cmd = AscensionCmd(theme=title)
    for line in lines:
        if m := KEEP_RULE.match(line):
            cmd.keep_rules.append(m[1].strip())
        elif m := KEEP_PROPOSAL.match(line):
            cmd.keep_proposals.append(int(m[1]))
        elif m := RENAME.match(line):
            cmd.renames[m[1]] = m[2]
    return cmd


def _vote(m: re.Match[str]) -> VoteCmd:
    return VoteCmd(icon=cast(Icon, m[1].upper()), number=int(m[2]) if m[2] else None)


def _idle(m: re.Match[str]) -> IdleCmd:
    return IdleCmd(idle=m[1].lower() == "idle", player=m[2].strip() if m[2] else None)


P, CFJ, DOV, AA = "Proposal: TITLE", "Call for Judgement: TITLE", "Declaration of Victory: TITLE", \
    "Ascension Address: THEME"
COMMANDS: tuple[Declaration, ...] = (
    Declaration("submit", SubmitCmd, (
        Subject(pattern(r"^\s*proposal\s*:\s*(.*)$"), _submission("proposal")),
        Subject(pattern(r"^\s*(?:call\s+for\s+judge?ment|cfj)\s*:\s*(.*)$"), _submission("cfj")),
        Subject(pattern(r"^\s*(?:declaration\s+of\s+victory|dov)\s*:\s*(.*)$"), _submission("dov"))),
        submissions.submit, help=(
        Help("Make a Proposal (not with 2 pending, nor a 4th in a UTC day); the body is its text.", P,
             "The text of your proposal.", "Proposals"),
        Help("A change applied when the Proposal is enacted (the text runs on to the next change line).", P,
             'Enact rule "NAME": TEXT', "Resolution of Proposals"),
        Help("Give a rule new text when the Proposal is enacted.", P, 'Amend rule "NAME": TEXT',
             "Resolution of Proposals"),
        Help("Repeal a rule when the Proposal is enacted.", P, 'Repeal rule "NAME"', "Resolution of Proposals"),
        Help("Raise a Call for Judgement.", CFJ, "", "Calls for Judgement"),
        Help("Declare victory (the game goes into Hiatus); name any co-Victors.", DOV, "Co-Victors: NAME, NAME",
             "Victory and Ascension"))),
    Declaration("vote", VoteCmd, (
        Line(pattern(r"^(for|against|deferential|veto)(?:\s+#?(\d{1,9}))?$"), _vote),), ballots.vote, help=(
        Help("Vote on matter N (your Vote is the last FOR or AGAINST you cast).", "Vote", "FOR N", "Votes"),
        Help("Vote against matter N (on your own Proposal: it is Self-Killed).", "Vote", "AGAINST N", "Votes"),
        Help("Defer to the Seraphims on matter N.", "Vote", "DEFERENTIAL N", "Votes"),
        Help("Veto Proposal N (Seraphims).", "Vote", "VETO N", "Special Proposal Voting"),
        Help("Vote on the matter a reply is about.", "Re: ...", "FOR", "Votes"))),
    Declaration("applied", AppliedCmd, (Line(pattern(r"^applied\s+#?(\d{1,9})\s*(?::\s*(.*))?$"),
                                             lambda m: AppliedCmd(number=int(m[1]), note=(m[2] or "").strip())),),
                by_hand.applied, offices=ADMINS, help=(
        Help("Say that you applied the prose of enacted matter N by hand (what no change line does).",
             "Applied", "Applied N: WHAT YOU DID", "Votable Matters"),)),
    Declaration("resolve", ResolveCmd, (
        Line(pattern(r"^(enact|fail)\s+#?(\d{1,9})$"),
             lambda m: ResolveCmd(enact=m[1].lower() == "enact", number=int(m[2]))),),
        resolution.by_admin, offices=ADMINS, announces="resolved", help=(
        Help("Enact matter N, if the rules allow it now.", "Resolve", "Enact N", "Enacting and Failing"),
        Help("Fail matter N, if the rules allow it now.", "Resolve", "Fail N", "Enacting and Failing"))),
    Declaration("join", JoinCmd, (Line(pattern(r"^join$"), lambda m: JoinCmd()),), players.join, help=(
        Help("Apply to become a Pactmaker: an Admin adds you to the roster (at once where the game sets "
             "admission = \"auto\").", "Join", "Join", "Pactmakers"),)),
    Declaration("admit", AdmitCmd, (Line(pattern(r"^(admit|refuse)\s+(.{1,200})$"),
                                         lambda m: AdmitCmd(admit=m[1].lower() == "admit", player=m[2].strip())),),
                players.admit, offices=ADMINS, help=(
        Help("Add an applicant to the roster (Admins): they become a Pactmaker.", "Admission", "Admit PLAYER",
             "Pactmakers"),
        Help("Withdraw an application (Admins); the applicant is told and may apply again.", "Admission",
             "Refuse PLAYER", "Pactmakers"))),
    Declaration("leave", LeaveCmd, (Line(pattern(r"^leave$"), lambda m: LeaveCmd()),), players.leave, help=(
        Help("Cease to be a Pactmaker (no rejoining for two weeks).", "Leave", "Leave", "Pactmakers"),)),
    Declaration("idle", IdleCmd, (Line(pattern(r"^(idle|unidle)(?:\s+(.+))?$"), _idle),), players.idle, help=(
        Help("Go Idle, or come back.", "Idle", "Idle", "Idle Pactmakers"),
        Help("Come back from Idle (not within four days of going Idle).", "Unidle", "Unidle", "Idle Pactmakers"),
        Help("Idle a Pactmaker silent for seven days, or unidle one who asked (Admins).", "Idling",
             "Idle PLAYER", "Idle Pactmakers"))),
    Declaration("ascension", AscensionCmd, (Subject(pattern(r"^\s*ascension\s+address\s*:\s*(.*)$"), _ascension),),
                dynasty.ascension, help=(
        Help("End the Hiatus with the new Dynasty's theme (a Seraphim of the new Dynasty); the rest is repealed "
             "and failed.", AA, 'Keep rule "NAME"', "Victory and Ascension"),
        Help("Keep a pending Proposal through the Ascension Address.", AA, "Keep proposal N",
             "Victory and Ascension"),
        Help("Rename a keyword throughout the ruleset.", AA, "Rename Pactmaker to WORD", "Victory and Ascension"))),
    Declaration("pass_victory", PassVictoryCmd, (Line(pattern(r"^pass\s+victory\s+to\s+(.+)$"),
                                                      lambda m: PassVictoryCmd(player=m[1].strip())),),
                dynasty.pass_victory, help=(
        Help("Pass the role of Seraphim to another (a Victor who won alone).", "Victory",
             "Pass victory to PLAYER", "Victory and Ascension"),)),
    Declaration("step_down", StepDownCmd, (Line(pattern(r"^step\s+down$"), lambda m: StepDownCmd()),),
                dynasty.step_down, help=(
        Help("Step down from heading the new Dynasty (a collective victory).", "Victory", "Step down",
             "Victory and Ascension"),)),
    Declaration("roll", RollCmd, (Line(pattern(r"^roll\s+(dice\d{1,9}|fruit|colou?r|veggie)$"),
                                       lambda m: RollCmd(die=m[1].upper())),), rolls.roll, help=(
        Help("Roll a die (or FRUIT, COLOUR) as a seeded, public draw.", "Roll", "Roll DICE6", "Random Generators"),)),
    *membership.LIST_COMMANDS,
    replace(absence.ABSENCE_COMMANDS[0], handler=partial(absence.away, offer=(
        "; to be Idle under the rules as well (not counted for Quorum), send Idle"))),
    absence.ABSENCE_COMMANDS[1],
)
OFFICE_NOTES = (Help("Admins: prove the office, where the game asks for a passphrase (never quoted back).",
                     "", "Passphrase: WORDS", "Pactmakers"),)
