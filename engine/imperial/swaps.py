"""Rule 14: two consenting players swap exactly four contiguous sections.

``Swap sections A-B with PLAYER sections C-D`` records offer N (B = A + 3,
D = C + 3, all within 1..16); the partner's ``Agree swap N`` carries it out on
the Profiles as they are then: each player's four sections are replaced by the
other's four. A sealed Profile cannot take part (its sections may not change).
"""
from __future__ import annotations

from engine.imperial.commands import AgreeSwapCmd, SwapCmd
from engine.context import Context
from engine.imperial.profiles import SECTIONS, put_window, reshape, window
from engine.imperial.variables import rule_on
from engine.inputs import Message
from engine.imperial.state import ImperialPlayer, ImperialState, Swap
from engine.imperial.events import SwapOffered
from engine.refusal import Refusal

WIDTH = 4


def offer(state: ImperialState, msg: Message, cmd: SwapCmd, ctx: Context) -> None:
    proposer, partner = state.player(msg.sender), state.player(cmd.partner)
    why = _offer_refusal(state, proposer, partner, cmd)
    if why:
        ctx.refuse(cmd.line, why)
        return
    assert proposer is not None and partner is not None
    swap = Swap(number=len(state.swaps) + 1, proposer=proposer.email, partner=partner.email,
                first=cmd.first, partner_first=cmd.partner_first, made_day=state.game_day)
    state.swaps.append(swap)
    ctx.emit(SwapOffered(number=swap.number, proposer=swap.proposer, partner=swap.partner,
                         sections=f"{cmd.first}-{cmd.last}",
                         partner_sections=f"{cmd.partner_first}-{cmd.partner_last}"))
    ctx.say(cmd.line, f"swap offer {swap.number} recorded; it happens when {partner.email} "
                      f"sends 'Agree swap {swap.number}'")


def _offer_refusal(state: ImperialState, proposer: ImperialPlayer | None, partner: ImperialPlayer | None,
                   cmd: SwapCmd) -> Refusal | None:
    if not rule_on(state, 14):
        return Refusal("rule 14 is not in force", "14")
    if proposer is None:
        return Refusal("only players may swap sections", "14")
    if partner is None:
        return Refusal(f"{cmd.partner} is not a player", ruleless="no such")
    if partner.email == proposer.email:
        return Refusal("a swap takes two players", "14")
    for first, last in ((cmd.first, cmd.last), (cmd.partner_first, cmd.partner_last)):
        if not (1 <= first and last <= SECTIONS and last - first == WIDTH - 1):
            return Refusal(f"sections {first}-{last} are not exactly {WIDTH} contiguous sections "
                           f"between 1 and {SECTIONS}", "14")
    return _sealed(proposer, partner)


def _sealed(*players: ImperialPlayer) -> Refusal | None:
    for p in players:
        if p.sealed:
            return Refusal(f"{p.email}'s Profile is sealed: its sections may not change", "14")
    return None


def agree(state: ImperialState, msg: Message, cmd: AgreeSwapCmd, ctx: Context) -> None:
    swap = next((s for s in state.swaps if s.number == cmd.number), None)
    why = _agree_refusal(state, swap, msg.sender, cmd.number)
    if why:
        ctx.refuse(cmd.line, why)
        return
    assert swap is not None
    proposer, partner = state.player(swap.proposer), state.player(swap.partner)
    assert proposer is not None and partner is not None
    mine, theirs = window(proposer.profile, swap.first), window(partner.profile, swap.partner_first)
    cause = f"swap {swap.number} (rule 14)"
    changes = [reshape(proposer, put_window(proposer.profile, swap.first, theirs), cause, ctx),
               reshape(partner, put_window(partner.profile, swap.partner_first, mine), cause, ctx)]
    swap.status, swap.done_day = "done", state.game_day
    ctx.say(cmd.line, f"swap {swap.number} done: {proposer.email} {changes[0]}; "
                      f"{partner.email} {changes[1]}")


def _agree_refusal(state: ImperialState, swap: Swap | None, sender: str, number: int) -> Refusal | None:
    if not rule_on(state, 14):
        return Refusal("rule 14 is not in force", "14")
    if swap is None:
        return Refusal(f"there is no swap offer {number}", ruleless="no such")
    if swap.partner != sender:
        return Refusal(f"swap offer {number} awaits the consent of {swap.partner}, not yours", "14")
    if swap.status == "done":
        return Refusal(f"swap {number} was already done on day {swap.done_day}", ruleless="already")
    proposer, partner = state.player(swap.proposer), state.player(swap.partner)
    assert proposer is not None and partner is not None
    return _sealed(proposer, partner)
