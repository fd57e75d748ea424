"""The BlogNomic ruleset: its state, its commands and how a message and the clock act."""
from __future__ import annotations

from datetime import datetime

from engine import dispatch
from engine.blognomic import auto, players
from engine.blognomic.declarations import COMMANDS, OFFICE_NOTES
from engine.blognomic.ruletext import KEYWORDS, parse_rules
from engine.blognomic.state import BlogState, Dynasty
from engine.context import Context, EngineConfig
from engine.inputs import ClockStep, Message
from engine.ruleset import command_models

BY_KIND = {d.kind: d for d in COMMANDS}


class BlogNomic:
    name = "blognomic"
    state_model = BlogState
    commands = COMMANDS
    office_notes = OFFICE_NOTES
    command_models = command_models(COMMANDS)

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
        """What was due before the mail came is resolved first, then its commands run, then what
        they made due is resolved at the mail's time."""
        auto.settle(state, msg.at, ctx)
        if not dispatch.admitted(msg, ctx):
            return
        players.seen(state, msg.sender, msg.at)
        dispatch.run(state, msg, ctx, BY_KIND, ended=lambda: None, refusal=lambda sender, kind: None)
        auto.settle(state, msg.at, ctx, answer=True)

    def on_clock(self, state: BlogState, step: ClockStep, ctx: Context) -> None:
        auto.settle(state, step.at, ctx)

    def next_due(self, state: BlogState, config: EngineConfig) -> datetime | None:
        return auto.next_due(state, config)


RULESET = BlogNomic()
