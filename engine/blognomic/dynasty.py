"""Rule "Victory and Ascension": a new Dynasty when a DoV is Enacted, passing the role, stepping
down, and the Ascension Address that ends the Hiatus."""
from __future__ import annotations

from datetime import datetime

from engine.blognomic import citing
from engine.blognomic.commands import AscensionCmd, PassVictoryCmd, StepDownCmd
from engine.blognomic.ruletext import rename
from engine.blognomic.state import BlogState, Dynasty, VotableMatter
from engine.context import Context
from engine.inputs import Message
from engine.state import RuleVersion
from engine.blognomic.events import Ascension, DynastyBegun, Hiatus, Seraphims
from engine.events import Cause
from engine.wording import counted
from engine.refusal import Refusal

ADDRESS = "Ascension Address"


def begin(state: BlogState, dov: VotableMatter, at: datetime, ctx: Context) -> None:
    """The Victor (and the co-Victors, 149) head the new Dynasty; the Hiatus goes on."""
    heads = [dov.author] + [c for c in dov.co_victors if state.player(c) is not None]
    state.dynasties.append(Dynasty(number=state.dynasty.number + 1, seraphims=heads, victor=dov.author,
                                   co_victors=dov.co_victors, started_at=at, ascended=False))
    state.electorate_changed()
    ctx.emit(DynastyBegun(number=state.dynasty.number, seraphims=heads, victor=dov.author,
                          co_victors=dov.co_victors, dov=dov.number), Cause("matter", dov.number))


def end_hiatus(state: BlogState, ctx: Context, why: str) -> None:
    if state.hiatus:
        state.hiatus = False
        ctx.emit(Hiatus(on=False, why=why))


def _awaiting(state: BlogState, sender: str) -> Refusal | None:
    """Why ``sender`` may not act as a head of the new Dynasty now, or None."""
    if state.dynasty.ascended:
        return citing.refusal(state, f"no Dynasty awaits its {ADDRESS}", "Victory and Ascension")
    if sender not in state.dynasty.seraphims:
        return citing.refusal(state, f"only a {state.keywords['Seraphim']} of the new Dynasty may do that",
                              "Victory and Ascension")
    return None


def pass_victory(state: BlogState, msg: Message, cmd: PassVictoryCmd, ctx: Context) -> None:
    why = _awaiting(state, msg.sender)
    target = state.player(cmd.player)
    if why is None and (msg.sender != state.dynasty.victor or state.dynasty.co_victors):
        why = citing.refusal(state, "only a Victor who achieved victory alone may pass the role",
                             "Victory and Ascension")
    if why is None and (target is None or target.idle):
        why = citing.refusal(state, f"{cmd.player} is not a {state.keywords['Pactmaker']}", "Victory and Ascension")
    if why is not None:
        ctx.refuse(cmd.line, why)
        return
    assert target is not None  # else ``why`` says so
    state.dynasty.seraphims = [target.email]
    state.electorate_changed()
    ctx.emit(Seraphims(dynasty=state.dynasty.number, seraphims=[target.email], cause="passed"))
    ctx.say(cmd.line, f"{target.name} now heads Dynasty {state.dynasty.number}")


def step_down(state: BlogState, msg: Message, cmd: StepDownCmd, ctx: Context) -> None:
    why = _awaiting(state, msg.sender)
    if why is None and (state.edition == "109" or not state.dynasty.co_victors):
        why = citing.refusal(state, "only a Victor or co-Victor of a collective victory may step down",
                             "Victory and Ascension")
    if why is not None:
        ctx.refuse(cmd.line, why)
        return
    state.dynasty.seraphims = [s for s in state.dynasty.seraphims if s != msg.sender]
    state.electorate_changed()
    ctx.emit(Seraphims(dynasty=state.dynasty.number, seraphims=state.dynasty.seraphims,
                       cause="stepped down"))
    if state.dynasty.seraphims:
        ctx.say(cmd.line, f"you have stepped down; {_still_head(len(state.dynasty.seraphims))} the Dynasty")
        return
    repealed = _repeal_dynastic(state, set(), "Metadynasty")
    state.dynasty.ascended = True
    end_hiatus(state, ctx, f"Dynasty {state.dynasty.number} is a Metadynasty")
    ctx.emit(Ascension(dynasty=state.dynasty.number, theme=None, kept_rules=[], repealed=repealed,
                       failed=[], renamed={}))
    ctx.say(cmd.line, f"you have stepped down; Dynasty {state.dynasty.number} is a Metadynasty "
            "and every dynastic rule is repealed")


