"""Rule 22: Tag. Who is It, what It and Inactive players may not do, tagging, time-outs.

- It is ``offices.first_it`` from the start, else the first player to join.
- It and Inactive players may not perform any game action other than
  submitting Proposals: no Points of Order, swaps, reports or whaps
  (``ACTIONS``); the answer says why and nothing changes.
- ``Tag PLAYER`` from It, on the game day one of its Proposals was accepted,
  names the next It; the transfer happens at the end of that day. An active
  player may not tag an Inactive one; TIE may not be It.
- Every change of It cools the game by 15 K (the tagger's action, for rule 16).
- It named on day d who submits no Proposal on days d..d+4 becomes Inactive at
  the end of day d+4, and It passes to the next player down the list (from the
  bottom: the topmost player who is not TIE or THS). A player tagged or passed
  It at the end of a day is named on the next day.
- An Inactive player's first accepted Proposal makes them active again and
  earns no points.
"""
from __future__ import annotations

from engine.imperial.commands import TagCmd
from engine.context import Context
from engine.imperial import temperature
from engine.imperial.variables import rule_on
from engine.inputs import Message
from engine.imperial.state import ImperialPlayer, ImperialState, Submission
from engine.imperial.steps import DayEnd, Outcome
from engine.imperial.events import Active, Inactive, It
from engine.refusal import Refusal

ACTIONS = {"point_of_order", "whap_tivol", "swap", "agree_swap", "report"}
IT_DROP = 15
TIMEOUT_DAYS = 5


def refusal(state: ImperialState, email: str, kind: str) -> Refusal | None:
    """Why ``email`` may not do ``kind`` now (rule 22), or None."""
    if kind not in ACTIONS or not rule_on(state, 22):
        return None
    player = state.player(email)
    if player is not None and not player.active:
        return Refusal("you are on Inactive status: an Inactive player may not perform any game action other "
                       "than submitting Proposals", "22")
    if state.it == email:
        return Refusal("you are It: It may not perform any game action other than submitting Proposals", "22")
    return None


def named_day(state: ImperialState) -> int:
    """The game day the current It was named (day 1 for offices.first_it)."""
    player = state.player(state.it) if state.it else None
    return player.it_since_day if player and player.it_since_day else 1


def tag(state: ImperialState, msg: Message, cmd: TagCmd, ctx: Context) -> None:
    why = _tag_refusal(state, msg.sender, cmd.player, ctx)
    if why:
        ctx.refuse(cmd.line, why)
        return
    target = state.player(cmd.player)
    assert target is not None
    state.it_next = target.email
    ctx.say(cmd.line, f"{target.email} becomes It at the end of day {state.game_day}")


def _tag_refusal(state: ImperialState, sender: str, who: str, ctx: Context) -> Refusal | None:
    tagger, target = state.player(sender), state.player(who)
    if not rule_on(state, 22):
        return Refusal("rule 22 is not in force", "22")
    if state.it != sender or tagger is None:
        return Refusal(f"only It may tag, and It is {state.it or 'nobody'}", "22")
    if not tagger.active:
        return Refusal("an Inactive player may not tag", "22")
    if not any(s.status == "accepted" and s.judged_day == state.game_day
               for s in state.proposals_of(sender)):
        return Refusal("It may tag only on the game day one of its Proposals is accepted", "22")
    if state.it_next is not None:
        return Refusal(f"you have already tagged {state.it_next} today", "22")
    if target is None:
        return Refusal(f"{who} is not a player", ruleless="no such")
    if target.email == sender:
        return Refusal("you cannot tag yourself", "22")
    if target.email == ctx.config.holder("emperor"):
        return Refusal("TIE may not be It", "22")
    if not target.active:
        return Refusal(f"{target.email} is on Inactive status and may not be tagged It by an active player", "22")
    return None


def name_it(state: ImperialState, email: str, day: int, why: str, culprit: str | None, ctx: Context) -> str:
    """Make ``email`` It from game day ``day``; returns the answer/chime line."""
    old = state.it
    if old and (previous := state.player(old)) is not None:
        previous.it_since_day = None
    state.it = email
    new = state.player(email)
    if new is not None:
        new.it_since_day = day
    ctx.emit(It(player=email, previous=old, day=day, why=why))
    line = f"{email} is It ({why})"
    if old != email:
        line += "; " + temperature.change(state, -IT_DROP, "a change of It (rule 22)", culprit, ctx)
    return line


def transfer(state: ImperialState, day: DayEnd, ctx: Context) -> None:
    """End of day: a tag made today takes effect."""
    target, state.it_next = state.it_next, None
    if target and rule_on(state, 22):
        tagger = state.it
        day.notes.append(name_it(state, target, day.day + 1, f"tagged by {tagger}", tagger, ctx))


def time_out(state: ImperialState, day: DayEnd, ctx: Context) -> None:
    """End of day: It who has not submitted a Proposal in five game days becomes Inactive."""
    if not state.it or not rule_on(state, 22):
        return
    since = named_day(state)
    if day.day != since + TIMEOUT_DAYS - 1 or any(s.day >= since for s in state.proposals_of(state.it)):
        return
    player = state.player(state.it)
    note = f"{state.it} submitted no Proposal in {TIMEOUT_DAYS} game days as It"
    if player is not None:
        player.active = False
        ctx.emit(Inactive(player=player.email, day=day.day))
        note += ": placed on Inactive status (rule 22)"
    day.notes.append(note)
    successor = _next_down(state, state.it, ctx)
    if successor is not None:
        day.notes.append(name_it(state, successor.email, day.day + 1, "passed down the list", None, ctx))


def _next_down(state: ImperialState, email: str, ctx: Context) -> ImperialPlayer | None:
    """The player below ``email`` in the list; from the bottom, the topmost who is not TIE or THS."""
    emails = [p.email for p in state.players]
    below = state.players[emails.index(email) + 1:] if email in emails else []
    for p in below:
        if p.email != ctx.config.holder("emperor"):
            return p
    return next((p for p in state.players if p.email not in ctx.config.officers), None)


def restore(state: ImperialState, sub: Submission, out: Outcome, ctx: Context) -> None:
    """An Inactive player's first accepted Proposal restores them, without points."""
    author = state.player(sub.author)
    if (author is None or author.active or out.verdict != "accept" or out.prejudice
            or not rule_on(state, 22, sub.number)):
        return
    author.active = True
    out.points = 0
    ctx.emit(Active(player=author.email, submission=sub.number))
    out.notes.append(f"{author.email} is active again, without points for this Proposal (rule 22)")
