"""Enacting and Failing Votable Matters: by an Admin's ``Enact N`` / ``Fail N``, or automatically
(auto.py); the tally is frozen, the change lines applied, a DoV's consequences drawn."""
from __future__ import annotations

from datetime import datetime, timedelta

from engine.blognomic import changes, citing, dynasty
from engine.blognomic.commands import ResolveCmd
from engine.blognomic.conditions import label, verdict
from engine.blognomic.downtime import REASON
from engine.blognomic.state import BlogState, VotableMatter, iso
from engine.blognomic.votes import count_matter
from engine.context import Context
from engine.inputs import Message
from engine.blognomic.events import Amended, Resolved
from engine.events import Cause
from engine.refusal import Refusal

LOCKOUT = timedelta(hours=120)


def resolve(state: BlogState, m: VotableMatter, enact: bool, line: str, at: datetime, by: str,
            ctx: Context) -> None:
    """Set ``m`` Enacted or Failed at ``at`` with its tally ``line``, and apply what follows."""
    c = count_matter(state, m)
    m.final = c.frozen(state.seraphims())
    m.status = "enacted" if enact else "failed"
    m.resolved_at, m.resolved_by, m.tally_line = at, by, line
    ctx.emit(Resolved(number=m.number, kind=m.kind, title=m.title, author=m.author, status=m.status,
                      tally=line, by=by, at=iso(at)), Cause("matter", m.number))
    if enact and m.kind in ("proposal", "cfj") and m.changes:
        done = changes.apply(state.rules, m.changes, f"{'P' if m.kind == 'proposal' else 'CfJ'}{m.number}", at,
                             m.title, state.parameters)
        ctx.emit(Amended(number=m.number, changes=done, by_hand=m.by_hand), Cause("matter", m.number))
    if m.kind == "dov":
        _dov_resolved(state, m, enact, c.against, c.quorum, at, by, ctx)


def _dov_resolved(state: BlogState, m: VotableMatter, enact: bool, against: int, quorum: int,
                  at: datetime, by: str, ctx: Context) -> None:
    """An enacted DoV fails the others and begins a Dynasty (its Hiatus lasting to the Ascension
    Address); a failed one may lock its author out of DoVs and end the Hiatus."""
    if enact:
        dynasty.begin(state, m, at, ctx)
        for other in state.pending("dov"):
            resolve(state, other, False, f"Failed: {label(m)} was Enacted", at, by, ctx)
        return
    if (against > quorum) if state.edition == "109" else (against >= 1):
        state.dov_lockout[m.author] = at + LOCKOUT
    if not state.pending("dov") and state.dynasty.ascended:
        dynasty.end_hiatus(state, ctx, f"{label(m)} failed")


def by_admin(state: BlogState, msg: Message, cmd: ResolveCmd, ctx: Context) -> None:
    """``Enact N`` / ``Fail N``: as the rules allow at the time the mail was received."""
    m = state.matter(cmd.number)
    if m is None:
        ctx.refuse(cmd.line, Refusal(f"there is no Votable Matter {cmd.number}", ruleless="no such"))
        return
    v = verdict(state, m, ctx.at)
    why = v.enact if cmd.enact else v.fail
    if why is not None:
        rule = "Seasonal Downtime" if why.startswith(REASON) else "Enacting and Failing"
        verb = "Enacted" if cmd.enact else "Failed"
        ctx.refuse(cmd.line, citing.refusal(state, f"{label(m)} may not be {verb}: {why}", rule))
        return
    resolve(state, m, cmd.enact, v.line(cmd.enact), ctx.at, msg.sender, ctx)
    ctx.say(cmd.line, f"{label(m)} \"{m.title}\": {v.line(cmd.enact)}")
