"""The players' list membership, for any ruleset: Subscribe, Unsubscribe, Digest on/off, list posts.

Pure: a command from an authenticated sender updates ``state.subscribers`` at
once and emits a ``Subscription`` event; a post to the list emits ``ListPost``
(engine/events.py), which the mailer turns into copies for the members. Subscriptions confirmed on
the website reach the engine the same way: the web handler journals a
synthetic, authenticated "Subscribe" message (see mailer/web.py).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from engine.commands import Declaration, DigestCmd, Help, Line, ListPostCmd, SubscribeCmd, UnsubscribeCmd, pattern
from engine.context import Context, EngineConfig
from engine.events import ListPost, Subscription
from engine.inputs import Message
from engine.state import GameState, Player, Subscriber
from engine.refusal import Refusal


def member(state: GameState[Any], address: str) -> Subscriber | None:
    return state.subscriber(address)


def _now(ctx: Context) -> datetime:
    """The step's time to the second: unsubscribe links are stamped to the second (mailer/tokens.py)."""
    return ctx.at.replace(microsecond=0)


def _mode(sub: Subscriber) -> str:
    if not sub.digest:
        return "every post"
    return "a daily plain-text digest" if sub.plain else "a daily digest"


def subscribe(state: GameState[Any], msg: Message, cmd: SubscribeCmd, ctx: Context, *, daily: str = "") -> None:
    """``daily``: what else a member gets, as the ruleset names it (", and the Bell Tower's chime ...")."""
    sub = member(state, msg.sender)
    if sub is not None:  # the event still tells the mailer to resume delivery stopped by bounces
        ctx.emit(Subscription(address=sub.email, action="renew", digest=sub.digest))
        ctx.say(cmd.line, f"{msg.sender} is already subscribed ({_mode(sub)})")
        return
    sub = Subscriber(email=msg.sender, since=_now(ctx))
    state.subscribers.append(sub)
    ctx.emit(Subscription(address=sub.email, action="subscribe", digest=sub.digest))
    ctx.say(cmd.line, f"{sub.email} is subscribed to {ctx.config.list_address}: every post{daily}")


def subscribe_new_players(state: GameState[Any], known: list[Player], ctx: Context) -> None:
    """Whoever became a player in this step (is not in ``known``) is subscribed, every post, unless
    already a member or the step said otherwise for them (an ``Unsubscribe`` or ``Digest`` in the
    same message emits its own ``Subscription``)."""
    spoken = {e.data.get("address") for e in ctx.events if e.kind == Subscription.KIND}
    old = {p.email for p in known}
    for player in (p for p in state.players if p.email not in old):
        if player.email not in spoken and _joins(state, player.email, ctx.config):
            state.subscribers.append(Subscriber(email=player.email, since=_now(ctx)))
            ctx.emit(Subscription(address=player.email, action="subscribe", digest=False))


def subscribe_first_players(state: GameState[Any], config: EngineConfig) -> None:
    """The players a game starts with (Suber's ``[suber] players``) are members from its start."""
    for player in state.players:
        if _joins(state, player.email, config):
            state.subscribers.append(Subscriber(email=player.email, since=config.start.replace(microsecond=0)))


def _joins(state: GameState[Any], address: str, config: EngineConfig) -> bool:
    """Is ``address`` a player to subscribe: not a member yet, not the game's own address (Imperial's
    THS is a player at the address the game answers from), and no officer (the Emperor, an Admin:
    what is theirs to act on comes as their own copy, kind ``officer``/``emperor``)?"""
    return (member(state, address) is None and address not in (config.address, config.list_address)
            and address not in config.officers)


def unsubscribe(state: GameState[Any], msg: Message, cmd: UnsubscribeCmd, ctx: Context) -> None:
    sub = member(state, msg.sender)
    if sub is None:
        ctx.refuse(cmd.line, Refusal(f"{msg.sender} is not subscribed", ruleless="already"), "nothing changed")
        return
    state.subscribers = [s for s in state.subscribers if s is not sub]  # a new list: the index starts again
    ctx.emit(Subscription(address=sub.email, action="unsubscribe", digest=sub.digest))
    ctx.say(cmd.line, f"{sub.email} is unsubscribed from {ctx.config.list_address}")


def digest(state: GameState[Any], msg: Message, cmd: DigestCmd, ctx: Context, *, daily: str = "") -> None:
    """``Digest on`` (MIME) or ``Digest plain`` (RFC 1153) subscribes a non-member straight into digest delivery;
    ``daily`` as for ``subscribe``."""
    sub = member(state, msg.sender)
    if sub is None and not cmd.on:
        ctx.refuse(cmd.line, Refusal(f"{msg.sender} is not subscribed", ruleless="already"), "nothing changed")
        return
    if sub is None:
        sub = Subscriber(email=msg.sender, digest=True, plain=cmd.plain, since=_now(ctx))
        state.subscribers.append(sub)
        ctx.emit(Subscription(address=sub.email, action="subscribe", digest=True))
    elif (sub.digest, sub.plain and sub.digest) == (cmd.on, cmd.plain and cmd.on):
        ctx.say(cmd.line, f"{sub.email} already gets {_mode(sub)}; nothing changed")
        return
    else:
        sub.digest, sub.plain = cmd.on, cmd.plain and cmd.on
        ctx.emit(Subscription(address=sub.email, action="digest", digest=sub.digest))
    ctx.say(cmd.line, f"{sub.email} now gets {_mode(sub)} from {ctx.config.list_address}{daily}")


def list_post(state: GameState[Any], msg: Message, cmd: ListPostCmd, ctx: Context) -> None:
    """Only members, players and the officers may post; automatic mail (bounces, auto-replies, list mail) never is."""
    reason = None
    if msg.automatic:
        reason = "automatic mail (a bounce, an auto-reply or list mail) is never posted"
    elif cmd.passphrase:
        reason = ("it carries a Passphrase line, which would reach every member and the archive; "
                  "send the list a copy without it")
    elif (member(state, msg.sender) is None and state.player(msg.sender) is None
          and msg.sender not in ctx.config.officers):
        reason = "only members of the list and players may post"
    ctx.emit(ListPost(sender=msg.sender, subject=cmd.subject, message_id=msg.message_id,
                      accepted=reason is None, reason=reason))


# The list's commands, the same in every ruleset (a post to the list is read by the address it went to,
# not by a pattern: mailer/grammar.py makes it).
LIST_COMMANDS: tuple[Declaration, ...] = (
    Declaration("subscribe", SubscribeCmd, (Line(pattern(r"^subscribe$"), lambda m: SubscribeCmd()),), subscribe,
                after_end=True, help=(Help("Join the public list and hear the game's daily mail.", "Subscribe"),)),
    Declaration("unsubscribe", UnsubscribeCmd, (Line(pattern(r"^unsubscribe$"), lambda m: UnsubscribeCmd()),),
                unsubscribe, after_end=True, help=(Help("Leave the list.", "Unsubscribe"),)),
    Declaration("digest", DigestCmd, (
        Line(pattern(r"^digest\s+(on|off)$"), lambda m: DigestCmd(on=m[1].lower() == "on")),
        Line(pattern(r"^digest\s+(plain|mime)$"), lambda m: DigestCmd(on=True, plain=m[1].lower() == "plain"))),
        digest, after_end=True, help=(
            Help("Get the list as one daily digest instead of every message.", "Digest on"),
            Help("Get the daily digest as plain text (RFC 1153) rather than MIME.", "Digest plain"),
            Help("Get every list message again.", "Digest off"))),
    Declaration("list_post", ListPostCmd, (), list_post, after_end=True, help=()),
)
