"""The Imperial Nomic ruleset: dispatch of commands to the rule modules."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from engine.commands import JudgeCmd, PointOfOrderCmd, ProposalCmd
from engine.context import Context, EngineConfig
from engine.imperial import judging, submissions
from engine.imperial.ruletext import parse_rules
from engine.imperial.variables import DEFAULTS
from engine.inputs import ClockStep, Message
from engine.state import GameState

Handler = Callable[[GameState, Message, object, Context], None]

# Who may give each command: "anyone" authenticated, or an office.
EMPEROR_ONLY = {"judge", "proclamation", "directive", "revoke_directive", "new_day"}
SCRIBE_ONLY = {"rewrite"}


def _proposal(state: GameState, msg: Message, cmd: ProposalCmd, ctx: Context) -> None:
    submissions.submit(state, msg, cmd, ctx)


def _point_of_order(state: GameState, msg: Message, cmd: PointOfOrderCmd, ctx: Context) -> None:
    submissions.submit(state, msg, cmd, ctx)


def _judge(state: GameState, msg: Message, cmd: JudgeCmd, ctx: Context) -> None:
    judging.judge(state, msg, cmd, ctx)


HANDLERS: dict[str, Handler] = {
    "proposal": _proposal,
    "point_of_order": _point_of_order,
    "judge": _judge,
}


class Imperial:
    name = "imperial"

    def new_state(self, config: EngineConfig, rules_text: str) -> GameState:
        variables = {**DEFAULTS, **config.variables}
        state = GameState(started=config.start, day_started=config.start,
                          temperature=variables["start_temperature"], variables=variables,
                          rules=parse_rules(rules_text))
        if config.first_it:
            state.it = config.first_it
        return state

    def on_message(self, state: GameState, msg: Message, ctx: Context) -> None:
        if not msg.authenticated:
            ctx.emit("unauthenticated", sender=msg.sender, message_id=msg.message_id)
            return
        for line in msg.not_understood:
            ctx.say(line, "not understood; nothing done", ok=False)
        for cmd in msg.commands:
            if not self._allowed(msg.sender, cmd.kind, ctx.config):
                ctx.say(cmd.line, "only the office that holds this power may do that", ok=False)
                continue
            handler = HANDLERS.get(cmd.kind)
            if handler is None:
                ctx.say(cmd.line, "understood, but not yet automated: nothing done", ok=False)
                continue
            handler(state, msg, cmd, ctx)

    @staticmethod
    def _allowed(sender: str, kind: str, config: EngineConfig) -> bool:
        if kind in EMPEROR_ONLY:
            return sender == config.emperor
        if kind in SCRIBE_ONLY:
            return sender == config.scribe
        return True

    def on_clock(self, state: GameState, step: ClockStep, ctx: Context) -> None:
        return None

    def next_due(self, state: GameState, config: EngineConfig) -> datetime | None:
        return None


RULESET = Imperial()
