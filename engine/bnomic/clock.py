"""The Clock (2-1, 3-8) and every 00:00 UTC after ``[game] start``: the timed effects in the
contract's order (``MIDNIGHT``, a literal list a test pins), and the Ministers' power to start and
stop the Clock.

``state.midnights`` counts the midnights run, so that the clock step and a replay agree on which
are done; mail received at time T sees every midnight at or before T run first.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time, timedelta, timezone

from engine.bnomic import (
    actions, auctions, consultations, emergency, factions, mechanics, ministries, offices, players, procedure, schedule,
    voting)
from engine.bnomic.amounts import mackerel_text
from engine.bnomic.commands import ClockCmd
from engine.bnomic.events import ClockChanged, Daily
from engine.bnomic.state import BALLOTDAY, LAST_NDAY, NDAY_NAMES, BNomicState
from engine.context import Context
from engine.events import Cause, Event
from engine.inputs import Message
from engine.refusal import Refusal



@dataclass(frozen=True)
class Midnight:
    """What this midnight is: ``wraps`` the end of an nweek (Clock On at nday 12); ``on`` whether
    the Clock was On (an nday change) or Off (an ndelay change)."""
    number: int
    on: bool
    wraps: bool
    first_event: int  # where this midnight's events begin in the step's
    runner: schedule.Runner  # how scheduled actions run


Step = Callable[[BNomicState, Midnight, Context], None]


def midnight_at(state: BNomicState, n: int) -> datetime:
    """The ``n``-th 00:00 UTC after ``[game] start`` (from 1)."""
    start = state.started.astimezone(timezone.utc)
    first = datetime.combine(start.date(), time(), tzinfo=timezone.utc)
    return first + timedelta(days=n)


def next_due(state: BNomicState) -> datetime:
    """The next midnight, or an absolute time an action or an increment of the Pause waits for before it."""
    return min(t for t in (midnight_at(state, state.midnights + 1), schedule.next_at(state), procedure.due(state))
               if t is not None)


def catch_up(state: BNomicState, until: datetime, ctx: Context, runner: schedule.Runner) -> None:
    """Run every midnight, scheduled action and increment of the Pause at or before ``until`` not yet
    run, in time order (an action at a midnight's very time runs in it, after the change). In a
    State of Emergency no midnight is game time (Rule 0, Reading 38): it only adds to the Pause, and
    an action due at an absolute time then does not occur."""
    while True:
        midnight, at, due = midnight_at(state, state.midnights + 1), schedule.next_at(state), procedure.due(state)
        if at is not None and at < midnight and at <= until and (due is None or at <= due):
            _at_time(state, at, ctx, runner)
            continue
        if due is not None and due < midnight and due <= until:
            procedure.increment_now(state, ctx)
            emergency.sync(state, ctx)
            continue
        if midnight > until:
            return
        state.midnights += 1
        c = state.clock
        m = Midnight(number=state.midnights, on=c.on, wraps=c.on and c.nday == LAST_NDAY,
                     first_event=len(ctx.events), runner=runner)
        with ctx.because(Cause("midnight", m.number)):
            if state.emergency.active:
                _at_time(state, midnight, ctx, runner)
                procedure.at_midnight(state, ctx)
            else:
                for _, step in MIDNIGHT:
                    step(state, m, ctx)
            emergency.sync(state, ctx)


def _at_time(state: BNomicState, at: datetime, ctx: Context, runner: schedule.Runner) -> None:
    if state.emergency.active:
        schedule.drop(state, at, ctx)
    else:
        schedule.at_time(state, at, ctx, runner)


def _end_of_voting(state: BNomicState, m: Midnight, ctx: Context) -> None:
    if m.wraps:
        voting.end(state, ctx)


def _actions(state: BNomicState, m: Midnight, ctx: Context) -> None:
    actions.close_windows(state, ctx)


def _auctions_end(state: BNomicState, m: Midnight, ctx: Context) -> None:
    if not mechanics.on(state, "3-14"):
        return
    if m.on and state.clock.nday == auctions.ZARPINT:
        auctions.end_of_zarpint(state, ctx)
    elif m.wraps:
        auctions.end_of_thirnight(state, ctx)


def _zarpint(state: BNomicState, m: Midnight, ctx: Context) -> None:
    if m.on and state.clock.nday == auctions.ZARPINT and mechanics.on(state, "3-14"):
        auctions.start_of_zarpint(state, ctx)


def _consultations(state: BNomicState, m: Midnight, ctx: Context) -> None:
    if mechanics.on(state, "2-5"):
        consultations.at_midnight(state, ctx)


def _scheduled_end(state: BNomicState, m: Midnight, ctx: Context) -> None:
    if m.on:
        schedule.at_edge(state, "end", midnight_at(state, m.number), ctx, m.runner)


def _scheduled_start(state: BNomicState, m: Midnight, ctx: Context) -> None:
    if m.on:
        schedule.at_edge(state, "start", midnight_at(state, m.number), ctx, m.runner)


def _scheduled_at(state: BNomicState, m: Midnight, ctx: Context) -> None:
    _at_time(state, midnight_at(state, m.number), ctx, m.runner)


def _end_of_nweek(state: BNomicState, m: Midnight, ctx: Context) -> None:
    if m.wraps and mechanics.on(state, "2-3"):
        offices.end_of_nweek(state)
    if m.wraps and mechanics.on(state, "6-5"):
        ministries.end_of_nweek(state, ctx)


def _change(state: BNomicState, m: Midnight, ctx: Context) -> None:
    """On: nday + 1 (after 12: nday 1, nweek + 1, Clock Off); Off: ndelay + 1. rdays + 1."""
    c = state.clock
    if m.on:
        c.nday_changes += 1
        if m.wraps:
            c.nday, c.nweek, c.on = 1, c.nweek + 1, False
        else:
            c.nday += 1
    else:
        c.ndelay += 1
        c.ndelay_changes += 1
    c.rdays += 1
    ctx.emit(ClockChanged(nweek=c.nweek, nday=c.nday, on=c.on, ndelay=c.ndelay, how="midnight"))


def _hit_points(state: BNomicState, m: Midnight, ctx: Context) -> None:
    """Reading 12: at the start of each nday a living Player below 10 (the parameter max_hit_points)
    recovers 1, while 2-11 is in force."""
    if m.on and mechanics.on(state, "2-11"):
        most = mechanics.value(state, "max_hit_points")
        for p in state.players:
            if 0 < p.hit_points < most:
                p.hit_points += 1


def _breakday(state: BNomicState, m: Midnight, ctx: Context) -> None:
    if m.wraps and mechanics.on(state, "3-5"):
        players.new_nweek(state)
    if m.wraps and mechanics.on(state, "5-3"):
        factions.decay(state, ctx)
    if (m.wraps or (not m.on and state.clock.ndelay % 10 == 0)) and mechanics.on(state, "2-5"):
        consultations.reassign(state, ctx)


def _ballotday(state: BNomicState, m: Midnight, ctx: Context) -> None:
    """2-1, 2-2, 2-7: at the beginning of the Voting Period the Clock becomes Off."""
    if m.on and state.clock.nday == BALLOTDAY:
        state.clock.on, state.ballot_published = False, False
        voting.ballotday(state, ctx)


def _daily(state: BNomicState, m: Midnight, ctx: Context) -> None:
    if not ctx.config.options["daily_mail"]:
        return
    c = state.clock
    at = midnight_at(state, m.number).strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = [f"nweek {c.nweek}, nday {c.nday} ({NDAY_NAMES[c.nday - 1]}), the Clock is "
             f"{'On' if c.on else 'Off'}, ndelay {c.ndelay}"]
    lines += _what_happened(ctx.events[m.first_event:])
    if c.voting:
        lines.append("It is the Voting Period: " + (", ".join(
            f"proposal {p.number}" for p in state.proposals if p.status == "open") or "no proposal is Open"))
    lines += consultations.owed(state)
    vacant = [x.name for x in ministries.vacant(state)]
    if vacant:
        lines.append("Vacant: " + ", ".join(vacant))
    ctx.emit(Daily(at=at, midnight=m.number, clock=state.public_json()["clock"], lines=lines))


def _what_happened(events: list[Event]) -> list[str]:
    """The daily mail's lines of what this midnight ended and began."""
    lines = []
    for e in events:
        d = e.data
        if e.kind == "voting_ended":
            results = [r["result"] for r in d["results"]]
            lines.append(f"The Voting of nweek {d['nweek']} ended: {results.count('PASSED')} Passed, "
                         f"{results.count('FAILED')} Failed, {results.count('PENDING')} back to Pending")
        elif e.kind == "action_closed":
            lines.append(f"A{d['number']} ({d['kind']}) {d['status']}: {d['why']}")
        elif e.kind == "auction":
            lines.append(f"Auction of {d['blueprint']}: {d['what']}" + (
                f" ({d['bidder']}, {mackerel_text(d['amount'])})" if d["bidder"] else ""))
        elif e.kind == "threat_flag":
            lines.append(f"The Threat Flag is {d['flag']}")
        elif e.kind == "consultation":
            lines.append(f"Consultation {d['number']}: {d['why']}")
        elif e.kind == "opened":
            lines.append(f"Ballotday: {len(d['keys'])} proposal{'s' * (len(d['keys']) != 1)} became Open")
    return lines


# The order of timed effects at a midnight (CONTRACT.md "B Nomic"): 1. the end of the period,
# 2. the change, 3. the start of the new nday; then the daily mail.
MIDNIGHT: tuple[tuple[str, Step], ...] = (
    ("1.1 the end of Voting", _end_of_voting),
    ("1.2 dependent actions whose window closes", _actions),
    ("1.3 auctions: the end-of-Zarpint purchase or penalty, the end-of-Thirnight second bidder", _auctions_end),
    ("1.4 consultations: claim tallies, then Pondering", _consultations),
    ("1.5 scheduled actions at the end of the nday", _scheduled_end),
    ("1.6 Victory Conditions cease to be Fulfilled; Ministers paid, then all Ministries Vacant", _end_of_nweek),
    ("2 the Clock changes", _change),
    ("3.1 Hit Points", _hit_points),
    ("3.2 nday 1: Active, Faction Vote Power x3/4, consultations reassigned (also after every 10th ndelay)", _breakday),
    ("3.3 nday 9: Clock Off, Pending proposals Open, Vote Power", _ballotday),
    ("3.4 nday 11: bidding ends, the highest bidder buys if he can", _zarpint),
    ("3.5 scheduled actions at the start of the nday", _scheduled_start),
    ("4 scheduled actions at this absolute time", _scheduled_at),
    ("the daily mail", _daily),
)


def set_clock(state: BNomicState, msg: Message, cmd: ClockCmd, ctx: Context) -> None:
    """2-1: the MoM turns the Clock Off, or On with no Vacant Ministry (Reading 26: MiniMinistries
    count); the Chairman turns it On in the Voting Period after his Ballot, until it is next On."""
    c, sender = state.clock, msg.sender
    mom, chairman = state.holds(sender, "ministry"), state.holds(sender, "change")
    if c.on == cmd.on:
        ctx.refuse(cmd.line, Refusal(f"the Clock is {'On' if c.on else 'Off'} already", ruleless="already"))
        return
    if not cmd.on:
        if not mom:
            ctx.refuse(cmd.line, Refusal("only the MoM stops the Clock", "2-1"))
            return
    elif not (chairman and c.voting and state.ballot_published):
        vacant = ministries.vacant(state)
        if not mom:
            ctx.refuse(cmd.line, Refusal("only the MoM, or the Chairman after publishing a Ballot in the Voting "
                                         "Period, starts the Clock", "2-1"))
            return
        if vacant:
            ctx.refuse(cmd.line, Refusal(f"the {vacant[0].name} is Vacant: the MoM starts the Clock only with no "
                                         "Vacant Ministry", "2-1"))
            return
    c.on = cmd.on
    if c.on:
        c.ndelay, state.ballot_published = 0, False
    ctx.emit(ClockChanged(nweek=c.nweek, nday=c.nday, on=c.on, ndelay=c.ndelay, how=sender))
    ctx.say(cmd.line, f"the Clock is {'On' if c.on else 'Off'}: nweek {c.nweek}, nday {c.nday} "
            f"({NDAY_NAMES[c.nday - 1]})")
