"""The acts of the Ministers: the Chairman applying a Passed proposal's prose (2-2), the MetaMin's
MiniMinistries (6-9), the Rulekeeper's numbers and sections (1-8) and Fulfilled Victory Conditions
(2-3), an obliged Minister's fulfilled obligation (6-10). Who holds the Ministry is checked before
(ruleset.OFFICE), but for an obligation, whose Ministry is the obligation's."""
from __future__ import annotations

import re

from engine.bnomic.citing import cited
from engine.bnomic import changes, ministries, voting
from engine.bnomic.commands import ApplyCmd, FulfilledCmd, MiniMinistryCmd, RulekeeperCmd
from engine.bnomic.state import BNomicState, Ministry, Section
from engine.context import Context
from engine.events import Cause
from engine.inputs import Message
from engine.refusal import Refusal


def apply(state: BNomicState, msg: Message, cmd: ApplyCmd, ctx: Context) -> None:
    p = state.proposal(cmd.number)
    if p is None or not p.passed:
        ctx.refuse(cmd.line, Refusal(f"proposal {cmd.number} has not Passed", "2-2"))
        return
    if cmd.note is not None:
        p.applied.append(cmd.note.strip())
        ctx.say(cmd.line, f"recorded: proposal {p.number}'s prose applied: {cmd.note.strip()}")
        return
    lines = changes.parse(cmd.text)
    if not lines:
        ctx.refuse(cmd.line, Refusal("no change line follows", "1-8"))
        return
    with ctx.because(Cause("proposal", p.key)):
        voting.apply_changes(state, p.model_copy(update={"changes": lines}), ctx)
    p.applied.extend(c.line for c in lines)
    ctx.say(cmd.line, f"proposal {p.number}'s prose applied: {len(lines)} change line{'s' * (len(lines) != 1)}")


def miniministry(state: BNomicState, msg: Message, cmd: MiniMinistryCmd, ctx: Context) -> None:
    name = " ".join(cmd.name.split())
    found = ministries.named(state, name)
    if cmd.responsibilities is None:
        if found is None or not found.mini:
            ctx.refuse(cmd.line, Refusal(f"there is no MiniMinistry {name}", ruleless="no such"))
            return
        state.ministries = [m for m in state.ministries if m is not found]
        ctx.say(cmd.line, f"the MiniMinistry {found.name} is dissolved")
    elif found is not None or not name:
        ctx.refuse(cmd.line, Refusal(f"there is a Ministry {name} already", ruleless="already"))
    else:
        state.ministries.append(Ministry(name=name, minister=None, key=name.lower(), mini=True,
                                         responsibilities=cmd.responsibilities.strip()))
        ctx.say(cmd.line, f"the MiniMinistry {name} exists, Vacant (6-9)")


_NUMBER = re.compile(r"^\d+(?:-\d+)?$")


def rulekeeper(state: BNomicState, msg: Message, cmd: RulekeeperCmd, ctx: Context) -> None:
    try:
        done = _RULEKEEPER[cmd.what](state, cmd.target.strip(), cmd.value.strip())
    except changes.Refused as why:
        ctx.refuse(cmd.line, cited(str(why), "1-8"))
        return
    ctx.say(cmd.line, done)


def _section(state: BNomicState, number: str) -> Section:
    found = next((s for s in state.sections if s.number == number), None)
    if found is None:
        raise changes.Refused(f"there is no section {number}")
    return found


def _renumber_rule(state: BNomicState, target: str, value: str) -> str:
    if not _NUMBER.match(value):
        raise changes.Refused("a rule number is like 2-13")
    rule = changes.rule_named(state, target)
    if any(r.label == value and not r.repealed for r in state.rules):
        raise changes.Refused(f"there is a rule {value} already")
    old = changes.renumber(rule, value)
    return f"rule {old} is now rule {value}"


def _unnumber_rule(state: BNomicState, target: str, value: str) -> str:
    rule = changes.rule_named(state, target)
    old = changes.renumber(rule, None)
    return f"rule {old} ({rule.title}) has no number"


