"""Players (1-4): joining with a name, forfeiting, name changes the Registrar recognizes; Active
Players (3-5); the Players of ``[bnomic] players``.

A name is 1-64 of ASCII letters, digits, ``_``, ``-``, ``'`` and spaces, kept with its runs of
spaces as one and no leading or trailing space (Reading 3), so that names compare by the index's
case-insensitive key.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from email.utils import parseaddr

from engine.bnomic.citing import cited
from engine.bnomic import ceasing, ministries
from engine.bnomic.commands import ChangeNameCmd, ForfeitCmd, JoinCmd, RecognizeCmd
from engine.bnomic.events import Joined, Left, Renamed
from engine.bnomic.state import BNomicState, BPlayer
from engine.context import Context
from engine.inputs import Message
from engine.refusal import Refusal

_NAME = re.compile(r"^[A-Za-z0-9_' -]{1,64}$")


def clean(name: str) -> str:
    """A name as compared and kept: optional double quotes off, runs of spaces as one, trimmed."""
    name = name.strip()
    if len(name) >= 2 and name[0] == name[-1] == '"':
        name = name[1:-1]
    return re.sub(r" +", " ", name).strip()


def invalid(name: str) -> str | None:
    """Why ``name`` may not be a Player's name (1-4), or None."""
    if not name:
        return "a Player needs a name (1-4): send 'Join as NAME'"
    if not _NAME.match(name):
        return "a name is 1 to 64 letters, digits, spaces, '_', '-' or \"'\" (1-4)"
    return None


def find(state: BNomicState, who: str) -> BPlayer | None:
    """The Player an address or a name (Reading 3) names."""
    who = who.strip()
    return state.player(who if "@" in who else clean(who))


def from_config(entries: Iterable[str] | str) -> list[BPlayer]:
    """``[bnomic] players``: "Name <address>" each (a bare address names itself)."""
    out = []
    for entry in [entries] if isinstance(entries, str) else entries:
        name, email = parseaddr(entry)
        email = email.strip().lower()
        out.append(BPlayer(email=email, name=" ".join(name.split()) or email.partition("@")[0]))
    return out


def join(state: BNomicState, msg: Message, cmd: JoinCmd, ctx: Context) -> None:
    name = clean(cmd.name)
    if (already := state.player(msg.sender)) is not None:
        ctx.refuse(cmd.line, Refusal(f"you are already a Player ({already.name})", ruleless="already"))
    elif (why := invalid(name)) is not None:
        ctx.refuse(cmd.line, cited(why, "1-4"))
    elif state.player(name) is not None:
        ctx.refuse(cmd.line, Refusal(f"the name {name} is taken", "1-4"))
    else:
        add(state, msg.sender, name, ctx)
        ctx.say(cmd.line, f"{name} is a Player: m50, 0 points, 10 Hit Points, Vote Power 0, not Active")


def add(state: BNomicState, email: str, name: str, ctx: Context) -> None:
    """A new Player with the defaults (1-4): m50, 0 points, 10 Hit Points, Vote Power 0, not Active."""
    state.players.append(BPlayer(email=email, name=name, joined_nday_changes=state.clock.nday_changes))
    ctx.emit(Joined(player=email, name=name))


def remove(state: BNomicState, player: BPlayer, how: str, ctx: Context) -> None:
    """``player`` is no longer a Player; his Ministries become Vacant."""
    state.players = [p for p in state.players if p.email != player.email]  # a new list: the index restarts
    ctx.emit(Left(player=player.email, name=player.name, how=how))  # type: ignore[arg-type]
    for m in state.ministries:
        if m.holder == player.email:
            ministries.assign(state, m, None, "left", ctx)
    ceasing.cease_without_players(state, ctx)


def forfeit(state: BNomicState, msg: Message, cmd: ForfeitCmd, ctx: Context) -> None:
    player = state.player(msg.sender)
    if player is None:
        ctx.refuse(cmd.line, Refusal("you are not a Player", "1-4"))
        return
    remove(state, player, "forfeit", ctx)
    ctx.say(cmd.line, f"{player.name} has forfeited and is no longer a Player")


def change_name(state: BNomicState, msg: Message, cmd: ChangeNameCmd, ctx: Context) -> None:
    player = state.player(msg.sender)
    old, new = clean(cmd.old), clean(cmd.new)
    if player is None:
        ctx.refuse(cmd.line, Refusal("you are not a Player", "1-4"))
    elif old.lower() != player.name.lower():
        ctx.refuse(cmd.line, Refusal(f"your name is {player.name}, not {old}", "1-4"))
    elif (why := invalid(new)) is not None:
        ctx.refuse(cmd.line, cited(why, "1-4"))
    else:
        player.pending_name = new
        ctx.say(cmd.line, f"{player.name} asks to be known as {new}: it takes effect when the Registrar "
                "recognizes it (1-4)")


def recognize(state: BNomicState, msg: Message, cmd: RecognizeCmd, ctx: Context) -> None:
    player = find(state, cmd.player)
    if player is None:
        ctx.refuse(cmd.line, Refusal(f"there is no Player {cmd.player}", ruleless="no such"))
    elif player.pending_name is None:
        ctx.refuse(cmd.line, Refusal(f"{player.name} has asked for no name change", "1-4"))
    elif (taken := state.player(player.pending_name)) is not None and taken is not player:
        ctx.refuse(cmd.line, Refusal(f"the name {player.pending_name} is taken", "1-4"))
    else:
        old, player.name, player.pending_name = player.name, player.pending_name, None
        state.players = list(state.players)  # a name changed: the index restarts
        ctx.emit(Renamed(player=player.email, old=old, new=player.name))
        ctx.say(cmd.line, f"{old} is now known as {player.name}")


def new_nweek(state: BNomicState) -> None:
    """3-5: at the beginning of each nweek, those who voted in the previous nweek are Active."""
    for p in state.players:
        p.active, p.voted_this_nweek = p.voted_this_nweek, False
