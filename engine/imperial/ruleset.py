"""The Imperial Nomic ruleset: dispatch of commands to the rule modules."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from engine.commands import JudgeCmd, PointOfOrderCmd, ProposalCmd
from engine.context import Context, EngineConfig
from engine import membership
from engine.imperial import days, emperor, judging, mechanics, proclamations, submissions
from engine.imperial import ff, player_of_the_day, retool, swaps, tag, tivol, violence  # noqa: F401 (they register their pipeline steps)
from engine.imperial.winning import game_over
from engine.imperial.ruletext import parse_rules
from engine.imperial.variables import DEFAULTS, rule_on
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
    "proclamation": proclamations.proclaim,  # type: ignore[dict-item]
    "directive": emperor.directive,  # type: ignore[dict-item]
    "revoke_directive": emperor.revoke,  # type: ignore[dict-item]
    "rewrite": emperor.rewrite,  # type: ignore[dict-item]
    "new_day": days.new_day,  # type: ignore[dict-item]
    "subscribe": membership.subscribe,  # type: ignore[dict-item]
    "unsubscribe": membership.unsubscribe,  # type: ignore[dict-item]
    "digest": membership.digest,  # type: ignore[dict-item]
    "list_post": membership.list_post,  # type: ignore[dict-item]
    "whap_tivol": tivol.whap,  # type: ignore[dict-item]
    "swap": swaps.offer,  # type: ignore[dict-item]
    "agree_swap": swaps.agree,  # type: ignore[dict-item]
    "report": violence.report,  # type: ignore[dict-item]
    "tag": tag.tag,  # type: ignore[dict-item]
}

# Rule 10: event kinds that make an Emperor's message an announcement (it may end the day).
ANNOUNCEMENTS = {"judged", "proclamation", "directive", "new_day"}
# Rules 8/11: once there is a TEW the game has ended; only these still work.
AFTER_THE_END = {"subscribe", "unsubscribe", "digest", "list_post", "rewrite"}


class Imperial:
    name = "imperial"

    def new_state(self, config: EngineConfig, rules_text: str) -> GameState:
        variables = {**DEFAULTS, **config.variables}
        state = GameState(started=config.start, day_started=config.start,
                          temperature=variables["start_temperature"], variables=variables,
                          rules=parse_rules(rules_text))
        state.players = mechanics.officers(state, list(dict.fromkeys((config.emperor, config.scribe))))
        if config.first_it:
            state.it = config.first_it
        return state

    def on_message(self, state: GameState, msg: Message, ctx: Context) -> None:
        if not msg.authenticated:
            ctx.emit("unauthenticated", sender=msg.sender, message_id=msg.message_id)
            return
        if msg.automatic:  # RFC 3834: a bounce, an auto-reply or bulk mail speaks for no one
            ctx.emit("automatic", sender=msg.sender, message_id=msg.message_id)
            return
        days.catch_up(state, msg.at, ctx)
        for line in msg.not_understood:
            ctx.say(line, "not understood; nothing done", ok=False)
        first_event = len(ctx.events)
        for cmd in msg.commands:
            if not self._allowed(msg.sender, cmd.kind, ctx.config):
                ctx.say(cmd.line, "only the office that holds this power may do that", ok=False)
                continue
            if game_over(state) and cmd.kind not in AFTER_THE_END:
                ctx.say(cmd.line, f"the game has ended: {state.winner} is The Exalted Winner; "
                        "nothing done", ok=False)
                continue
            refusal = tag.refusal(state, msg.sender, cmd.kind)  # rule 22: It and Inactive players
            if refusal:
                ctx.say(cmd.line, refusal, ok=False)
                continue
            handler = HANDLERS.get(cmd.kind)
            if handler is None:
                ctx.say(cmd.line, "understood, but not yet automated: nothing done", ok=False)
                continue
            handler(state, msg, cmd, ctx)
        if msg.sender == ctx.config.emperor and any(
                e.kind in ANNOUNCEMENTS for e in ctx.events[first_event:]):
            days.after_announcement(state, ctx)

    @staticmethod
    def _allowed(sender: str, kind: str, config: EngineConfig) -> bool:
        if kind in EMPEROR_ONLY:
            return sender == config.emperor
        if kind in SCRIBE_ONLY:
            return sender == config.scribe
        return True

    def on_clock(self, state: GameState, step: ClockStep, ctx: Context) -> None:
        days.catch_up(state, step.at, ctx)

    def next_due(self, state: GameState, config: EngineConfig) -> datetime | None:
        if config.day_mode == "fixed" and not game_over(state) and rule_on(state, 10):
            return days.next_boundary(state)
        return None


RULESET = Imperial()
