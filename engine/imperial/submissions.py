"""Rules 2, 7 and 8: joining the game, numbering submissions, titles."""
from __future__ import annotations

from engine.commands import PointOfOrderCmd, ProposalCmd
from engine.context import Context
from engine.imperial.profiles import profile_from_email
from engine.inputs import Message
from engine.state import GameState, Player, Submission


def join(state: GameState, msg: Message, ctx: Context) -> Player:
    """Rule 2: a person becomes a player with their first Proposal or Point of Order."""
    player = state.player(msg.sender)
    if player is None:
        player = Player(email=msg.sender, name=msg.name or msg.sender.split("@")[0],
                        profile=profile_from_email(msg.sender), joined_day=state.game_day)
        state.players.append(player)
        ctx.emit("joined", player=player.email, name=player.name, profile=player.profile)
        if state.it is None and not ctx.config.first_it and player.email != ctx.config.emperor:
            state.it = player.email
            player.it_since_day = state.game_day
    return player


def submit(state: GameState, msg: Message, cmd: ProposalCmd | PointOfOrderCmd,
           ctx: Context) -> Submission:
    """Rule 7: one number sequence for every submission, starting at 1."""
    player = join(state, msg, ctx)
    sub = Submission(
        number=len(state.submissions) + 1, kind=cmd.kind, author=player.email,
        title=cmd.title.strip(), text=cmd.text, message_id=msg.message_id,
        received_at=msg.at, day=state.game_day,
        area=getattr(cmd, "area", None), requests=list(getattr(cmd, "requests", [])),
        claims=[c.model_dump() for c in getattr(cmd, "claims", [])])
    state.submissions.append(sub)
    if not sub.title:
        ignore(sub, "it has no title", rule=8)
    ctx.emit("submitted", number=sub.number, kind=sub.kind, author=sub.author,
             title=sub.title, status=sub.status, reason=sub.reason)
    what = "Proposal" if sub.kind == "proposal" else "Point of Order"
    if sub.status == "ignored":
        ctx.say(cmd.line, f"{what} {sub.number} is ignored: {sub.reason}", ok=False)
    else:
        ctx.say(cmd.line, f"recorded as {what} {sub.number}, pending before the Emperor")
    return sub


def ignore(sub: Submission, reason: str, rule: int | None) -> None:
    sub.status = "ignored"
    sub.reason = f"{reason} (rule {rule})" if rule else reason
    sub.rule = rule
