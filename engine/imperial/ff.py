"""Rule 16: GP and FF players, the ``Become FF`` request and the FF cooling bonus.

A GP player's Proposal carrying ``Become FF`` earns no points for being
accepted (a rejection still costs the usual penalty). The change happens when
the Proposal is accepted, its author is neither TIE nor THS, and

    temperature + (post-proposal streak)^3 - entropy >= 300,

where the temperature and the accept streak are those after this Proposal's
own effect on them (rule 12), and the entropy that of the Profile after any
retool in the same Proposal (rule 14 comes first).

The bonus: when an FF player's action takes the temperature from above 290 K
to below 290 K, that player gains fifteen times their Profile Entropy.
"""
from __future__ import annotations

from engine.context import Context
from engine.imperial.scoring import award, describe
from engine.imperial.variables import rule_on
from engine.imperial.state import ImperialPlayer, ImperialState, Submission
from engine.imperial.steps import Outcome
from engine.imperial.events import Category
from engine.refusal import Refusal

THRESHOLD = 300
BONUS_LINE = 290
BONUS_PER_ENTROPY = 15


def entropy(state: ImperialState, player: ImperialPlayer) -> int:
    """Rule 15's Profile Entropy as rule 16 uses it; without rule 15 there is none to subtract (0)."""
    return player.entropy if rule_on(state, 15) else 0


def _asks(state: ImperialState, sub: Submission, out: Outcome) -> ImperialPlayer | None:
    """The GP author of an undiscarded Proposal asking to become FF, if rule 16 is in force."""
    author = state.player(sub.author)
    if (author is None or author.category != "GP" or out.prejudice or out.verdict == "ignore"
            or not rule_on(state, 16, sub.number)
            or not any(r.kind == "become_ff" for r in sub.requests)):
        return None
    return author


def _already_ff(state: ImperialState, sub: Submission) -> bool:
    author = state.player(sub.author)
    return (author is not None and author.category == "FF"
            and any(r.kind == "become_ff" for r in sub.requests))


def forfeit_points(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    """Asking to become FF forfeits the points for the Proposal's acceptance."""
    if out.verdict == "accept" and _asks(state, sub, out) is not None and out.points:
        out.points = 0
        out.notes.append("no points for acceptance: Become FF forfeits them (rule 16)")


def become_ff(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    author = _asks(state, sub, out)
    if author is None and out.verdict == "accept" and _already_ff(state, sub):
        out.notes.append(f"Become FF: {sub.author} is FF already")
    if author is None or out.verdict != "accept":
        return
    request = next(r for r in sub.requests if r.kind == "become_ff")
    if author.email in ctx.config.officers:
        why = "TIE and THS stay GP (rule 16)"
        out.refuse(sub, request, Refusal(f"Become FF not granted: {why}", "16"), why)
        return
    total = state.temperature + state.accept_streak ** 3 - entropy(state, author)
    sum_text = f"{state.temperature} K + {state.accept_streak}^3 - entropy {entropy(state, author)} = {total}"
    if total < THRESHOLD:
        why = f"{sum_text} < {THRESHOLD} (rule 16)"
        out.refuse(sub, request, Refusal(f"Become FF not granted: {why}", "16"), why)
        return
    author.category = "FF"
    ctx.emit(Category(player=author.email, category="FF", submission=sub.number))
    out.notes.append(f"{author.email} is now FF: {sum_text} >= {THRESHOLD}")


def cooling_bonus(state: ImperialState, old: int, new: int, culprit: str | None, ctx: Context) -> None:
    """Observer of every temperature change (``temperature.OBSERVERS``): an FF player's action
    crossing 290 K downwards."""
    player = state.player(culprit) if culprit else None
    if (player is None or player.category != "FF" or not rule_on(state, 16)
            or not old > BONUS_LINE > new):
        return
    delta = award(state, player, BONUS_PER_ENTROPY * entropy(state, player),
                  f"cooled the game from {old} K to {new} K as an FF player (rule 16)", ctx, rule=16)
    ctx.say("", f"FF bonus for {player.email}: the game cooled from {old} K to {new} K, "
                f"15 x entropy {entropy(state, player)}: {describe(delta, player)} (rule 16)")
