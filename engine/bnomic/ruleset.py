"""The B Nomic ruleset: its state, its commands and how a message and the clock act."""
from __future__ import annotations

from datetime import datetime

from engine import dispatch
from engine.bnomic import clock, ministries, players
from engine.bnomic.declarations import COMMANDS, OFFICE_NOTES
from engine.bnomic.ruletext import parse_rules
from engine.bnomic.state import BNomicState, Clock
from engine.context import Context, EngineConfig
from engine.inputs import ClockStep, Message
from engine.ruleset import command_models

BY_KIND = {d.kind: d for d in COMMANDS}
ANYONE = frozenset({"join", "subscribe", "unsubscribe", "digest", "list_post"})  # the rest: Players only
# the commands a Ministry holds: checked against who holds it now, in the game state
OFFICE = {"recognize": ("society", "the Registrar"), "chairman": ("change", "the Chairman"),
          "apply": ("change", "the Chairman"), "miniministry": ("ministry", "the MetaMin"),
          "rulekeeper": ("law", "the Rulekeeper")}


class BNomic:
    name = "bnomic"
    state_model = BNomicState
    commands = COMMANDS
    office_notes = OFFICE_NOTES
    command_models = command_models(COMMANDS)

    def new_state(self, config: EngineConfig, rules_text: str) -> BNomicState:
        sections, rules = parse_rules(rules_text)
        o = config.options
        state = BNomicState(started=config.start, variables=dict(config.variables), rules=rules, sections=sections,
                            clock=Clock(nweek=int(o["nweek"]), nday=int(o["nday"]), on=bool(o["clock_on"])),
                            ministries=ministries.defined())
        state.players = players.from_config(o["players"])
        return state

    def on_message(self, state: BNomicState, msg: Message, ctx: Context) -> None:
        clock.catch_up(state, msg.at, ctx)
        if not dispatch.admitted(msg, ctx):
            return
        dispatch.run(state, msg, ctx, BY_KIND, ended=lambda: None,
                     refusal=lambda sender, kind: _refusal(state, sender, kind))

    def on_clock(self, state: BNomicState, step: ClockStep, ctx: Context) -> None:
        clock.catch_up(state, step.at, ctx)

    def next_due(self, state: BNomicState, config: EngineConfig) -> datetime | None:
        """The next 00:00 UTC: every midnight moves the Clock (2-1)."""
        return clock.next_due(state)


def _refusal(state: BNomicState, sender: str, kind: str) -> str | None:
    if kind in ANYONE:
        return None
    if state.player(sender) is None:
        return "only Players may do that; send 'Join as NAME' to play; nothing done"
    if kind in OFFICE and not state.holds(sender, OFFICE[kind][0]):
        return f"only {OFFICE[kind][1]} may do that, and you do not hold the Ministry now; nothing done"
    return None


RULESET = BNomic()
