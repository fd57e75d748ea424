"""The B Nomic ruleset: its state, its commands and how a message and the clock act."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from engine import dispatch
from engine.bnomic import clock, emergency, mechanics, ministries, players, schedule, transactions
from engine.bnomic.commands import RepeatCmd, TransactionCmd
from engine.bnomic.declarations import COMMANDS, OFFICE_NOTES
from engine.bnomic.ruletext import parse_rules
from engine.bnomic.state import BNomicState, Clock
from engine.commands import Cmd
from engine.context import Context, EngineConfig
from engine.inputs import ClockStep, Message
from engine.refusal import Refusal
from engine.ruleset import command_models, message_model

BY_KIND = {d.kind: d for d in COMMANDS}
# the rest: Players only (Rule 0's commands are a PEP's, who may be a former Player: procedure.py checks)
ANYONE = frozenset({"join", "subscribe", "unsubscribe", "digest", "list_post", "transaction", "repeat", "panic",
                    "procedure", "refresh_proposal"})
# the commands a Ministry holds: checked against who holds it now, in the game state; the rule giving it
OFFICE = {"recognize": ("society", "the Registrar", "1-4"), "chairman": ("change", "the Chairman", "2-2"),
          "apply": ("change", "the Chairman", "2-2"), "miniministry": ("ministry", "the MetaMin", "6-9"),
          "rulekeeper": ("law", "the Rulekeeper", "1-8"), "priest": ("questions", "the Oracle", "2-5"),
          "blueprint": ("goods", "the Artisan", "3-14"), "price": ("goods", "the Artisan", "3-14"),
          "motnw": ("society", "the Registrar", "3-16"), "hoist": ("ministry", "the MoM", "3-17"),
          "renumber_consultation": ("questions", "the Oracle", "2-5"), "foreign": ("foreign", "the Ambassador", "2-10")}


class BNomic:
    name = "bnomic"
    state_model = BNomicState
    commands = COMMANDS
    office_notes = OFFICE_NOTES
    command_models = command_models(COMMANDS)
    message_model = message_model(COMMANDS)

    def new_state(self, config: EngineConfig, rules_text: str) -> BNomicState:
        sections, rules = parse_rules(rules_text)
        o = config.options
        state = BNomicState(started=config.start, variables=dict(config.variables), rules=rules, sections=sections,
                            clock=Clock(nweek=int(o["nweek"]), nday=int(o["nday"]), on=bool(o["clock_on"])),
                            ministries=ministries.defined())
        state.players = players.from_config(o["players"])
        emergency.refresh_peps(state)
        return state

    def on_message(self, state: BNomicState, msg: Message, ctx: Context) -> None:
        clock.catch_up(state, msg.at, ctx, self.runner)
        if not dispatch.admitted(msg, ctx):
            return
        for line in msg.not_understood:
            ctx.refuse(line, Refusal("not understood", ruleless="form"))
        for cmd in msg.commands:
            self.perform(state, msg, cmd, ctx)

    def perform(self, state: BNomicState, msg: Message, cmd: Cmd, ctx: Context) -> None:
        """One command, as sent by ``msg``'s sender at ``msg.at``; a Transaction or a Repeat runs the
        commands it wraps through here; a command whose rule is repealed is refused (mechanics.py). After it,
        the PEPs and the State of Emergency follow the Players and the Panic Buttons it left (Rule 0)."""
        if isinstance(cmd, (TransactionCmd, RepeatCmd)) and (why := mechanics.refusal(state, cmd.kind, cmd)):
            ctx.refuse(cmd.line, why)
        elif isinstance(cmd, TransactionCmd):
            transactions.transaction(state, msg, cmd, ctx, self.perform, self.load)
        elif isinstance(cmd, RepeatCmd):
            transactions.repeat(state, msg, cmd, ctx, self.perform, self.load)
        else:
            dispatch.one(state, msg, cmd, ctx, BY_KIND, ended=lambda: None,
                         refusal=lambda sender, kind: _refusal(state, sender, kind) or mechanics.refusal(state, kind, cmd))
        emergency.sync(state, ctx)

    def load(self, data: dict[str, Any]) -> Cmd:
        """A wrapped command read back from its JSON."""
        loaded: Cmd = self.command_models.validate_python([data])[0]
        return loaded

    @property
    def runner(self) -> schedule.Runner:
        return schedule.Runner(self.perform, self.load)

    def on_clock(self, state: BNomicState, step: ClockStep, ctx: Context) -> None:
        clock.catch_up(state, step.at, ctx, self.runner)

    def next_due(self, state: BNomicState, config: EngineConfig) -> datetime | None:
        """The next 00:00 UTC (every midnight moves the Clock, 2-1), or an action's absolute time."""
        return clock.next_due(state)


def _refusal(state: BNomicState, sender: str, kind: str) -> Refusal | None:
    if kind in ANYONE:
        return None
    if state.player(sender) is None:
        return Refusal("only Players may do that: send 'Join as NAME' to play", "1-4")
    if kind in OFFICE and not state.holds(sender, OFFICE[kind][0]):
        _, title, rule = OFFICE[kind]
        return Refusal(f"only {title} may do that, and you do not hold the Ministry now", rule)
    return None


RULESET = BNomic()
