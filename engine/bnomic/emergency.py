"""Rule 0's Panic Buttons and the State of Emergency: who the PEPs are, their buttons, and what the
number of buttons On brings about (the Threat Flag, 3-17; an Emergency beginning or ending).

PEPs are the current Players; below four Players, those of the last moment there were four or
more (the current Players if there never were, Reading 8). Every PEP has one button, Off at
first; one who stops being a PEP loses his. ``sync`` runs after every command and every midnight,
so that an Emergency begins the moment a fourth button is On and ends the moment fewer than four
are; the Procedure itself is procedure.py."""
from __future__ import annotations

from typing import Literal

from engine.bnomic import mechanics, threat
from engine.bnomic.commands import PanicCmd
from engine.bnomic.events import EmergencyChanged, PanicButton
from engine.bnomic.state import BNomicState, Emergency
from engine.context import Context
from engine.events import Cause
from engine.inputs import Message
from engine.refusal import Refusal

EMERGENCY_AT = 4  # Panic Buttons On


def refresh_peps(state: BNomicState) -> None:
    """The PEPs now (Reading 8) and a button for each, and only for each."""
    current = [p.email for p in state.players]
    if len(current) >= EMERGENCY_AT:
        state.four_players_seen = True
    if (len(current) >= EMERGENCY_AT or not state.four_players_seen) and current != state.peps:
        state.peps = current
    if list(state.panic_buttons) != state.peps:  # after every command: rebuilt only when the PEPs changed
        state.panic_buttons = {a: state.panic_buttons.get(a, "off") for a in state.peps}


def sync(state: BNomicState, ctx: Context) -> None:
    """The PEPs, then the Threat Flag and the State of Emergency as the buttons On now say."""
    refresh_peps(state)
    on = threat.buttons_on(state)
    if mechanics.on(state, "3-17"):
        threat.follow_buttons(state, on, ctx)
    if not state.emergency.active and on >= EMERGENCY_AT:
        _begin(state, ctx)
    elif state.emergency.active and on < EMERGENCY_AT:
        end(state, f"fewer than {EMERGENCY_AT} Panic Buttons are On: the State of Emergency ends and Game time "
                   "resumes (Rule 0)", ctx)


def announce(state: BNomicState, what: str, text: str, ctx: Context) -> None:
    """A step of the Procedure, mailed to every PEP."""
    with ctx.because(Cause("emergency", state.emergency.count)):
        ctx.emit(EmergencyChanged(number=state.emergency.count, what=what, text=text))  # type: ignore[arg-type]


def _begin(state: BNomicState, ctx: Context) -> None:
    """Rule 0: a State of Emergency; the last MetaMin is its Coordinator if he is a PEP and Active (Reading 28)."""
    e = state.emergency
    e.active, e.count = True, e.count + 1
    last = state.player(state.last_metamin) if state.last_metamin else None
    if last is not None and last.email in state.peps and last.active:
        e.coordinator = last.email
    announce(state, "began", f"{EMERGENCY_AT} Panic Buttons are On: B Nomic is in a State of Emergency; Game time "
             "is stopped (Rule 0). " + (f"The Emergency Coordinator is {_name(state, e.coordinator)}, who last held "
                                        "the Ministry of Ministry." if e.coordinator else
                                        "The first PEP to organize the Procedure becomes its Coordinator."), ctx)


def end(state: BNomicState, why: str, ctx: Context) -> None:
    announce(state, "ended", why, ctx)
    state.emergency = Emergency(count=state.emergency.count)


def press(state: BNomicState, msg: Message, cmd: PanicCmd, ctx: Context) -> None:
    """A PEP hits (On) or stops (Off) his Panic Button."""
    word: Literal["on", "off"] = "on" if cmd.on else "off"
    if msg.sender not in state.peps:
        ctx.refuse(cmd.line, Refusal("only a PEP (Potential Emergency Participant) has a Panic Button", "0"))
    elif state.panic_buttons.get(msg.sender) == word:
        ctx.refuse(cmd.line, Refusal(f"your Panic Button is {word.capitalize()} already", ruleless="already"))
    else:
        state.panic_buttons[msg.sender] = word
        on = threat.buttons_on(state)
        ctx.emit(PanicButton(player=msg.sender, state=word, on=on))
        ctx.say(cmd.line, f"your Panic Button is {word.capitalize()}: {on} of {len(state.peps)} Panic Buttons are On (Rule 0)")
        sync(state, ctx)


def _name(state: BNomicState, address: str | None) -> str:
    p = state.player(address) if address else None
    return p.name if p is not None else str(address)