def _still_head(n: int) -> str:
    return f"{n} still head{'s' * (n == 1)}"


def ascension(state: BlogState, msg: Message, cmd: AscensionCmd, ctx: Context) -> None:
    """Keep the listed dynastic rules (and, 149, pending Proposals), repeal and fail the rest,
    rename the keywords; the Hiatus ends."""
    renames = {_keyword(state, k): w for k, w in cmd.renames.items()}
    why = _awaiting(state, msg.sender) or _bad_renames(state, cmd.renames, renames)
    if why is not None:
        ctx.refuse(cmd.line, why)
        return
    keep = {n.casefold() for n in cmd.keep_rules}
    repealed = _repeal_dynastic(state, keep, ADDRESS)
    failed = _fail_unkept(state, set(cmd.keep_proposals), ctx) if state.edition == "149" else []
    for keyword, word in renames.items():
        _rename_everywhere(state, keyword, word, ctx.at)
    state.dynasty.theme, state.dynasty.ascended = cmd.theme, True
    end_hiatus(state, ctx, ADDRESS)
    ctx.emit(Ascension(dynasty=state.dynasty.number, theme=cmd.theme,
                       kept_rules=[r.title for r in state.rules if r.section == "dynastic" and not r.repealed],
                       repealed=repealed, failed=failed, renamed=renames))
    ctx.say(cmd.line, f"Dynasty {state.dynasty.number} begins: {cmd.theme}; "
            f"{counted(len(repealed), 'dynastic rule')} repealed, {counted(len(failed), 'Proposal')} failed")


def _keyword(state: BlogState, written: str) -> str:
    """The keyword ("Pactmaker", "Seraphim") a rename line names by its own or its current word."""
    return next((k for k, now in state.keywords.items() if written.casefold() in (k.casefold(), now.casefold())),
                written)


def _bad_renames(state: BlogState, written: dict[str, str], renames: dict[str, str]) -> Refusal | None:
    for said, keyword in zip(written, renames):
        if keyword not in state.keywords:
            terms = " and ".join(state.keywords.values())
            return citing.refusal(state, f"only the keywords {terms} may be renamed (not {said})",
                                  "Victory and Ascension")
    if len(set(renames.values())) < len(written):
        return citing.refusal(state, "two keywords may not be renamed to the same word", "Fair Play")
    return None


def _repeal_dynastic(state: BlogState, keep: set[str], by: str) -> list[str]:
    gone = [r for r in state.rules if r.section == "dynastic" and not r.repealed and r.title.casefold() not in keep]
    for r in gone:
        r.repealed = True
        r.amended_by.append(by)
    return [r.title for r in gone]


def _fail_unkept(state: BlogState, keep: set[int], ctx: Context) -> list[int]:
    from engine.blognomic.resolution import resolve  # resolution imports this module
    failed = [m for m in state.pending("proposal") if m.number not in keep]
    for m in failed:
        resolve(state, m, False, f"Failed: not kept by the {ADDRESS}", ctx.at, ctx.config.address, ctx)
    return [m.number for m in failed]


def _rename_everywhere(state: BlogState, keyword: str, word: str, at: datetime) -> None:
    """``keyword`` is "Pactmaker" or "Seraphim"; the text says it as ``state.keywords[keyword]``."""
    old = state.keywords[keyword]
    for r in state.rules:
        text, title = rename(r.text, old, word), rename(r.title, old, word)
        if (text, title) != (r.text, r.title):
            r.text, r.title = text, title
            r.history.append(RuleVersion(text=text, title=title, by=ADDRESS, at=at))
    state.keywords[keyword] = word
