"""Rule 14: retooling one section, rotations, wood chips and sealant, decided with the Proposal.

A retool request (``Raise section K``, ``Shave section K``, ``Rotate left|right``)
rides on a Proposal. When the Emperor decides it:

- a request that cannot be granted (a raise of a raised or a shave of a
  depressed section, no such section; an accepted raise with an empty
  wood-chip pool) is not granted, and the Proposal scores as if it had not
  carried it;
- accepted: the points are one less than usual (+2), the Profile changes, a
  shave puts a chip in the pool and a raise takes one;
- rejected: the penalty is one less than usual (-1), and one of the other
  fifteen sections (any of the sixteen for a rotation) flips at random,
  without touching the pool;
- a sealed Profile does not change; the points are those of a retool.

A Proposal asking to change two or more sections of one Profile is ignored.
"""
from __future__ import annotations

from collections import Counter

from engine.context import Context
from engine.imperial.profiles import SECTIONS, flip, raised, reshape, rotate
from engine.imperial.scoring import award, describe
from engine.imperial.variables import rule_on
from engine.imperial.state import ImperialPlayer, ImperialState, Request, Submission
from engine.imperial.steps import DayEnd, Outcome
from engine.refusal import Refusal

RETOOL = ("raise", "shave", "rotate")
SEALANT_COST = 6
SEALANT_DAYS = 4


def retool_request(sub: Submission) -> Request | None:
    return next((r for r in sub.requests if r.kind in RETOOL), None)


def _changed_profile(state: ImperialState, sub: Submission, request: Request) -> str:
    """Whose Profile a section request changes: the author's, or the victim's for vandalism."""
    if request.kind != "vandalize":
        return sub.author
    victim = state.player(request.target or "")
    return victim.email if victim else (request.target or "").strip().lower()


def changes_two_sections(state: ImperialState, sub: Submission) -> bool:
    """Rule 14: does the Proposal ask to change two or more sections of one Profile?

    A rotation is one request; requests against different Profiles (a retool
    and a vandalism) do not add up.
    """
    per_profile = Counter(_changed_profile(state, sub, r) for r in sub.requests
                          if r.kind in (*RETOOL, "vandalize"))
    return bool(per_profile) and max(per_profile.values()) >= 2


def refusal(state: ImperialState, player: ImperialPlayer, request: Request, verdict: str) -> str | None:
    """Why a retool request cannot be granted now, or None.

    The empty pool stops only a raise that would be granted: a rejected raise
    takes rule 14's rejection clause (one less penalty, a random flip).
    """
    if request.kind == "rotate":
        return None
    k = request.section or 0
    if not 1 <= k <= SECTIONS:
        return f"there is no section {k} (sections are 1 to {SECTIONS})"
    if request.kind == "raise":
        if raised(player.profile, k):
            return f"section {k} is already raised"
        if state.woodchips == 0 and verdict == "accept":
            return "the pool of wood chips is empty"
    elif not raised(player.profile, k):
        return f"section {k} is already depressed"
    return None


def _applicable(state: ImperialState, sub: Submission, out: Outcome) -> tuple[ImperialPlayer, Request] | None:
    """The author and their retool request, if rule 14 acts on this decision."""
    request = retool_request(sub)
    author = state.player(sub.author)
    if (request is None or author is None or out.prejudice or out.verdict == "ignore"
            or not rule_on(state, 14, sub.number)):
        return None
    return author, request


def retool_points(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    """One point less than the usual bonus or penalty; a request not granted says why."""
    applicable = _applicable(state, sub, out)
    if applicable is None:
        return
    author, request = applicable
    why = refusal(state, author, request, out.verdict)
    if why:
        out.refuse(sub, request, Refusal(f"{request.kind} not granted: {why}", "14"), why)
    elif out.verdict == "accept" and out.points > 0:
        out.points -= 1
        out.points_why.append("one point less for the retool request (rule 14)")
    elif out.verdict == "reject" and out.points < 0:
        out.points += 1
        out.points_why.append("one point less penalty for the retool request (rule 14)")


def retool_profile(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    applicable = _applicable(state, sub, out)
    if applicable is None or refusal(state, *applicable, out.verdict):
        return
    author, request = applicable
    if author.sealed:
        out.refuse(sub, request, Refusal("the Profile is sealed: it does not change", "14"), "the Profile is sealed")
        return
    new, what = _retooled(state, sub, author.profile, request, out, ctx)
    out.notes.append(f"{what}: " + reshape(author, new, f"{what} (rule 14)", ctx, sub.number))


def _retooled(state: ImperialState, sub: Submission, profile: int, request: Request, out: Outcome,
              ctx: Context) -> tuple[int, str]:
    """The new Profile and what was done to it; a granted raise or shave moves a wood chip."""
    if out.verdict == "reject":
        section = _random_other_section(state, sub, request, ctx)
        return flip(profile, section), f"section {section} flipped at random"
    if request.kind == "rotate":
        return rotate(profile, request.direction or "left"), f"rotated {request.direction}"
    state.woodchips += 1 if request.kind == "shave" else -1
    return flip(profile, request.section or 0), f"section {request.section} {request.kind}d"


def _random_other_section(state: ImperialState, sub: Submission, request: Request, ctx: Context) -> int:
    others = [s for s in range(1, SECTIONS + 1) if s != request.section]
    return others[ctx.draw(f"day:{state.game_day}:retool-flip:{sub.number}", 1, len(others)) - 1]


def sealant(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    """Granted with an accepted Proposal: -6 now; sealed from the next game day for four days."""
    author = state.player(sub.author)
    request = next((r for r in sub.requests if r.kind == "sealant"), None)
    if author is None or out.verdict != "accept" or out.prejudice or not rule_on(state, 14, sub.number) or not request:
        return
    if author.sealed_until is not None:
        why = f"already sealed until the end of day {author.sealed_until}"
        out.refuse(sub, request, Refusal(f"sealant not granted: {why}", "14"), why)
        return
    delta = award(state, author, -SEALANT_COST, f"sealant (rule 14), Proposal {sub.number}", ctx,
                  rule=14, submission=sub.number)
    author.sealed_from, author.sealed_until = state.game_day + 1, state.game_day + SEALANT_DAYS
    out.notes.append(f"sealant granted: {describe(delta, author)}; sealed from day {author.sealed_from} "
                     f"to the end of day {author.sealed_until}")


def sealant_starts(state: ImperialState, day: DayEnd, ctx: Context) -> None:
    """Start of day: a sealant granted yesterday takes effect."""
    for p in state.players:
        if p.sealed_from == state.game_day and not p.sealed:
            p.sealed = True
            day.notes.append(f"{p.email}'s Profile is sealed until the end of day {p.sealed_until}")


def sealant_expires(state: ImperialState, day: DayEnd, ctx: Context) -> None:
    """End of the fourth sealed day: the sealant wears off."""
    for p in state.players:
        if p.sealed_until is not None and p.sealed_until <= day.day:
            p.sealed, p.sealed_from, p.sealed_until = False, None, None
            day.notes.append(f"the sealant on {p.email}'s Profile wears off")
