"""The Threat Flag (3-17): hoisted by the MoM at most once per nday (Reading 39), and forced by the
Panic Buttons: Black Watch Plaid while two or more are On, Jolly Roger when they drop below two.

"Once per nday" counts nday changes, so with the Clock Off it lasts until the nday next changes; a
refused hoist is no change. Black Watch Plaid is never hoisted by hand, and while two buttons are
On any other flag the MoM hoists is set back to it at once, his change of the nday spent (the
design's Reading 62)."""
from __future__ import annotations

from engine.bnomic.citing import cited
from engine.bnomic.commands import HoistCmd
from engine.bnomic.events import ThreatFlag
from engine.bnomic.state import BNomicState
from engine.context import Context
from engine.inputs import Message
from engine.refusal import Refusal

PLAID = "Black Watch Plaid"
FLAGS = ("Pink Ponies", "Polka Dots", "Setting Orange", "Jolly Roger", PLAID)  # in order of ascending threat
PLAID_AT = 2  # Panic Buttons On


def buttons_on(state: BNomicState) -> int:
    return list(state.panic_buttons.values()).count("on")


def hoist(state: BNomicState, msg: Message, cmd: HoistCmd, ctx: Context) -> None:
    wanted = " ".join(cmd.flag.strip().strip('"').split()).casefold()
    flag = next((f for f in FLAGS if f.casefold() == wanted), None)
    if flag is None:
        why = f"there is no flag {cmd.flag}: the flags are {', '.join(FLAGS)}"
    elif flag == PLAID:
        why = f"{PLAID} is hoisted only by the Panic Buttons (3-17)"
    elif state.flag_nday_changes == state.clock.nday_changes:
        why = "the MoM changes the Threat Flag at most once per nday, and has this nday (3-17)"
    elif flag == state.threat_flag:
        why = f"the Threat Flag is {flag} already"
    else:
        state.threat_flag, state.flag_nday_changes = flag, state.clock.nday_changes
        ctx.emit(ThreatFlag(flag=flag, by=msg.sender))
        if buttons_on(state) >= PLAID_AT:
            _set(state, PLAID, ctx)
            ctx.say(cmd.line, f"the {flag} flag is hoisted, and at once {PLAID} again: {PLAID_AT} or more Panic "
                    "Buttons are On (3-17)")
        else:
            ctx.say(cmd.line, f"the Threat Flag is {flag} (3-17)")
        return
    ctx.refuse(cmd.line, cited(why, "3-17"))


def follow_buttons(state: BNomicState, on: int, ctx: Context) -> None:
    """3-17: ``on`` (two or more) Panic Buttons On make the flag Black Watch Plaid; fewer, while it is, Jolly Roger."""
    if on >= PLAID_AT and state.threat_flag != PLAID:
        _set(state, PLAID, ctx)
    elif on < PLAID_AT and state.threat_flag == PLAID:
        _set(state, "Jolly Roger", ctx)


def _set(state: BNomicState, flag: str, ctx: Context) -> None:
    state.threat_flag = flag
    ctx.emit(ThreatFlag(flag=flag, by="panic buttons"))
