"""Rules 3, 11 and 12: the steps of a decided Proposal.

Every decided Proposal, whether the Emperor judged it or the engine ignored it
(rules 3, 4, 8), runs through ``pipelines.PROPOSAL_STEPS`` in order
(``decisions.conclude``), sharing one ``steps.Outcome``. The order is rule 6's "proposals are processed" moment, lowest
rule first (rule 7):

1. ``check_directive`` (rule 3): outside the Directive's area -> ignored
2. ``check_probation`` (rule 3): a rejection on Probation -> ignored with prejudice
3. ``base_points`` (rule 11): +accept_points / -reject_points / 0
4. ``record_verdict``: the submission's status, reason and rule
5. ``award_points`` (rule 11): the author's score changes by ``outcome.points``
6. ``streak_heat`` (rule 12): streak effects on the temperature, streak counters
7. ``track_probation``, ``track_directive`` (rule 3), ``track_last_accepted``

Rules 13-22 have their own steps between these; the complete order is the literal list
in ``engine/imperial/pipelines.py``. To add a step, write ``def step(state, sub, outcome, ctx) -> None``
and list it there where it belongs.

A step that changes points edits ``outcome.points``; one that must not act on a
prejudiced Proposal checks ``outcome.prejudice`` (no change to the game state at
all); one that adds to the answer appends to ``outcome.notes``.
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

from engine.context import Context
from engine.imperial import temperature
from engine.imperial.scoring import award, describe
from engine.imperial.state import ImperialState, Submission
from engine.imperial.steps import Outcome, Verdict
from engine.imperial.variables import rule_on, value

STATUS: dict[str, str] = {"accept": "accepted", "reject": "rejected", "ignore": "ignored"}


def area_key(area: str | None) -> str:
    return " ".join((area or "").lower().split())


def check_directive(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    """Rule 3: submitted under a Directive, outside its area -> ignored."""
    if sub.directive is None or out.verdict == "ignore" or not rule_on(state, 3, sub.number):
        return
    if area_key(sub.area) != area_key(sub.directive):
        area = f"area {sub.area!r}" if sub.area else "no area"
        out.verdict, out.rule = "ignore", 3
        out.reason = f"submitted under the Directive {sub.directive!r} with {area}"


def check_probation(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    """Rule 3: a Proposal *made* on Probation that would be rejected is ignored with prejudice
    (one made before its author was placed on Probation is rejected as usual)."""
    if out.verdict == "reject" and sub.on_probation and rule_on(state, 3, sub.number):
        out.verdict, out.rule, out.prejudice = "ignore", 3, True
        out.reason = "ignored with prejudice: its author was on Probation when it was made"


def base_points(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    """Rule 11: +3 accepted, -2 rejected, 0 ignored (as the variables stood for this number)."""
    if not rule_on(state, 11, sub.number) or out.prejudice:
        out.points = 0
    elif out.verdict == "accept":
        out.points = value(state, "accept_points", sub.number)
    elif out.verdict == "reject":
        out.points = -value(state, "reject_points", sub.number)
    else:
        out.points = 0


def record_verdict(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    state.decide(sub, STATUS[out.verdict])  # type: ignore[arg-type]
    sub.prejudice = out.prejudice
    sub.judged_at, sub.judged_day = ctx.at, state.game_day
    if out.verdict == "ignore":
        sub.reason = f"{out.reason} (rule {out.rule})" if out.rule else out.reason
        sub.rule = out.rule
    else:
        sub.reason = out.reason  # the Emperor's "because ..." on an Accept or Reject, if any


def award_points(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    author = state.player(sub.author)
    if author is None or out.prejudice:
        return
    delta = award(state, author, out.points, f"Proposal {sub.number} {sub.status}", ctx,
                  rule=11, submission=sub.number, also=", ".join(out.points_why))
    out.notes.append(describe(delta, author))


def streak_heat(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    """Rule 12's streak effect of a decided Proposal (skipped with prejudice)."""
    if not out.prejudice:
        out.notes.append(streak_effect(state, out.verdict, f"Proposal {sub.number} {sub.status}",
                                       sub.author, ctx, number=sub.number))


