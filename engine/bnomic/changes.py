"""Change lines (CONTRACT.md "B Nomic", Change lines): read out of a proposal's Body, applied in
order when it Passes, each that can (one that cannot is skipped and reported).

A line in a change line's form opens a change; an Enact's or an Amend's TEXT runs on over the
following lines up to the next change line; any other line is prose (the Chairman applies prose
with ``Apply N:``). A ``Set NAME = VALUE`` line sets a declared parameter (engine/bnomic/mechanics.py);
a Proposal whose ``Set`` line names none, or a value out of bounds, is refused on arrival.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from engine import mechanics as generic
from engine.bnomic import mechanics, ministries, players, points
from engine.bnomic.ruletext import new_rule
from engine.bnomic.state import NDAY_NAMES, BNomicState, BPlayer, BRule, ChangeLine, Obligation, VictoryCondition
from engine.context import Context
from engine.state import RuleVersion
from engine.wording import counted

_RULE = r'(\d+(?:-\d+)?|"[^"]+")'
_WHO = r'("[^"]+"|\S+)'
_M = r"(?:m(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s+mackerel)"
FORMS = {
    "enact": re.compile(r'^enact\s+rule(?:\s+(\d+(?:-\d+)?))?(?:\s+"([^"]+)")?(?:\s+in\s+section\s+(\d+))?\s*:\s*(.*)$',
                        re.I),
    "amend": re.compile(rf"^amend\s+rule\s+{_RULE}\s*:\s*(.*)$", re.I),
    "repeal": re.compile(rf"^repeal\s+rule\s+{_RULE}$", re.I),
    "rename": re.compile(rf'^rename\s+rule\s+{_RULE}\s+to\s+"([^"]+)"$', re.I),
    "renumber": re.compile(rf"^renumber\s+rule\s+{_RULE}\s+to\s+(\d+(?:-\d+)?)$", re.I),
    "points": re.compile(rf"^{_WHO}\s+(gains|loses)\s+(\d{{1,9}})\s+points?$", re.I),
    "set_points": re.compile(rf"^set\s+points\s+of\s+{_WHO}\s+to\s+(\d{{1,9}})$", re.I),
    "mackerel": re.compile(rf"^{_WHO}\s+(gains|loses)\s+{_M}$", re.I),
    "set_mackerel": re.compile(rf"^set\s+mackerel\s+of\s+{_WHO}\s+to\s+{_M}$", re.I),
    "hit_points": re.compile(rf"^set\s+hit\s+points\s+of\s+{_WHO}\s+to\s+(-?\d{{1,9}})$", re.I),
    "hit_points_change": re.compile(rf"^{_WHO}\s+(gains|loses)\s+(\d{{1,9}})\s+hit\s+points?$", re.I),
    "vote_power": re.compile(rf"^set\s+vote\s+power\s+of\s+{_WHO}\s+to\s+(\d{{1,9}}(?:/\d{{1,9}}|\.\d{{1,9}})?)$",
                             re.I),
    "assign": re.compile(rf"^assign\s+(.+?)\s+to\s+{_WHO}$", re.I),
    "vacate": re.compile(r"^vacate\s+(.+)$", re.I),
    "trophy": re.compile(rf"^award\s+a\s+trophy\s+to\s+{_WHO}\s*:\s*(.+)$", re.I),
    "grant": re.compile(rf"^grant\s+(.+?)\s+to\s+{_WHO}$", re.I),
    "revoke": re.compile(rf"^revoke\s+(.+?)\s+from\s+{_WHO}$", re.I),
    "obligation": re.compile(r"^obligation\s+of\s+(.+?)\s*:\s*(.+)$", re.I),
    "victory": re.compile(r'^create\s+victory\s+condition\s+"([^"]+)"\s*:\s*(.*)$', re.I),
    "repeal_victory": re.compile(r'^repeal\s+victory\s+condition\s+"([^"]+)"$', re.I),
    "add_player": re.compile(r'^add\s+player\s+"([^"]{1,64})"\s+<([^<>\s]{1,254}@[^<>\s]{1,254})>$', re.I),
    "remove_player": re.compile(rf"^remove\s+player\s+{_WHO}$", re.I),
    "clock": re.compile(r"^set\s+the\s+clock\s+to\s+nweek\s+(\d{1,6})\s+nday\s+(\d{1,2})(?:\s+(on|off))?"
                        r"(?:\s+ndelay\s+(\d{1,6}))?$", re.I),
    "set": re.compile(r"^set\s+[a-z]\w*\s*=.*$", re.I),  # a parameter (engine/bnomic/mechanics.py)
}
_TEXT = ("enact", "amend", "victory")
_VC_PART = re.compile(r"^\s*(trigger|victors|cleanup|prize)\s*:\s*(.*)$", re.I)
# a proposal's ``Conflicts:`` and ``Depends on:`` lines (proposals.py): neither prose nor TEXT
LISTS = re.compile(r"^\s*(conflicts|depends\s+on|dependencies)\s*:\s*(.*)$", re.I)


class Refused(Exception):
    """A change line that cannot apply now, and why."""


def parse(body: str) -> list[ChangeLine]:
    out: list[ChangeLine] = []
    for raw in body.replace("\r\n", "\n").split("\n"):
        line = raw.strip()
        kind = next((k for k, form in FORMS.items() if form.match(line)), None)
        if LISTS.match(line):
            continue
        if kind is not None:
            out.append(ChangeLine(kind=kind, line=line))
        elif out and out[-1].kind in _TEXT:
            out[-1].text = f"{out[-1].text}\n{raw}" if out[-1].text else raw
    for c in out:
        if c.kind in _TEXT:
            first = FORMS[c.kind].match(c.line).groups()[-1]  # type: ignore[union-attr]
            c.text = "\n".join(x for x in (first, c.text) if x).strip()
    return out


def prose(body: str) -> list[str]:
    """The Body's lines that are no change line, no TEXT of one and no ``Conflicts:`` or ``Depends on:``
    line: what the Chairman applies by hand (``Apply N:``)."""
    out: list[str] = []
    in_text = False
    for raw in body.replace("\r\n", "\n").split("\n"):
        line = raw.strip()
        kind = next((k for k, form in FORMS.items() if form.match(line)), None)
        if kind is not None:
            in_text = kind in _TEXT
        elif line and not in_text and not LISTS.match(line):
            out.append(line)
    return out


def setting(change: ChangeLine) -> generic.Setting:
    """A ``Set NAME = VALUE`` line as read; Refused, with the form expected, when NAME is no declared
    parameter or VALUE out of its bounds."""
    try:
        read = mechanics.DECLARED.read_set(change.line)
    except generic.Refused as why:
        raise Refused(str(why)) from None
    assert read is not None, "FORMS['set'] matched it"
    return read


def apply(state: BNomicState, change: ChangeLine, by: str, ctx: Context) -> str:
    """Apply one change line; what it did. Raises Refused when it cannot."""
    m = FORMS[change.kind].match(change.line)
    assert m is not None
    return APPLY[change.kind](state, m, change.text, by, ctx)


def rule_named(state: BNomicState, ref: str) -> BRule:
    """The rule in force a RULE names: its number, or its name in double quotes."""
    ref = ref.strip()
    if ref.startswith('"'):
        found = [r for r in state.rules if r.title.lower() == ref.strip('"').lower() and not r.repealed]
    else:
        found = [r for r in state.rules if r.label == ref and not r.repealed]
    if not found:
        raise Refused(f"there is no rule {ref}")
    return found[0]


def _player(state: BNomicState, who: str) -> BPlayer:
    p = players.find(state, who)
    if p is None:
        raise Refused(f"there is no Player {who}")
    return p


def _mackerel(m: re.Match[str], at: int) -> Decimal:
    try:
        return Decimal(m[at] or m[at + 1])
    except InvalidOperation:
        raise Refused("not an amount of mackerel") from None


def _enact(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    label, name, section = m[1], m[2] or "", m[3]
    if label is not None and any(r.label == label and not r.repealed for r in state.rules):
        raise Refused(f"there is a rule {label} already")
    if section is None and label is not None:
        part = label.partition("-")[0]
        section = part if any(s.number == part for s in state.sections) else None
    rule = new_rule(len(state.rules) + 1, label, name, text, section, by=by)
    rule.history[0].at = ctx.at
    state.rules.append(rule)
    return f"rule {label or '(unnumbered)'} {name} enacted".replace("  ", " ")


def _amend(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    rule = rule_named(state, m[1])
    rule.text = text
    rule.amended_by.append(by)
    rule.history.append(RuleVersion(text=text, title=rule.title, by=by, at=ctx.at))
    return f"rule {rule.label} amended"


def _repeal(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    rule = rule_named(state, m[1])
    rule.repealed = True
    rule.amended_by.append(by)
    return f"rule {rule.label} repealed"


def _rename(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    rule = rule_named(state, m[1])
    rule.title = m[2]
    rule.history.append(RuleVersion(text=rule.text, title=rule.title, by=by, at=ctx.at))
    return f"rule {rule.label} renamed {rule.title}"


def _renumber(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    rule = rule_named(state, m[1])
    if any(r.label == m[2] and not r.repealed for r in state.rules):
        raise Refused(f"there is a rule {m[2]} already")
    old = renumber(rule, m[2])
    return f"rule {old} is now rule {rule.label}"


def renumber(rule: BRule, label: str | None) -> str | None:
    """The rule takes a new number (or none); the old one is kept in ``formerly``, so that the rule
    keeps its mechanics (engine/bnomic/mechanics.py). Returns the old number."""
    old = rule.label
    if old is not None:
        rule.formerly.append(old)
    rule.label = label
    return old


def _points(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    p = _player(state, m[1])
    delta = int(m[3]) * (1 if m[2].lower() == "gains" else -1)
    points.gain(state, p, delta, f"{by}: {m[0]}", ctx)
    return f"{p.name} has {counted(p.score, 'point')}"


def _set_points(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    p = _player(state, m[1])
    points.gain(state, p, int(m[2]) - p.score, f"{by}: {m[0]}", ctx)
    return f"{p.name} has {counted(p.score, 'point')}"


def _mackerel_change(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    p = _player(state, m[1])
    amount = _mackerel(m, 3) * (1 if m[2].lower() == "gains" else -1)
    p.mackerel = str(max(Decimal(p.mackerel) + amount, Decimal(0)))
    return f"{p.name} has m{Decimal(p.mackerel).normalize():f}"


def _set_mackerel(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    p = _player(state, m[1])
    p.mackerel = str(_mackerel(m, 2))
    return f"{p.name} has m{Decimal(p.mackerel).normalize():f}"


def _hit_points(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    """2-11: Hit Points that would be set below 0 are set to 0 (the Player is Dead)."""
    p = _player(state, m[1])
    p.hit_points = max(int(m[2]), 0)
    return f"{p.name} has {p.hit_points} Hit Points" + (" and is Dead (2-11)" if p.hit_points == 0 else "")


def _hit_points_change(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    p = _player(state, m[1])
    p.hit_points = max(p.hit_points + int(m[3]) * (1 if m[2].lower() == "gains" else -1), 0)
    return f"{p.name} has {p.hit_points} Hit Points" + (" and is Dead (2-11)" if p.hit_points == 0 else "")


def _vote_power(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    p = _player(state, m[1])
    try:
        p.vote_power = str(Fraction(m[2]))
    except ZeroDivisionError:
        raise Refused("a Vote Power is a nonnegative rational: no division by 0") from None
    return f"{p.name}'s Vote Power is {p.vote_power}"


def _assign(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    ministry = ministries.named(state, m[1])
    if ministry is None:
        raise Refused(f"there is no Ministry {m[1]}")
    p = _player(state, m[2])
    ministries.assign(state, ministry, p.email, "assigned", ctx)
    return f"{p.name} holds the {ministry.name}"


def _vacate(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    ministry = ministries.named(state, m[1])
    if ministry is None:
        raise Refused(f"there is no Ministry {m[1]}")
    ministries.assign(state, ministry, None, "vacated", ctx)
    return f"the {ministry.name} is Vacant"


def _add_player(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    """A Player made by a change line (a Refresh Proposal's "valid list of players", Rule 0): as if he joined."""
    name, email = players.clean(m[1]), m[2].strip().lower()
    if (why := players.invalid(name)) is not None:
        raise Refused(why)
    if state.player(email) is not None or state.player(name) is not None:
        raise Refused(f"{email} or the name {name} is a Player already")
    players.add(state, email, name, ctx)
    return f"{name} <{email}> is a Player"


def _remove_player(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    p = _player(state, m[1])
    players.remove(state, p, "removed", ctx)
    return f"{p.name} is no longer a Player"


def _clock(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    nday = int(m[2])
    if not 1 <= nday <= len(NDAY_NAMES) or int(m[1]) < 1:
        raise Refused("nday is 1 to 12 and nweek positive (2-1)")
    c = state.clock
    c.nweek, c.nday = int(m[1]), nday
    if m[3] is not None:
        c.on = m[3].lower() == "on"
    if m[4] is not None:
        c.ndelay = int(m[4])
    return f"the Clock is nweek {c.nweek} nday {c.nday}, {'On' if c.on else 'Off'}, ndelay {c.ndelay}"


def _trophy(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    p = _player(state, m[1])
    p.trophies.append(m[2].strip())
    return f"{p.name} has a Trophy: {m[2].strip()} (Win Count {p.win_count})"


def _grant(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    p = _player(state, m[2])
    if m[1] not in p.properties:
        p.properties.append(m[1])
    return f"{p.name} has {m[1]}"


def _revoke(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    p = _player(state, m[2])
    if m[1] not in p.properties:
        raise Refused(f"{p.name} has no {m[1]}")
    p.properties.remove(m[1])
    return f"{p.name} no longer has {m[1]}"


def _obligation(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    ministry = ministries.named(state, m[1])
    if ministry is None:
        raise Refused(f"there is no Ministry {m[1]}")
    number = len(state.obligations) + 1
    state.obligations.append(Obligation(number=number, ministry=ministry.key, text=m[2].strip(), by=by))
    return f"obligation {number} of the {ministry.name}"


def _victory(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    if any(v.name.lower() == m[1].lower() and not v.repealed for v in state.victory_conditions):
        raise Refused(f'there is a victory condition "{m[1]}" already')
    found = (_VC_PART.match(line) for line in text.splitlines())
    parts = {p[1].lower(): p[2].strip() for p in found if p is not None}
    state.victory_conditions.append(VictoryCondition.model_validate({**parts, "name": m[1]}))
    return f'victory condition "{m[1]}" created'


def _repeal_victory(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    found = next((v for v in state.victory_conditions if v.name.lower() == m[1].lower() and not v.repealed), None)
    if found is None:
        raise Refused(f'there is no victory condition "{m[1]}"')
    found.repealed = True
    return f'victory condition "{found.name}" repealed'


def _set(state: BNomicState, m: re.Match[str], text: str, by: str, ctx: Context) -> str:
    return mechanics.put(state, setting(ChangeLine(kind="set", line=m[0])))


APPLY: dict[str, Callable[[BNomicState, re.Match[str], str, str, Context], str]] = {
    "enact": _enact, "amend": _amend, "repeal": _repeal, "rename": _rename, "renumber": _renumber,
    "points": _points, "set_points": _set_points, "mackerel": _mackerel_change, "set_mackerel": _set_mackerel,
    "hit_points": _hit_points, "hit_points_change": _hit_points_change, "vote_power": _vote_power, "assign": _assign, "vacate": _vacate, "clock": _clock,
    "trophy": _trophy, "grant": _grant, "revoke": _revoke, "obligation": _obligation, "victory": _victory,
    "repeal_victory": _repeal_victory, "set": _set,
    "add_player": _add_player, "remove_player": _remove_player,
}
