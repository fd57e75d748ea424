"""Rule 5: Points of Order, and their scoring claims (``Score of PLAYER should be N``).

When a claim arrives the engine checks it against the public record (the
ledger) and says so in the answer; the Emperor rules. ``Accept N`` on a Point
of Order with claims fixes each claimed score to the claimed value and gives
the reporter as many points as the error (none for an error affecting only
themselves); without claims it is a valid non-scoring error worth 1 point.
``Reject N`` and ``Ignore N because ...`` change no score.
"""
from __future__ import annotations

from typing import Any

from engine.imperial.commands import JudgeCmd
from engine.context import Context
from engine.events import Cause
from engine.imperial.scoring import award, describe, ledger_score, set_score
from engine.imperial.variables import rule_on, value
from engine.imperial.state import ImperialState, Submission
from engine.imperial.events import Judged

STATUS = {"accept": "accepted", "reject": "rejected", "ignore": "ignored"}


def check_claims(state: ImperialState, sub: Submission) -> list[str]:
    """On submission: what the ledger says about each claim (recorded in the claim as ``recorded``)."""
    notes = []
    for claim in sub.claims:
        player = state.player(claim["player"])
        if player is None:
            claim["recorded"] = None
            notes.append(f"claim about {claim['player']}: there is no such player")
            continue
        claim["player"] = player.email
        claim["recorded"] = ledger_score(state, player.email)
        verdict = "agrees" if claim["recorded"] == claim["score"] else "disagrees"
        notes.append(f"the ledger gives {player.email} {claim['recorded']} points; "
                     f"the claim of {claim['score']} {verdict}")
    return notes


def judge(state: ImperialState, sub: Submission, cmd: JudgeCmd, ctx: Context) -> None:
    state.decide(sub, STATUS[cmd.verdict])  # type: ignore[arg-type]
    sub.judged_at, sub.judged_day = ctx.at, state.game_day
    if cmd.reason:
        sub.reason = f"the Emperor: {cmd.reason.strip()}"
    with ctx.because(Cause("submission", sub.number)):
        notes = _accept(state, sub, ctx) if cmd.verdict == "accept" else []
        ctx.emit(Judged(number=sub.number, verdict=cmd.verdict, status=sub.status, reason=sub.reason,
                        points=0, prejudice=False, by_engine=False))
    head = f"Point of Order {sub.number} {sub.status}" + (f" ({sub.reason})" if sub.reason else "")
    ctx.say(cmd.line, head + (": " + "; ".join(notes) if notes else ""))


def _accept(state: ImperialState, sub: Submission, ctx: Context) -> list[str]:
    reporter = state.player(sub.author)
    if reporter is None or not rule_on(state, 5, sub.number):
        return []
    if not sub.claims:
        delta = award(state, reporter, value(state, "point_of_order_points", sub.number),
                      f"Point of Order {sub.number}: a valid non-scoring error (rule 5)", ctx,
                      rule=5, submission=sub.number)
        return [f"{reporter.email} {describe(delta, reporter)}"]
    return [note for claim in sub.claims for note in _fix(state, sub, claim, ctx)]


def _fix(state: ImperialState, sub: Submission, claim: dict[str, Any], ctx: Context) -> list[str]:
    """Fix one claimed score; the reporter earns the size of the error unless it is their own."""
    player = state.player(claim["player"])
    reporter = state.player(sub.author)
    if player is None or reporter is None:
        return [f"claim about {claim['player']}: there is no such player"]
    error = claim["score"] - player.score
    if error == 0:
        return [f"{player.email} already has {player.score} points"]
    set_score(state, player, claim["score"], f"Point of Order {sub.number}: score fixed (rule 5)",
              ctx, rule=5, submission=sub.number)
    notes = [f"{player.email}'s score is fixed to {player.score}"]
    if player.email != reporter.email:
        delta = award(state, reporter, abs(error),
                      f"Point of Order {sub.number}: pointed out an error of {abs(error)} (rule 5)",
                      ctx, rule=5, submission=sub.number)
        notes.append(f"{reporter.email} {describe(delta, reporter)}")
    return notes
