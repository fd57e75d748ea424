"""Proposals (2-2): submitted by any Player with a Body (Reading 15), numbered on the Chairman's
behalf (numbering.py), revised and withdrawn by their Author while Pending.

Body lines ``Conflicts: N, N`` and ``Depends on: N, N`` (or ``Dependencies:``) name existing
Proposal Numbers; a number that is no proposal's refuses the proposal, which then takes no key and
no number.
"""
from __future__ import annotations

import re

from engine.bnomic.citing import cited
from engine.bnomic import amounts, changes, numbering, preview, voting
from engine.bnomic.commands import ProposalCmd, WithdrawCmd
from engine.bnomic.events import Proposed, Withdrawn
from engine.bnomic.state import BNomicState, Proposal
from engine.context import Context
from engine.events import Cause
from engine.inputs import Message
from engine.refusal import Refusal

_NUMBERS = re.compile(r"^\s*#?(\d{1,9})(?:\s*,\s*#?(\d{1,9}))*\s*$")


class Refused(Exception):
    pass


def _lists(state: BNomicState, body: str) -> tuple[list[int], list[int]]:
    """The Conflicts and the Dependencies a Body names."""
    found: dict[str, list[int]] = {"conflicts": [], "dependencies": []}
    for line in body.splitlines():
        m = changes.LISTS.match(line)
        if m is None:
            continue
        if not _NUMBERS.match(m[2]):
            raise Refused(f"'{line.strip()}' must list Proposal Numbers, e.g. '{m[1]}: 3, 5'")
        key = "conflicts" if m[1].lower() == "conflicts" else "dependencies"
        for n in (int(x) for x in re.findall(r"\d+", m[2])):
            if state.proposal(n) is None:
                raise Refused(f"there is no proposal {n} (Reading 15)")
            if n not in found[key]:
                found[key].append(n)
    return found["conflicts"], found["dependencies"]


def _read(state: BNomicState, cmd: ProposalCmd) -> tuple[str, list[int], list[int]]:
    body = cmd.text.strip()
    if not body:
        raise Refused("a proposal needs a Body (2-2, Reading 15)")
    conflicts, dependencies = _lists(state, body)
    for c in changes.parse(body):
        if c.kind == "set":
            try:
                changes.setting(c)
            except changes.Refused as why:
                raise Refused(f"'{c.line[:80]}': {why}") from None
    return body, conflicts, dependencies


def _how_read(p: Proposal) -> str:
    """The change lines as read and, for a rule change, the preview of what Passing would do."""
    lines = "; ".join(c.line for c in p.changes)
    return (f"{len(p.changes)} change line{'s' * (len(p.changes) != 1)}" + (f" ({lines})" if lines else "")
            + ("; if it Passes:\n" + "\n".join(p.preview) if p.preview else ""))


def _previewed(state: BNomicState, p: Proposal, ctx: Context) -> None:
    p.preview = preview.lines(state, p, ctx) if preview.changes_rules(p) else []


def propose(state: BNomicState, msg: Message, cmd: ProposalCmd, ctx: Context) -> None:
    if cmd.revise is not None:
        revise(state, msg, cmd, ctx)
        return
    try:
        body, conflicts, dependencies = _read(state, cmd)
    except Refused as why:
        ctx.refuse(cmd.line, cited(str(why), "2-2"), "nothing done, no number given")
        return
    key = len(state.proposals) + 1
    p = Proposal(key=key, author=msg.sender, title=cmd.title.strip() or f"Proposal {key}", body=body,
                 conflicts=conflicts, dependencies=dependencies, changes=changes.parse(body),
                 message_id=msg.message_id, received_at=msg.at)
    _previewed(state, p, ctx)
    state.proposals.append(p)
    with ctx.because(Cause("proposal", key)):
        if state.ministry("change").holder is not None and numbering.automatic(ctx):  # type: ignore[union-attr]
            numbering.number_all(state, ctx)
        ctx.emit(Proposed(key=key, number=p.number, author=p.author, title=p.title, revised=False))
    number = f"proposal {p.number}" if p.number is not None else "a proposal, to be numbered by the Chairman"
    ctx.say(cmd.line, f"{number}, Pending; {_how_read(p)}")


def _own_pending(state: BNomicState, sender: str, number: int) -> Proposal:
    p = state.proposal(number)
    if p is None:
        raise Refused(f"there is no proposal {number}")
    if p.author != sender:
        raise Refused(f"proposal {number} is {p.author}'s")
    if p.status != "pending":
        raise Refused(f"proposal {number} is {p.status.capitalize()}, not Pending")
    return p


def revise(state: BNomicState, msg: Message, cmd: ProposalCmd, ctx: Context) -> None:
    assert cmd.revise is not None
    try:
        p = _own_pending(state, msg.sender, cmd.revise)
        body, conflicts, dependencies = _read(state, cmd)
    except Refused as why:
        ctx.refuse(cmd.line, cited(str(why), "2-2"))
        return
    p.title, p.body, p.conflicts, p.dependencies = cmd.title.strip() or p.title, body, conflicts, dependencies
    p.changes = changes.parse(body)
    _previewed(state, p, ctx)
    ctx.emit(Proposed(key=p.key, number=p.number, author=p.author, title=p.title, revised=True),
             Cause("proposal", p.key))
    ctx.say(cmd.line, f"proposal {p.number} revised; its number and votes stay; {_how_read(p)}")


def withdraw(state: BNomicState, msg: Message, cmd: WithdrawCmd, ctx: Context) -> None:
    try:
        p = _own_pending(state, msg.sender, cmd.number)
    except Refused as why:
        ctx.refuse(cmd.line, cited(str(why), "2-2"))
        return
    with ctx.because(Cause("proposal", p.key)):
        p.status, p.success, p.withdrawn = "historical", "lost", True
        ctx.emit(Withdrawn(key=p.key, number=p.number))
        voting.score(state, [p], amounts.count({p.key: p.votes}, state.vote_powers()), ctx)
    ctx.say(cmd.line, f"proposal {p.number} withdrawn: Historical and Lost, scored (2-6)")
