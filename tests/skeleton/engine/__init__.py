"""Counting Nomic's engine: its state, its one command and how a message acts."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from engine import dispatch, membership
from engine.commands import Cmd, Declaration, Help, Line, pattern
from engine.context import Context, EngineConfig
from engine.inputs import ClockStep, Message
from engine.ruleset import command_models, message_model
from engine.state import GameState, Player, Rule
from tests.skeleton.engine.events import Counted


class CountCmd(Cmd):
    kind: Literal["count"] = "count"


class SkeletonState(GameState[Player]):
    count: int = 0


def count(state: SkeletonState, msg: Message, cmd: CountCmd, ctx: Context) -> None:
    state.count += int(ctx.config.options["step"])
    ctx.emit(Counted(by=msg.sender, count=state.count))
    ctx.say(cmd.line, f"counted: the count is {state.count}")


COMMANDS: tuple[Declaration, ...] = (
    Declaration("count", CountCmd, (Line(pattern(r"^count$"), lambda m: CountCmd()),), count,
                help=(Help("Add the step to the count.", "Count", "Count", "rule 1"),)),
    *membership.LIST_COMMANDS,
)
BY_KIND = {d.kind: d for d in COMMANDS}


class Skeleton:
    name = "skeleton"
    state_model = SkeletonState
    commands = COMMANDS
    office_notes: tuple[Help, ...] = ()
    command_models = command_models(COMMANDS)
    message_model = message_model(COMMANDS)

    def new_state(self, config: EngineConfig, rules_text: str) -> SkeletonState:
        return SkeletonState(ruleset=self.name, started=config.start,
                             rules=[Rule(number=1, title="Counting", text=rules_text.strip())])

    def on_message(self, state: Any, msg: Message, ctx: Context) -> None:
        if dispatch.admitted(msg, ctx):
            dispatch.run(state, msg, ctx, BY_KIND, ended=lambda: None, refusal=lambda sender, kind: None)

    def on_clock(self, state: Any, step: ClockStep, ctx: Context) -> None:
        return None

    def next_due(self, state: Any, config: EngineConfig) -> datetime | None:
        return None  # no clock


RULESET = Skeleton()