def streak_effect(state: ImperialState, verdict: Verdict, cause: str, culprit: str, ctx: Context,
                  number: int | None = None) -> str:
    """Rule 12, literally: accepted +min(accept streak, 10); rejected or ignored -max(reject streak, 5).

    The streaks count the Proposals decided before this one, in the order
    they were decided; an ignored Proposal breaks both streaks. Whapping Tivol
    (rule 20) has this effect as a rejection. Returns the answer's note.
    """
    if verdict == "accept":
        delta = min(state.accept_streak, value(state, "accept_heat_cap", number))
        state.accept_streak, state.reject_streak = state.accept_streak + 1, 0
    else:
        delta = -max(state.reject_streak, value(state, "reject_cool_floor", number))
        state.reject_streak = state.reject_streak + 1 if verdict == "reject" else 0
        state.accept_streak = 0
    if not rule_on(state, 12, number):
        return ""
    return temperature.change(state, delta, cause, culprit, ctx)


def track_probation(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    """Rule 3: two consecutive rejections -> Probation; three accepted since -> free again.

    "Consecutive" is in the order the Proposals were made: the author's
    Proposals by number (those ignored with prejudice were never made), so
    rejections of P1 and P3 around a P2 that is pending or not rejected are no
    run, whatever order TIE judged them in. Proposals that put a player on
    Probation do not count towards the next time. Release counts acceptances
    since the placement, in the order they happen.
    """
    author = state.player(sub.author)
    if author is None or out.prejudice or not rule_on(state, 3, sub.number):
        return
    if out.verdict == "accept" and author.probation:
        author.accepted_since_probation += 1
        if author.accepted_since_probation >= value(state, "probation_release", sub.number):
            author.probation, author.accepted_since_probation = False, 0
            out.notes.append(f"{author.email} is off Probation")
    run = rejection_run(state, author.email, sub.number, author.counted_after)
    author.reject_run = len(run)
    if len(run) >= value(state, "probation_rejections", sub.number) and not author.probation:
        author.probation, author.accepted_since_probation, author.reject_run = True, 0, 0
        author.counted_after = run[-1]
        out.notes.append(f"{author.email} is placed on Probation (Proposals "
                         + ", ".join(map(str, run)) + " rejected)")


def rejection_run(state: ImperialState, email: str, number: int, after: int) -> list[int]:
    """The numbers of the run of rejected Proposals of ``email`` (by number) through ``number``:
    counting only those after ``after`` and not ignored with prejudice.

    Walks out from ``number`` (found by bisection) as far as the run goes, not over every
    Proposal the author ever made: a prolific author's every decision would cost more and more."""
    numbers, subs = state.proposal_numbers(email), state.submissions
    at = bisect_left(numbers, number)
    if at == len(numbers) or numbers[at] != number:
        return []
    decided = subs[number - 1]
    if not _counted(decided, after) or decided.status != "rejected":
        return []
    before = _run((subs[numbers[i] - 1] for i in range(at - 1, -1, -1)), after)
    later = _run((subs[numbers[i] - 1] for i in range(at + 1, len(numbers))), after)
    return [s.number for s in (*reversed(before), decided, *later)]


def _run(made: Iterable[Submission], after: int) -> list[Submission]:
    """The rejected Proposals counted from the start of ``made`` (nearest first) up to the first
    counted one that is not rejected."""
    run = []
    for s in made:
        if s.number <= after:
            break
        if s.prejudice:
            continue
        if s.status != "rejected":
            break
        run.append(s)
    return run


def _counted(s: Submission, after: int) -> bool:
    return s.number > after and not s.prejudice


def track_directive(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    """Rule 3: a Proposal accepted in the Directive's area frees its author from the Directive."""
    author = state.player(sub.author)
    if (author and out.verdict == "accept" and state.directive
            and area_key(sub.area) == area_key(state.directive)):
        author.directive_done = True


def track_last_accepted(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    if out.verdict == "accept":
        state.last_accepted_author = sub.author
