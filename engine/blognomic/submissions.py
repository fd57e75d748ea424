"""Opening Votable Matters: Proposals (with their limits), Calls for Judgement and Declarations
of Victory (which put the game into Hiatus). A refused one takes no number."""
from __future__ import annotations

from dataclasses import replace

from engine.blognomic.commands import SubmitCmd
from engine.blognomic import changes, citing, mechanics, preview
from engine.blognomic.conditions import label
from engine.blognomic.downtime import REASON, in_downtime
from engine.blognomic.state import KIND_NAMES, BlogState, Change, Kind, VotableMatter, iso
from engine.context import Context
from engine.inputs import Message
from engine.wording import counted
from engine.blognomic.events import Hiatus, MatterOpened
from engine.events import Cause
from engine.refusal import Refusal

# no rule limits them: the game does, so no one player can flood it (docs/rulings-blognomic.md)
KIND_PLURALS = {"cfj": "Calls for Judgement", "dov": "Declarations of Victory"}
KIND_RULES = {"proposal": "Proposals", "cfj": "Calls for Judgement", "dov": "Victory and Ascension"}  # who may make one
OWN_LIMITS = {"cfj": "max_pending_cfjs", "dov": "max_pending_dovs"}


def submit(state: BlogState, msg: Message, cmd: SubmitCmd, ctx: Context) -> None:
    why = _refusal(state, msg.sender, cmd, ctx)
    if why is not None:
        ctx.refuse(cmd.line, why, f"no {KIND_NAMES[cmd.matter]} made")
        return
    m = VotableMatter(number=len(state.matters) + 1, kind=cmd.matter, author=msg.sender, title=cmd.title,
                      text=cmd.text, message_id=msg.message_id, received_at=ctx.at, opened_at=ctx.at,
                      changes=cmd.changes, by_hand=cmd.by_hand, co_victors=_co_victors(state, cmd),
                      dynasty=state.dynasty.number)
    shown = preview.lines(state, m, ctx.at) if m.changes else []
    state.matters.append(m)
    ctx.emit(MatterOpened(number=m.number, kind=m.kind, author=m.author, title=m.title,
                          opened_at=iso(m.opened_at), quorum=state.quorum(),
                          changes=[c.model_dump() for c in m.changes], by_hand=m.by_hand,
                          co_victors=m.co_victors, preview=shown), Cause("matter", m.number))
    ctx.say(cmd.line, f"{label(m)} \"{m.title}\" is open for voting; Quorum is {state.quorum()}"
            + "".join(f"\n{line}" for line in (["    If enacted:", *shown] if shown else [])))
    for change in m.changes:
        if (why := changes.refusal(state.rules, m.title, change)) is not None:
            ctx.refuse(_written(change), replace(why, why=f"refused: {why.why}"),
                       "it will not be applied if the matter is Enacted")
    for line in changes.malformed(m.text):
        ctx.refuse(line[:80], citing.refusal(state, f"refused: not a change line; expected {changes.FORMS}",
                                             "Resolution of Proposals"), "nothing of it will be applied")
    if m.kind == "dov" and not state.hiatus:
        state.hiatus = True
        ctx.emit(Hiatus(on=True, why=label(m)), Cause("matter", m.number))


def _written(change: Change) -> str:
    """A change line as the answer quotes it."""
    if change.action == "set":
        return f"Set {change.name} = {change.text}"
    return f'{change.action.capitalize()} rule "{change.name}"'


def _co_victors(state: BlogState, cmd: SubmitCmd) -> list[str]:
    """The co-Victors named (149: edition 109 knows none), as addresses of Pactmakers; names no
    one has are dropped."""
    found = (state.player(who) for who in cmd.co_victors if state.edition == "149")
    return list(dict.fromkeys(p.email for p in found if p is not None))


def _refusal(state: BlogState, sender: str, cmd: SubmitCmd, ctx: Context) -> Refusal | None:
    author = state.player(sender)
    word = state.keywords["Pactmaker"]
    if author is None:
        return citing.refusal(state, f"only a {word} may do that (send Join first)", KIND_RULES[cmd.matter])
    if author.idle:
        return citing.refusal(state, f"an Idle {word} is not counted as a {word} (send Unidle first)",
                              "Idle Pactmakers")
    if not cmd.title.strip():
        return Refusal("its subject is empty after the colon (appendix, \"Subject\")", ruleless="form")
    if cmd.matter == "proposal":
        return _proposal_refusal(state, sender, ctx)
    if cmd.matter == "dov":
        return _dov_refusal(state, sender, ctx) or _limit_refusal(state, sender, cmd.matter, ctx)
    return _limit_refusal(state, sender, cmd.matter, ctx)


def limit(kind: str, ctx: Context) -> int:
    """The most matters of ``kind`` (a CfJ or a DoV) one Pactmaker may have pending at once."""
    return int(ctx.config.options[OWN_LIMITS[kind]])


def _limit_refusal(state: BlogState, sender: str, kind: Kind, ctx: Context) -> Refusal | None:
    pending = [m.number for m in state.pending_of(kind, sender)]
    most = limit(kind, ctx)
    if len(pending) >= most:
        noun = KIND_NAMES[kind] if most == 1 else KIND_PLURALS[kind]
        return Refusal(f"this game allows each {state.keywords['Pactmaker']} {most} pending {noun} at a time "
                       f"(yours: {', '.join(map(str, pending))})", ruleless="house")
    return None


def _proposal_refusal(state: BlogState, sender: str, ctx: Context) -> Refusal | None:
    if state.hiatus:
        return citing.refusal(state, "the game is in Hiatus", "Victory and Ascension")
    if in_downtime(ctx.at):
        return citing.refusal(state, REASON, "Seasonal Downtime")
    pending = [m.number for m in state.pending_of("proposal", sender)]
    most, daily = (mechanics.value(state.parameters, n) for n in ("max_pending_proposals", "max_daily_proposals"))
    if len(pending) >= most:
        return citing.refusal(state, f"you already have {counted(most, 'Proposal')} pending "
                              f"({', '.join(map(str, pending))})", "Proposals")
    if state.made_on("proposal", sender, ctx.at.date()) >= daily:
        return citing.refusal(state, f"you have already made {counted(daily, 'Proposal')} today "
                              f"({ctx.at.date().isoformat()}, UTC)", "Proposals")
    return None


def _dov_refusal(state: BlogState, sender: str, ctx: Context) -> Refusal | None:
    if not state.dynasty.ascended:
        return citing.refusal(state, "no DoV may be made between an enacted DoV and its Ascension Address",
                              "Victory and Ascension")
    if in_downtime(ctx.at):
        return citing.refusal(state, REASON, "Seasonal Downtime")
    until = state.dov_lockout.get(sender)
    if until is not None and ctx.at <= until:
        return citing.refusal(state, "your last DoV failed with AGAINST Votes: you may make another after "
                              f"{iso(until)}",
                              "Victory and Ascension")
    if state.edition == "109" and sender in state.dynasty.seraphims:
        return citing.refusal(state, f"the {state.keywords['Seraphim']} may not make a DoV", "Victory and Ascension")
    return None
