"""Rule "Random Generators": ``Roll DICE6``, ``Roll FRUIT``, ``Roll COLOUR`` (109: ``Roll VEGGIE``)
as seeded, labelled, public draws (ctx.draw records each one)."""
from __future__ import annotations

from engine.blognomic.commands import RollCmd
from engine.blognomic.state import BlogState
from engine.context import Context
from engine.inputs import Message
from engine.blognomic.events import Rolled
from engine.refusal import Refusal

GENERATORS: dict[str, tuple[str, ...]] = {
    "FRUIT": ("Lemon", "Orange", "Kiwi", "Grape", "Cherry", "Tangelo"),
    "COLOUR": ("White", "Red", "Green", "Silver", "Yellow", "Turquoise", "Magenta", "Orange", "Purple", "Black"),
    "VEGGIE": ("Potato", "Carrot", "Triffid", "Pumpkin"),
}
EDITION_GENERATORS = {"149": ("FRUIT", "COLOUR"), "109": ("FRUIT", "COLOUR", "VEGGIE")}


def roll(state: BlogState, msg: Message, cmd: RollCmd, ctx: Context) -> None:
    if state.player(msg.sender) is None:
        ctx.refuse(cmd.line, Refusal(f"only a {state.keywords['Pactmaker']} may roll",
                                     ruleless="service"), "nothing rolled")
        return
    die = "COLOUR" if cmd.die == "COLOR" else cmd.die
    if not die.startswith("DICE") and die not in EDITION_GENERATORS[state.edition]:
        ctx.refuse(cmd.line, Refusal(f"there is no {die} generator in this ruleset",
                                     ruleless="no such"), "nothing rolled")
        return
    state.rolls += 1
    result = _draw(f"roll {state.rolls}: {msg.sender} {die}", die, ctx)
    ctx.emit(Rolled(n=state.rolls, player=msg.sender, die=die, result=result))
    ctx.say(cmd.line, f"roll {state.rolls}: {die} gives {result}")


def _draw(label: str, die: str, ctx: Context) -> str:
    """A DICEN is 1..N (0 when N is 0: appendix "Numbers and Variables"); a generator one of its options."""
    if die.startswith("DICE"):
        sides = int(die[4:])
        return str(ctx.draw(label, 1, sides)) if sides > 0 else "0"
    options = GENERATORS[die]
    return options[ctx.draw(label, 1, len(options)) - 1]