def _create_section(state: BNomicState, target: str, value: str) -> str:
    if any(s.number == target for s in state.sections):
        raise changes.Refused(f"there is a section {target} already")
    state.sections.append(Section(number=target, name=value))
    return f"section {target} {value} exists"


def _renumber_section(state: BNomicState, target: str, value: str) -> str:
    section = _section(state, target)
    if any(s.number == value for s in state.sections):
        raise changes.Refused(f"there is a section {value} already")
    section.number = value
    for r in state.rules:
        if r.section == target:
            r.section = value
    return f"section {target} is now section {value}"


def _rename_section(state: BNomicState, target: str, value: str) -> str:
    _section(state, target).name = value
    return f"section {target} is named {value}"


def _remove_section(state: BNomicState, target: str, value: str) -> str:
    section = _section(state, target)
    state.sections = [s for s in state.sections if s is not section]
    for r in state.rules:
        if r.section == target:
            r.section = None
    return f"section {target} is removed; its rules are in no section"


def _move_rule(state: BNomicState, target: str, value: str) -> str:
    rule, section = changes.rule_named(state, target), _section(state, value)
    rule.section = section.number
    return f"rule {rule.label or rule.title} is in section {section.number}"


_RULEKEEPER = {"renumber_rule": _renumber_rule, "unnumber_rule": _unnumber_rule, "create_section": _create_section,
               "renumber_section": _renumber_section, "rename_section": _rename_section,
               "remove_section": _remove_section, "move_rule": _move_rule}


def fulfilled(state: BNomicState, msg: Message, cmd: FulfilledCmd, ctx: Context) -> None:
    if cmd.obligation is not None:
        _obligation(state, msg, cmd, ctx)
        return
    if not state.holds(msg.sender, "law"):
        ctx.refuse(cmd.line, Refusal("only the Rulekeeper may do that, and you do not hold the Ministry now", "2-3"))
        return
    vc = next((v for v in state.victory_conditions if v.name.lower() == cmd.name.lower() and not v.repealed), None)
    named = [state.player(v.strip()) for v in cmd.victors]
    victors = [p for p in named if p is not None]
    if vc is None:
        ctx.refuse(cmd.line, Refusal(f'there is no victory condition "{cmd.name}"', ruleless="no such"))
    elif vc.fulfilled:
        ctx.refuse(cmd.line, Refusal(f'"{vc.name}" is Fulfilled already this nweek', "2-3"))
    elif len(victors) < len(named) or not victors:
        ctx.refuse(cmd.line, Refusal("name each Victor, a Player", "2-3"))
    else:
        vc.fulfilled = True
        for p in victors:
            p.trophies.append(vc.name)
        ctx.say(cmd.line, f'"{vc.name}" is Fulfilled: a Trophy to {", ".join(p.name for p in victors)}'
                f"{'; Cleanup: ' + vc.cleanup if vc.cleanup else ''}")


def _obligation(state: BNomicState, msg: Message, cmd: FulfilledCmd, ctx: Context) -> None:
    ob = state.obligations[cmd.obligation - 1] if cmd.obligation and cmd.obligation <= len(state.obligations) else None
    if ob is None:
        ctx.refuse(cmd.line, Refusal(f"there is no obligation {cmd.obligation}", ruleless="no such"))
    elif not state.holds(msg.sender, ob.ministry):
        ctx.refuse(cmd.line, Refusal("only the obliged Minister fulfils it", "6-10"))
    elif ob.fulfilled is not None:
        ctx.refuse(cmd.line, Refusal(f"obligation {ob.number} is fulfilled already", ruleless="already"))
    else:
        ob.fulfilled = cmd.note.strip() or "fulfilled"
        ctx.say(cmd.line, f"obligation {ob.number} fulfilled")


def end_of_nweek(state: BNomicState) -> None:
    """2-3: every Fulfilled Victory Condition ceases to be so at the end of each nweek."""
    for v in state.victory_conditions:
        v.fulfilled = False
