"""The BlogNomic ruleset: its state, its commands and how a message and the clock act."""
from __future__ import annotations

from datetime import datetime

from engine import dispatch
from engine.blognomic import auto, citing, daily, downtime, players
from engine.blognomic.declarations import COMMANDS, OFFICE_NOTES
from engine.blognomic.ruletext import KEYWORDS, parse_rules
from engine.blognomic.state import BlogState, Dynasty
from engine.context import Context, EngineConfig
from engine.inputs import ClockStep, Message
from engine.ruleset import command_models, message_model

BY_KIND = {d.kind: d for d in COMMANDS}


class BlogNomic:
    name = "blognomic"
    state_model = BlogState
    commands = COMMANDS
    office_notes = OFFICE_NOTES
    command_models = command_models(COMMANDS)
    message_model = message_model(COMMANDS)

    def new_state(self, config: EngineConfig, rules_text: str) -> BlogState:
        """Admins and Seraphims named in game.toml are Pactmakers from the start; dynasty 1."""
        edition = config.edition or "149"
        seraphims = list(config.offices.get("seraphims", ()))
        state = BlogState(started=config.start, edition=edition, rules=parse_rules(rules_text),
                          variables=dict(config.variables), keywords=dict(KEYWORDS[edition]),
                          settled_until=config.start,
                          dynasties=[Dynasty(number=1, seraphims=seraphims, started_at=config.start)])
        for email in dict.fromkeys([*config.offices.get("admins", ()), *seraphims]):
            players.new_pactmaker(state, email, "", config.start, config)
        return state

    def on_message(self, state: BlogState, msg: Message, ctx: Context) -> None:
        """What was due before the mail came is resolved first (a midnight on the way says its
        daily), then its commands run (but what the Seasonal Downtime forbids), then what they
        made due is resolved at the mail's time."""
        daily.catch_up(state, msg.at, ctx)
        auto.settle(state, msg.at, ctx)
        if not dispatch.admitted(msg, ctx):
            return
        players.seen(state, msg.sender, msg.at)
        dispatch.run(state, msg, ctx, BY_KIND, ended=lambda: None,
                     refusal=lambda sender, kind: downtime.refusal(kind, msg.at),
                     cite=lambda title: citing.rule(state, title))
        auto.settle(state, msg.at, ctx, answer=True)

    def on_clock(self, state: BlogState, step: ClockStep, ctx: Context) -> None:
        daily.catch_up(state, step.at, ctx)
        auto.settle(state, step.at, ctx)

    def next_due(self, state: BlogState, config: EngineConfig) -> datetime | None:
        """The next window edge at which a matter resolves, or the next 00:00 UTC's daily mail."""
        due = [t for t in (auto.next_due(state, config),
                           daily.next_midnight(state.settled_until) if daily.enabled(config) else None)
               if t is not None]
        return min(due, default=None)


RULESET = BlogNomic()
