"""Rule 20: whapping Tivol.

Only a player whose Profile is not part of the Game Profile (an FF player)
may whap Tivol, and only "instead of making one Proposal": when they could
submit one now without rule 4 ignoring it. Any number of whaps per day.

- The whapper loses a point at 50 or less and gains one at 50 or more (both
  at exactly 50: no change); Tivol whapping himself does not score.
- One chance in five (draw ``day:D:tivol:N:chance`` in [1, 5] = 1) that a
  random raised section (draw ``day:D:tivol:N:section``) is depressed, putting
  a wood chip in the pool; not if the Profile is all depressed or sealed.
- Temperature and streaks move as for a rejected Proposal (rule 12).
"""
from __future__ import annotations

from engine.imperial.commands import WhapTivolCmd
from engine.context import Context
from engine.imperial import judging
from engine.imperial.game_profile import in_game_profile
from engine.imperial.profiles import mask, raised_sections, reshape
from engine.imperial.scoring import describe, set_score
from engine.imperial.submissions import undecided_proposals
from engine.imperial.variables import rule_on
from engine.inputs import Message
from engine.imperial.state import ImperialPlayer, ImperialState
from engine.refusal import Refusal

TIVOL = "tivol"
FIFTY = 50  # rule 20 says fifty, whatever win_score is


def is_tivol(player: ImperialPlayer) -> bool:
    """Tivol is the player named Tivol or whose address is tivol@... (docs/rulings.md, rule 20)."""
    return player.name.lower() == TIVOL or player.email.split("@")[0] == TIVOL


def whap(state: ImperialState, msg: Message, cmd: WhapTivolCmd, ctx: Context) -> None:
    player = state.player(msg.sender)
    why = _refusal(state, player, msg.sender)
    if why:
        ctx.refuse(cmd.line, why)
        return
    assert player is not None
    state.whaps += 1
    label = f"day:{state.game_day}:tivol:{state.whaps}"
    notes = [_score(state, player, ctx), _depress(state, player, label, ctx),
             judging.streak_effect(state, "reject", f"{player.email} whapped Tivol (rule 20)",
                                   player.email, ctx)]
    ctx.say(cmd.line, "Tivol is whapped: " + "; ".join(n for n in notes if n))


def _refusal(state: ImperialState, player: ImperialPlayer | None, sender: str) -> Refusal | None:
    if not rule_on(state, 20):
        return Refusal("rule 20 is not in force", "20")
    if player is None:
        return Refusal("only players may whap Tivol", "20")
    if in_game_profile(state, sender):
        return Refusal("your Profile is part of the Game Profile (you are GP): only FF players may whap Tivol", "20")
    waiting = undecided_proposals(state, player.email)
    if rule_on(state, 4) and waiting >= state.var("queue_limit"):
        return Refusal(f"you have {waiting} undecided Proposals, so you cannot make one now, nor whap Tivol "
                       "instead of one", "4, 20")
    return None


def _score(state: ImperialState, player: ImperialPlayer, ctx: Context) -> str:
    """-1 at fifty or less, +1 at fifty or more: both at exactly fifty.

    Rule 20 states its own gain above fifty, so rule 11's inversion is not
    applied on top (``set_score`` records the change as it is).
    """
    if is_tivol(player):
        return "Tivol whapping himself does not score"
    delta = (player.score >= FIFTY) - (player.score <= FIFTY)
    if delta == 0:
        return f"{player.email} at exactly {FIFTY} loses one point and gains one: no change"
    set_score(state, player, player.score + delta, "whapped Tivol (rule 20)", ctx, rule=20)
    return f"{player.email} {describe(delta, player)}"


def _depress(state: ImperialState, player: ImperialPlayer, label: str, ctx: Context) -> str:
    if ctx.draw(f"{label}:chance", 1, 5) != 1:
        return "no section is depressed (the 1-in-5 chance did not come up)"
    sections = raised_sections(player.profile)
    if not sections:
        return "the 1-in-5 chance came up, but the Profile is completely depressed"
    if player.sealed:
        return "the 1-in-5 chance came up, but the Profile is sealed"
    section = sections[ctx.draw(f"{label}:section", 1, len(sections)) - 1]
    state.woodchips += 1
    change = reshape(player, player.profile & ~mask(section), "depressed whapping Tivol (rule 20)", ctx)
    return f"section {section} is depressed: {change}; a wood chip goes to the pool"
