"""Rule 201: players take turns in alphabetical order by surname; rule 203's circuits of turns.

The surname is the last word of the player's name (docs/contract.md); players with the same surname
are ordered by their whole name, then by address. ``state.players`` is always in turn order.
A circuit is complete when the turn passes from the last player in turn order back to the first.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from email.utils import parseaddr

from engine.context import Context
from engine.inputs import Message
from engine.suber import mechanics
from engine.suber.commands import JoinCmd
from engine.suber.state import SuberPlayer, SuberState
from engine.suber.events import Joined, Turn, UnanimityEnded
from engine.refusal import Refusal

UNANIMOUS_CIRCUITS = 2  # rule 203: unanimity until the end of the second complete circuit


def order_key(player: SuberPlayer) -> tuple[str, str, str]:
    words = player.name.split()
    surname = words[-1] if words else ""
    return (surname.casefold(), player.name.casefold(), player.email)


def seat(state: SuberState, players: Iterable[SuberPlayer]) -> None:
    """Add ``players`` to the game in turn order; nobody has moved yet, so the first is on turn."""
    state.players = sorted([*state.players, *players], key=order_key)  # a new list: the index starts again
    state.turn = state.players[0].email if state.players else None


def from_config(entries: Iterable[str] | str) -> list[SuberPlayer]:
    """``[suber] players``: "Alice Adams <alice@suber.test>" each (a bare address names itself); a
    single string is one player, not one per character."""
    players = []
    for entry in [entries] if isinstance(entries, str) else entries:
        name, email = parseaddr(entry)
        email = email.strip().lower()
        players.append(SuberPlayer(email=email, name=" ".join(name.split()) or email.partition("@")[0]))
    return players


def join_closed(state: SuberState) -> Refusal | None:
    """Why a Join is refused now: players join before the first Proposal (docs/contract.md)."""
    if state.proposals or state.turns_ended:
        return Refusal("players join only before the first proposal; the game is under way", ruleless="house")
    return None


def join(state: SuberState, msg: Message, cmd: JoinCmd, ctx: Context) -> None:
    if state.player(msg.sender) is not None:
        ctx.say(cmd.line, f"{msg.sender} is already a player; nothing changed")
        return
    why = join_closed(state)
    if why is not None:
        ctx.refuse(cmd.line, why, "")
        return
    player = SuberPlayer(email=msg.sender, name=state.name_for(msg.sender, msg.name))
    seat(state, [player])
    state.turn_started = ctx.at
    ctx.emit(Joined(player=player.email, name=player.name, position=state.players.index(player) + 1))
    ctx.say(cmd.line, f"{player.name} joins the game, number {state.players.index(player) + 1} "
            f"in turn order; {state.turn} is on turn")


def previous(state: SuberState, email: str) -> str:
    """The player before ``email`` in turn order (the last before the first)."""
    emails = [p.email for p in state.players]
    return emails[emails.index(email) - 1]


def pass_turn(state: SuberState, at: datetime, ctx: Context) -> None:
    """The turn passes to the next player (201); wrapping round completes a circuit, and rule 203
    drops unanimity at the end of the second unless the rule has been amended or repealed. After a
    turn in which Judgment was invoked, the next begins only with consent (212: ``state.consent``).
    With 201 repealed no rule makes the players alternate: the player on turn stays on turn, and no
    circuit completes (docs/rulings-suber.md)."""
    emails = [p.email for p in state.players]
    i = (emails.index(state.turn) + 1) % len(emails) if state.turn in emails else 0
    if not mechanics.on(state, 201) and state.turn in emails:
        i = emails.index(state.turn)
    state.turn, state.turn_started = emails[i], at
    judged = mechanics.on(state, 212) and any(j.turn == state.turns_ended for j in state.judgments)
    state.consent = [] if judged else None
    state.turns_ended += 1
    if i == 0 and mechanics.on(state, 201):
        state.circuit += 1
        _end_unanimity(state, ctx)
    ctx.emit(Turn(player=state.turn, circuit=state.circuit, turns_ended=state.turns_ended))


def _end_unanimity(state: SuberState, ctx: Context) -> None:
    if state.unanimity and state.circuit > UNANIMOUS_CIRCUITS and mechanics.automatic_change(state):
        state.unanimity = False
        ctx.emit(UnanimityEnded(circuit=state.circuit, rule=203))
