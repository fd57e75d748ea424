"""Rules 2, 4, 7 and 8: joining the game, numbering submissions, the queue, titles.

A Proposal that the rules ignore on arrival (rule 4: a full queue; rule 8: no
title) is decided at once through the judgment pipeline (decisions.conclude),
so it carries rule 12's "rejected or ignored" effects like any other ignore.
A Proposal submitted while a Directive binds its author keeps the Directive's
area in ``directive``; it is checked when the Emperor judges it, because the
Emperor may correct its area (rule 3).
"""
from __future__ import annotations

from engine.imperial.commands import PointOfOrderCmd, ProposalCmd
from engine.context import Context
from engine.events import Cause
from engine.imperial import decisions, judging, points_of_order, preview, proclamations, retool
from engine.imperial.profiles import profile_from_email
from engine.imperial.variables import rule_on, value
from engine.inputs import Message
from engine.imperial.state import ImperialPlayer, ImperialState, Submission
from engine.imperial.events import Joined, Submitted
from engine.refusal import Refusal


def _join(state: ImperialState, msg: Message, ctx: Context) -> ImperialPlayer:
    """Rule 2: a person becomes a player with their first Proposal or Point of Order;
    rule 13 issues the Profile (without it, none: 0)."""
    profile = profile_from_email(msg.sender) if rule_on(state, 13) else 0
    player = ImperialPlayer(email=msg.sender, name=state.name_for(msg.sender, msg.name),
                            profile=profile, joined_day=state.game_day)
    state.players.append(player)
    ctx.emit(Joined(player=player.email, name=player.name, profile=player.profile))
    if state.it is None and not ctx.config.first_it and player.email != ctx.config.holder("emperor"):
        state.it = player.email
        player.it_since_day = state.game_day
    return player


def submit(state: ImperialState, msg: Message, cmd: ProposalCmd | PointOfOrderCmd,
           ctx: Context) -> Submission | None:
    """Rule 7: one number sequence for every submission, starting at 1. A newcomer joins with
    it (without rule 2 nobody new does), so joining is among the submission's effects."""
    player = state.player(msg.sender)
    if isinstance(cmd, PointOfOrderCmd) and cmd.malformed:
        ctx.refuse(cmd.line, Refusal(f"{cmd.malformed[0]!r} is not a scoring claim of the form 'Score of PLAYER "
                                     "should be N' (N a whole number; rule 5)", "5"), "nothing submitted")
        return None
    if player is None and not rule_on(state, 2):
        ctx.refuse(cmd.line, Refusal("rule 2 is repealed: nobody new becomes a player, and only players submit", "2"))
        return None
    with ctx.because(Cause("submission", len(state.submissions) + 1)):
        return _record(state, player or _join(state, msg, ctx), msg, cmd, ctx)


def _record(state: ImperialState, player: ImperialPlayer, msg: Message, cmd: ProposalCmd | PointOfOrderCmd,
            ctx: Context) -> Submission:
    # each command's own fields (``getattr`` of a field a model lacks costs an exception)
    proposal = cmd if isinstance(cmd, ProposalCmd) else None
    claims = [c.model_dump() for c in cmd.claims] if isinstance(cmd, PointOfOrderCmd) else []
    number = len(state.submissions) + 1
    sub = Submission(
        number=number, kind=cmd.kind, author=player.email,
        title=cmd.title.strip(), text=cmd.text, message_id=msg.message_id,
        received_at=msg.at, day=state.game_day,
        area=proposal.area if proposal else None, requests=list(proposal.requests) if proposal else [],
        claims=claims, on_probation=player.probation and rule_on(state, 3, number))
    state.submissions.append(sub)
    notes = points_of_order.check_claims(state, sub) if sub.kind == "point_of_order" else []
    ctx.emit(Submitted(number=sub.number, kind=sub.kind, author=sub.author,
                       title=sub.title, status=sub.status, reason=sub.reason))
    if isinstance(cmd, ProposalCmd):
        _arrive(state, player, sub, cmd, ctx)
        return sub
    ctx.say(cmd.line, "; ".join([f"recorded as Point of Order {sub.number}, pending before the Emperor",
                                 *notes]))
    return sub


def _arrive(state: ImperialState, player: ImperialPlayer, sub: Submission, cmd: ProposalCmd, ctx: Context) -> None:
    """A new Proposal: ignored at once by rule 4, 8 or 14, else pending (noting any Directive)."""
    ignored = _ignored_on_arrival(state, player, sub)
    if ignored is not None:
        reason, rule = ignored
        out = decisions.conclude(state, sub, "ignore", ctx, reason=reason, rule=rule, by_engine=True)
        ctx.refuse(cmd.line, Refusal(decisions.summary(sub, out), str(rule)), "")
        return
    line = f"recorded as Proposal {sub.number}, pending before the Emperor"
    changes = proclamations.read_proposal(state, sub)
    sub.preview = preview.of_proposal(state, sub, ctx)
    if changes:
        line += f"; {changes}"
    if state.directive and not player.directive_done and rule_on(state, 3, sub.number):
        sub.directive = state.directive
        fits = judging.area_key(sub.area) == judging.area_key(state.directive)
        line += (f"; the Directive calls for {state.directive!r}: " +
                 ("its area fits" if fits else "it will be ignored unless the Emperor finds it in that area"))
    ctx.say(cmd.line, line + "".join(f"\n{ln}" for ln in (["    If accepted:", *sub.preview] if sub.preview else [])))


def _ignored_on_arrival(state: ImperialState, player: ImperialPlayer, sub: Submission) -> tuple[str, int] | None:
    n = sub.number
    if rule_on(state, 4, n):
        waiting = undecided_proposals(state, player.email, besides=n)
        if waiting >= value(state, "queue_limit", n):
            return f"{player.email} already has {waiting} undecided Proposals", 4
    if rule_on(state, 8, n) and not sub.title:
        return "it has no title", 8
    if rule_on(state, 14, n) and retool.changes_two_sections(state, sub):
        return "it asks to change two or more sections of a Profile", 14
    return None


def undecided_proposals(state: ImperialState, email: str, besides: int | None = None) -> int:
    """Rule 4: how many of ``email``'s Proposals wait on the queue (not counting ``besides``)."""
    return sum(1 for s in state.pending_proposals_of(email) if s.number != besides)
