"""Rule 21: defending and vandalising with a Proposal; bit-difference reports.

Vandalism (``Vandalize PLAYER section K`` in a Proposal) succeeds when the
Proposal is accepted, the victim's last Proposal (other than this one) was
not accepted or carried no ``Defend``, and the section is raised: it becomes
depressed and a wood chip goes to the pool. A sealed Profile does not change.

Reports (``Report PLAYER``) are recorded during the day and judged against
the Profiles at the end of it, in the order they arrived: the first one whose
two Profiles differ in exactly one or two sections is performed (reporter +3,
the other -3), unless the other of the two pointed it out first that day. Both
limits are the reporter's: each player's reports are
performed once per day, and not twice in succession on the same player.
"""
from __future__ import annotations

from engine.imperial.commands import ReportCmd
from engine.context import Context
from engine.imperial.profiles import SECTIONS, bit_difference, mask, raised, reshape
from engine.imperial.scoring import award
from engine.imperial.variables import rule_on
from engine.inputs import Message
from engine.imperial.state import ImperialPlayer, ImperialState, Report, Request, Submission
from engine.imperial.steps import DayEnd, Outcome
from engine.refusal import Refusal

REPORT_POINTS = 3


def defended(state: ImperialState, victim: ImperialPlayer, besides: int) -> bool:
    """Was the victim's last Proposal (other than number ``besides``) accepted with a Defend?"""
    theirs = [s for s in state.proposals_of(victim.email) if s.number != besides]
    return bool(theirs) and theirs[-1].status == "accepted" and any(
        r.kind == "defend" for r in theirs[-1].requests)


def vandalism(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    if out.verdict != "accept" or out.prejudice or not rule_on(state, 21, sub.number):
        return
    for request in (r for r in sub.requests if r.kind == "vandalize"):
        head = f"vandalism of {request.target} section {request.section or 0}"
        why = _vandal_refusal(state, sub, request)
        if why:
            out.refuse(sub, request, Refusal(f"{head} failed: {why}", "21"), why)
        else:
            out.notes.append(f"{head} succeeded: {_vandalize(state, sub, request, ctx)}")


def _vandal_refusal(state: ImperialState, sub: Submission, request: Request) -> str | None:
    """Why vandalism request ``request`` fails (rule 21), or None."""
    victim, k = state.player(request.target or ""), request.section or 0
    if victim is None:
        return f"{request.target} is not a player"
    if not 1 <= k <= SECTIONS:
        return f"there is no section {k}"
    if defended(state, victim, sub.number):
        return f"{victim.email}'s last Proposal was accepted with a Defend"
    if not raised(victim.profile, k):
        return "the section is depressed"
    if victim.sealed:
        return "the Profile is sealed"
    return None


def _vandalize(state: ImperialState, sub: Submission, request: Request, ctx: Context) -> str:
    """The vandalism itself: the section depressed, a wood chip to the pool; what it did."""
    victim, k = state.player(request.target or ""), request.section or 0
    assert victim is not None
    state.woodchips += 1
    change = reshape(victim, victim.profile & ~mask(k), f"vandalised by {sub.author} (rule 21)", ctx,
                     sub.number)
    return f"{change}; a wood chip goes to the pool"


def report(state: ImperialState, msg: Message, cmd: ReportCmd, ctx: Context) -> None:
    why = _report_refusal(state, msg.sender, cmd.player)
    if why:
        ctx.refuse(cmd.line, why)
        return
    reporter, target = state.player(msg.sender), state.player(cmd.player)
    assert reporter is not None and target is not None
    state.reports.append(Report(number=len(state.reports) + 1, reporter=reporter.email,
                                target=target.email, day=state.game_day))
    now = bit_difference(reporter.profile, target.profile)
    ctx.say(cmd.line, f"report recorded; it is judged on the Profiles at the end of day {state.game_day} "
                      f"(they differ in {now} section{'s' if now != 1 else ''} now)")


def _report_refusal(state: ImperialState, sender: str, who: str) -> Refusal | None:
    reporter, target = state.player(sender), state.player(who)
    if not rule_on(state, 21):
        return Refusal("rule 21 is not in force", "21")
    if reporter is None:
        return Refusal("only players may report", "21")
    if target is None:
        return Refusal(f"{who} is not a player", ruleless="no such")
    if target.email == reporter.email:
        return Refusal("you cannot report yourself", "21")
    if reporter.last_reported == target.email:
        return Refusal(f"your last report was on {target.email}: not twice in succession on the same player", "21")
    if any(r.reporter == reporter.email and r.target == target.email and r.day == state.game_day
           for r in state.reports):
        return Refusal(f"you have already reported {target.email} today", "21")
    return None


def judge_reports(state: ImperialState, day: DayEnd, ctx: Context) -> None:
    """End of day: each reporter's first report that holds is performed; their others are void."""
    for r in (r for r in state.reports if r.day == day.day and r.status == "pending"):
        reporter, target = state.player(r.reporter), state.player(r.target)
        assert reporter is not None and target is not None
        diff = bit_difference(reporter.profile, target.profile)
        first = _first_of_the_two(state, r)
        if first is not None:
            r.status, r.reason = "void", f"{first} pointed it out first"
        elif reporter.last_report_day == day.day:
            r.status, r.reason = "void", f"a report by {r.reporter} was already performed today"
        elif reporter.last_reported == target.email:
            r.status, r.reason = "void", "not twice in succession on the same player"
        elif diff not in (1, 2):
            r.status, r.reason = "void", f"the Profiles differ in {diff} sections"
        else:
            r.status, r.reason = "awarded", f"the Profiles differ in exactly {diff}"
            reporter.last_reported, reporter.last_report_day = target.email, day.day
            cause = f"report {r.number}: {r.reporter} and {r.target} differ in {diff} (rule 21)"
            gain = award(state, reporter, REPORT_POINTS, cause, ctx, rule=21)
            loss = award(state, target, -REPORT_POINTS, cause, ctx, rule=21)
            r.reason += f": {r.reporter} {gain:+d}, {r.target} {loss:+d}"
        day.notes.append(f"report {r.number} by {r.reporter} on {r.target}: {r.status} ({r.reason})")


def _first_of_the_two(state: ImperialState, report: Report) -> str | None:
    """The other player of the pair, if their report on this pair was performed the same day."""
    pair = {report.reporter, report.target}
    return next((r.reporter for r in state.reports if r.day == report.day and r.status == "awarded"
                 and {r.reporter, r.target} == pair), None)
