"""Casting a Vote: ``FOR 3`` anywhere, or a bare ``FOR`` in a reply to a matter's announcement.

Every icon is kept in the matter's ballots, in order; votes.py reads the Vote off them. Self-Kill
and Veto are marked when the icon is used and stay marked (rule "Special Proposal Voting").
"""
from __future__ import annotations

from engine import threads
from engine.blognomic import citing, due
from engine.blognomic.commands import VoteCmd
from engine.blognomic.conditions import label
from engine.blognomic.downtime import REASON, in_downtime
from engine.blognomic.state import Ballot, BlogState, VotableMatter
from engine.blognomic.votes import VALID, Count, count_matter
from engine.context import Context
from engine.inputs import Message
from engine.blognomic.events import Voted
from engine.events import Cause
from engine.refusal import Refusal

SPECIAL = 'rule "Special Proposal Voting"'


def vote(state: BlogState, msg: Message, cmd: VoteCmd, ctx: Context) -> None:
    number = cmd.number if cmd.number is not None else threads.matter_of(state, msg.references,
                                                                         ctx.config.address)
    m = state.matter(number) if number is not None else None
    why = _refusal(state, msg.sender, cmd, m, number) or _downtime(cmd, ctx)
    if why is not None or m is None:
        ctx.refuse(cmd.line, why or Refusal(f"there is no Votable Matter {number}", ruleless="no such"), "no Vote cast")
        return
    m.ballots.append(Ballot(voter=msg.sender, icon=cmd.icon, at=ctx.at))
    _mark(state, m, msg.sender, cmd)
    due.changed(state, m)
    c = count_matter(state, m)
    ctx.emit(Voted(number=m.number, voter=msg.sender, icon=cmd.icon, vote=c.icons.get(msg.sender),
                   tally={"for": c.for_, "against": c.against, "deferential": c.deferential}, quorum=c.quorum,
                   self_killed=m.self_killed, vetoed=m.vetoed), Cause("matter", m.number))
    ctx.say(cmd.line, f"{cmd.icon} on {label(m)} \"{m.title}\"{_note(state, m, msg.sender, cmd, c)}; "
            f"now {c.for_} FOR, {c.against} AGAINST, {c.deferential} DEFERENTIAL (Quorum {c.quorum})")


def _refusal(state: BlogState, sender: str, cmd: VoteCmd, m: VotableMatter | None,
             number: int | None) -> Refusal | None:
    word = state.keywords["Pactmaker"]
    voter = state.player(sender)
    if number is None:
        return citing.refusal(state, f"which matter? Write {cmd.icon} N, or reply to the matter's announcement",
                              "Votes")
    if m is None:
        return Refusal(f"there is no Votable Matter {number}", ruleless="no such")
    if m.status != "pending":
        return Refusal(f"{label(m)} is already {m.status} ({m.tally_line})", ruleless="already")
    if voter is None:
        return citing.refusal(state, f"only a {word} may vote", "Votes")
    if voter.idle:
        return citing.refusal(state, f"an Idle {word} has no Vote (send Unidle first)", "Idle Pactmakers")
    if cmd.icon == "VETO" and sender not in state.seraphims():
        return Refusal(f"only a {state.keywords['Seraphim']} may VETO", "Special Proposal Voting")
    if cmd.icon == "VETO" and m.kind != "proposal":
        return Refusal("VETO is for Proposals only", "Special Proposal Voting")
    return None


def _downtime(cmd: VoteCmd, ctx: Context) -> Refusal | None:
    """VETO is a voting icon of rule "Special Proposal Voting", not of "Votable Matters": the
    Seasonal Downtime forbids it (downtime.py)."""
    if cmd.icon == "VETO" and in_downtime(ctx.at):
        return Refusal(f"{REASON}: VETO (rule \"Special Proposal Voting\") waits until 27 December",
                       "Seasonal Downtime")
    return None


def _mark(state: BlogState, m: VotableMatter, sender: str, cmd: VoteCmd) -> None:
    if m.kind != "proposal":
        return
    if cmd.icon == "AGAINST" and sender == m.author:
        m.self_killed = True
    if cmd.icon == "VETO":
        m.vetoed = True


def _note(state: BlogState, m: VotableMatter, sender: str, cmd: VoteCmd, c: Count) -> str:
    """What the icon did beyond counting, and what stands (rule "Special Proposal Voting")."""
    own = m.kind == "proposal" and sender == m.author
    if cmd.icon == "VETO":
        return f": Vetoed, and it stays Vetoed whatever the Votes ({SPECIAL})"
    if cmd.icon == "AGAINST" and own:
        return f": Self-Killed, and it stays Self-Killed ({SPECIAL})"
    if cmd.icon == "FOR" and own and m.self_killed:
        return f" (it stays Self-Killed: your earlier AGAINST Self-Killed it, {SPECIAL})"
    if cmd.icon != "DEFERENTIAL":
        return ""
    if sender in state.seraphims():
        return f" (a {state.keywords['Seraphim']}'s DEFERENTIAL defers to no one: it is no Vote)"
    shown = c.icons.get(sender)
    if shown in VALID and c.resolved_to is None:
        return (f" (your {shown} stands: a DEFERENTIAL counts only once a quorum of the "
                f"{state.keywords['Seraphim']}s shares a Vote)")
    return ""
