"""The Suber's Nomic ruleset: its state, its commands and how a message and the clock act."""
from __future__ import annotations

from datetime import datetime

from engine import dispatch
from engine.context import Context, EngineConfig
from engine.inputs import ClockStep, Message
from engine.ruleset import command_models, message_model
from engine.suber import calls, daily, mechanics, turns, voting
from engine.suber.declarations import COMMANDS, OFFICE_NOTES
from engine.suber.ruletext import parse_rules
from engine.suber.state import SuberState
from engine.refusal import Refusal

BY_KIND = {d.kind: d for d in COMMANDS}
ANYONE = frozenset({"join", "subscribe", "unsubscribe", "digest", "list_post"})  # the rest: players only


class Suber:
    name = "suber"
    state_model = SuberState
    commands = COMMANDS
    office_notes = OFFICE_NOTES
    command_models = command_models(COMMANDS)
    message_model = message_model(COMMANDS)

    def new_state(self, config: EngineConfig, rules_text: str) -> SuberState:
        state = SuberState(started=config.start, turn_started=config.start, variables=dict(config.variables),
                           rules=parse_rules(rules_text, also=(calls.RULE,) if calls.played(config) else ()))
        turns.seat(state, turns.from_config(config.options["players"]))
        return state

    def on_message(self, state: SuberState, msg: Message, ctx: Context) -> None:
        daily.catch_up(state, msg.at, ctx)
        if state.winner is None:
            voting.overdue(state, msg.at, ctx)
        if not dispatch.admitted(msg, ctx):
            return
        dispatch.run(state, msg, ctx, BY_KIND, ended=lambda: _ended(state),
                     refusal=lambda sender, kind: _refusal(state, sender, kind))

    def on_clock(self, state: SuberState, step: ClockStep, ctx: Context) -> None:
        daily.catch_up(state, step.at, ctx)
        if state.winner is None:
            voting.overdue(state, step.at, ctx)
        calls.on_clock(state, step.at, ctx)

    def next_due(self, state: SuberState, config: EngineConfig) -> datetime | None:
        """Rule 305's next step where the game plays it, the end of a vote's ``vote_days``, or the next
        00:00 UTC's daily mail."""
        if state.winner is not None:
            return None
        due = [t for t in (calls.next_due(state) if calls.played(config) else None, voting.deadline(state, config),
                           daily.next_due(state) if daily.enabled(config) else None) if t is not None]
        return min(due, default=None)


def _ended(state: SuberState) -> Refusal | None:
    if state.winner is not None:
        return Refusal(f"the game has ended: {state.winner} won", "208, 213")
    return None


def _refusal(state: SuberState, sender: str, kind: str) -> Refusal | None:
    if kind not in ANYONE and state.player(sender) is None:
        return Refusal("only players may do that: send 'Join' before the first proposal to play", ruleless="house")
    return mechanics.refusal(state, kind)


RULESET = Suber()
