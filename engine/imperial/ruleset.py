"""The Imperial Nomic ruleset: its state, its commands and how a message and the clock act."""
from __future__ import annotations

from datetime import datetime

from engine import dispatch
from engine.context import Context, EngineConfig
from engine.imperial import days, mechanics, tag
from engine.imperial.declarations import COMMANDS, OFFICE_NOTES
from engine.imperial.ruletext import parse_rules
from engine.imperial.state import ImperialState
from engine.imperial.variables import DEFAULTS, rule_on
from engine.imperial.winning import game_over
from engine.inputs import ClockStep, Message
from engine.refusal import Refusal
from engine.ruleset import command_models, message_model

BY_KIND = {d.kind: d for d in COMMANDS}
# Rule 10: event kinds that make an Emperor's message an announcement (it may end the day).
ANNOUNCEMENTS = frozenset(d.announces for d in COMMANDS if d.announces)


class Imperial:
    name = "imperial"
    state_model = ImperialState
    commands = COMMANDS
    office_notes = OFFICE_NOTES
    command_models = command_models(COMMANDS)
    message_model = message_model(COMMANDS)

    def new_state(self, config: EngineConfig, rules_text: str) -> ImperialState:
        variables = {**DEFAULTS, **config.variables}
        state = ImperialState(started=config.start, day_started=config.start,
                              temperature=variables["start_temperature"], variables=variables,
                              rules=parse_rules(rules_text))
        emperor, scribe = config.holder("emperor"), config.holder("scribe")
        state.players = mechanics.officers(state, list(dict.fromkeys(a for a in (emperor, scribe) if a)))
        if config.first_it:
            state.it = config.first_it
        return state

    def on_message(self, state: ImperialState, msg: Message, ctx: Context) -> None:
        if not dispatch.admitted(msg, ctx):
            return
        days.catch_up(state, msg.at, ctx)
        first_event = len(ctx.events) + len(msg.not_understood)
        dispatch.run(state, msg, ctx, BY_KIND, ended=lambda: _ended(state),
                     refusal=lambda sender, kind: tag.refusal(state, sender, kind))  # rule 22: It
        if ctx.config.holds(msg.sender, "emperor") and any(
                e.kind in ANNOUNCEMENTS for e in ctx.events[first_event:]):
            days.after_announcement(state, ctx)

    def on_clock(self, state: ImperialState, step: ClockStep, ctx: Context) -> None:
        days.catch_up(state, step.at, ctx)

    def next_due(self, state: ImperialState, config: EngineConfig) -> datetime | None:
        if config.day_mode == "fixed" and not game_over(state) and rule_on(state, 10):
            return days.next_boundary(state)
        return None


def _ended(state: ImperialState) -> Refusal | None:
    """Rules 8/11: once there is a TEW the game has ended (rule 8, Winning the Game, says so)."""
    if game_over(state):
        return Refusal(f"the game has ended: {state.winner} is The Exalted Winner", "8")
    return None


RULESET = Imperial()
